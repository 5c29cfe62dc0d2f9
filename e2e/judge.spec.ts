/**
 * Covers: the LLM judge panel against the local OpenAI-compatible stub (src/test/judgeStub.ts):
 * the page's Content-Security-Policy blocks connections to any origin but its own until a judge is
 * configured, and then allows that origin only; the judge is configured through the UI (the page
 * reloads to allow it); the group grader runs over the demo's mixed groups with progress, tokens,
 * cost and failures, a judge error listed; the spread report; the offline heuristic grader; the
 * judge's ranking feeds GAR in a group no person ranked, labelled by its source; the rollouts are
 * labelled, calibration compares the LLM run with the labels and the test split is unsealed once,
 * and every export kind is downloaded (issue 6's acceptance flow in one spec). The API key
 * appears in no localStorage or sessionStorage entry, no IndexedDB record, no exported annotations
 * file and no console line.
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll } from "vitest";
import { generateDemo } from "../scripts/generate-demo.ts";
import { judgeScopeGroups, judgeTaskText, type RolloutGroup } from "../src/core/index.ts";
import { loadText } from "../src/io/index.ts";
import { startJudgeStub, stubCompletion, type JudgeStub } from "../src/test/judgeStub.ts";
import { describe, expect, test } from "./harness/test.ts";
import { Annotate } from "./pages/Annotate.ts";
import { Calibration } from "./pages/Calibration.ts";
import { Exports } from "./pages/Exports.ts";
import { GroupView } from "./pages/GroupView.ts";

const KEY = "sk-e2e-CANARY5k4j3h2g1f0d";
const dir = mkdtempSync(join(tmpdir(), "judge-spec-"));

let stub: JudgeStub;
let stubOrigin: string;
let mixed: RolloutGroup[];

beforeAll(async () => {
  mixed = judgeScopeGroups((await loadText("demo.jsonl", generateDemo())).groups, "mixed");
  // The last mixed group's request gets an unusable reply (a judge error); every other one ranks
  // the passes best-first by index. The failing group is picked by its task, not by arrival order:
  // requests run concurrently, and the group the spec labels (mixed[1]) must get verdicts.
  // A short delay keeps the progress line on screen while requests run.
  const failingTask = `Task:\n${judgeTaskText(mixed[mixed.length - 1]!)}\n`;
  stub = await startJudgeStub((request) => {
    const body = request.body as { messages: { role: string; content: string }[] };
    const user = body.messages[1]!.content;
    const passes = [...user.matchAll(/<attempt index="(\d+)" result="PASS">/g)].map((m) =>
      Number(m[1]),
    );
    const reply = user.includes(failingTask)
      ? "I cannot decide."
      : JSON.stringify({ tiers: passes.map((p) => [p]), hacks: [] });
    return stubCompletion(reply, { prompt_tokens: 1000, completion_tokens: 20 }, 150);
  });
  stubOrigin = new URL(stub.baseURL).origin;
});
afterAll(() => stub.close());

/**
 * Fetch a URL from the page: "ok <status>", or "blocked" with the CSP violation's blocked URI. The
 * stub answers OPTIONS with 204, so an allowed request logs nothing.
 */
async function fetchFromPage(page: Page, url: string, method = "OPTIONS"): Promise<string> {
  return page.evaluate(
    async ([target, verb]) => {
      const violations: string[] = [];
      const listen = (e: SecurityPolicyViolationEvent): void => {
        if (e.effectiveDirective === "connect-src") violations.push(`connect-src ${e.blockedURI}`);
      };
      document.addEventListener("securitypolicyviolation", listen);
      try {
        const response = await fetch(target, { method: verb });
        return `ok ${response.status}`;
      } catch {
        // The violation event is queued as a task; let it arrive.
        await new Promise((resolve) => setTimeout(resolve, 50));
        return `blocked ${violations.join(", ")}`;
      } finally {
        document.removeEventListener("securitypolicyviolation", listen);
      }
    },
    [url, method] as const,
  );
}

/**
 * Console lines Chromium prints for a connection the policy refused (expected in this spec): two
 * per blocked fetch ("Connecting to … violates … connect-src" and "Fetch API cannot load …").
 */
const refused = (line: string): boolean =>
  line.includes("Content Security Policy") &&
  (line.includes("connect-src") || line.includes("Refused to connect"));

async function openDemo(page: Page, baseUrl: string): Promise<void> {
  await page.goto(`${baseUrl}/?demo`);
  await page.getByTestId("dataset.counts").waitFor();
}

describe("LLM judge", () => {
  test("the policy allows no judge origin until one is configured", async ({
    baseUrl,
    page,
    pageErrors,
  }) => {
    await openDemo(page, baseUrl);
    const policy = page.locator('meta[http-equiv="Content-Security-Policy"][data-judge-origin]');
    expect(await policy.getAttribute("data-judge-origin")).toBe("");
    expect(await policy.getAttribute("content")).toBe("connect-src 'self'");
    expect(await fetchFromPage(page, `${stubOrigin}/v1/models`)).toBe(
      `blocked connect-src ${stubOrigin}/v1/models`,
    );
    expect(await fetchFromPage(page, `${baseUrl}/`, "GET")).toBe("ok 200");
    expect(stub.requests).toHaveLength(0);
    expect(pageErrors.list.filter((line) => !refused(line))).toEqual([]);
    expect(pageErrors.list.filter(refused)).toHaveLength(2);
  });

  test("configure, run the group grader and the heuristic, spread report, GAR by source, no key leaks", async ({
    baseUrl,
    page,
    pageErrors,
  }) => {
    const consoleLines: string[] = [];
    page.on("console", (m) => consoleLines.push(m.text()));
    await openDemo(page, baseUrl);
    // One annotated group with a ranking of two passes and a rubric, so that every export kind
    // has rows at the end (DPO pairs need two ranked passes; the rubrics file needs a rubric).
    const ranked = mixed.find(
      (g, i) => i !== 1 && g.rollouts.filter((r) => (r.reward ?? 0) >= 0.5).length >= 2,
    )!;
    const noted = ranked.id;
    const passes = ranked.rollouts.filter((r) => (r.reward ?? 0) >= 0.5).map((r) => r.id);
    const importPath = join(dir, "a.json");
    writeFileSync(
      importPath,
      JSON.stringify({
        version: 1,
        groups: { [noted]: { notes: "n", ranking: [[passes[0]], [passes[1]]] } },
        rubrics: {
          [noted]: {
            versions: [
              { version: 1, savedAt: "t", author: "human", solution: ["s"], behavior: ["b"] },
            ],
          },
        },
      }),
    );
    await page.getByTestId("annotations-import").setInputFiles(importPath);
    // Imported once it says so (the status may still read "saved" from the restore), then saved.
    await page.getByTestId("annotations.message").getByText("Imported annotations").waitFor();
    await page
      .locator('[data-testid="annotations.saved"][data-status="saved"][data-pending="0"]')
      .waitFor();

    // Configure the judge through the form: a new origin reloads the page to allow it.
    await page.getByTestId("panel.toggle.judge").click();
    const panel = page.getByTestId("panel.judge");
    await panel.getByTestId("judge.preset.vllm").click();
    expect(await panel.getByTestId("judge.base-url").inputValue()).toBe("http://127.0.0.1:8000/v1");
    await panel.getByTestId("judge.base-url").fill(stub.baseURL);
    await panel.getByTestId("judge.model").fill("stub-judge");
    await panel.getByTestId("judge.concurrency").fill("4");
    await panel.getByTestId("judge.priceIn").fill("0.5");
    await panel.getByTestId("judge.priceOut").fill("1.5");
    expect(await panel.getByTestId("judge.reload-note").innerText()).toContain(
      `Saving reloads the page to allow ${stubOrigin}`,
    );
    await Promise.all([
      page.waitForEvent("load"),
      panel.getByTestId("judge.save-connection").click(),
    ]);
    await page.getByTestId("dataset.counts").waitFor();
    const policy = page.locator('meta[http-equiv="Content-Security-Policy"][data-judge-origin]');
    expect(await policy.getAttribute("data-judge-origin")).toBe(stubOrigin);
    expect(await fetchFromPage(page, `${stubOrigin}/v1/models`)).toBe("ok 204");
    expect(await fetchFromPage(page, "http://127.0.0.1:9/v1/models")).toBe(
      "blocked connect-src http://127.0.0.1:9/v1/models",
    );

    // The key is typed after the reload (it is not remembered).
    await page.getByTestId("panel.toggle.judge").click();
    await panel
      .getByTestId("judge.connection-status")
      .getByText("Configured: stub-judge")
      .waitFor();
    await panel.getByTestId("judge.api-key").fill(KEY);
    expect(await panel.getByTestId("judge.scope-count").innerText()).toBe(`${mixed.length} groups`);

    await panel.getByTestId("judge.run.gar").click();
    const count = await panel.getByTestId("judge.progress-count").innerText();
    expect(count).toMatch(new RegExp(`^\\d+ of ${mixed.length}$`));
    await panel.getByTestId("judge.cancel").waitFor();
    const result = panel.getByTestId("judge.result");
    await result.getByText("Group grader (GAR): done").waitFor();
    const summary = await result.getByTestId("judge.result-summary").innerText();
    const tokens = mixed.length * 1020;
    expect(summary).toContain(`${mixed.length} groups judged; requests ${mixed.length}`);
    expect(summary).toContain("failures 1 (malformed reply 1)");
    expect(summary).toContain(
      `cost $${((mixed.length * 1000 * 0.5 + mixed.length * 20 * 1.5) / 1e6).toFixed(4)}`,
    );
    expect(tokens).toBeGreaterThan(0);
    const errors = result.getByTestId("judge.error");
    expect(await errors.count()).toBe(1);
    expect(await errors.first().innerText()).toContain(
      "malformed reply: no JSON object in the reply: I cannot decide.",
    );
    const report = result.getByTestId("judge.spread-report");
    expect(await report.getAttribute("data-verdict")).toMatch(/^(go|no-go)$/);
    expect(await report.innerText()).toMatch(
      /spread check: \d+ grader scores over \d+ group\(s\), std /,
    );
    expect(stub.requests).toHaveLength(mixed.length);
    expect(stub.sawKey(KEY)).toBe(true);

    // The offline heuristic grader, labelled as such, with its own spread report.
    await panel.getByTestId("judge.run.heuristic").click();
    await result.getByText("Heuristic grader (offline): done").waitFor();
    expect(await result.innerText()).toContain("heuristic");
    expect(await result.getByTestId("judge.spread-report").innerText()).toContain(
      "(heuristic grader)",
    );
    await panel.getByTestId("judge.spread-run").click();
    await result.getByText("Spread check (heuristic grader): done").waitFor();
    expect(await result.getByTestId("judge.spread-report").getAttribute("data-verdict")).toMatch(
      /^(go|no-go)$/,
    );
    expect(await panel.getByTestId("judge.run-row").count()).toBe(3);

    // No run is the GAR source until picked by name (issue 13, finding 8): pick the heuristic
    // grader's run over the mixed groups; a mixed group no person ranked then takes its GAR.
    const garSource = panel.getByTestId("judge.gar-source");
    expect(await garSource.inputValue()).toBe("human-only");
    const heuristicRun = await garSource.evaluate(
      (select) =>
        [...(select as HTMLSelectElement).options].find(
          (o) => o.text.includes("heuristic grader") && o.text.includes("mixed groups"),
        )?.value ?? "",
    );
    expect(heuristicRun).toMatch(/^run:gar-/);
    await garSource.selectOption(heuristicRun);
    const unranked = mixed[1]!.id;
    await page.goto(`${baseUrl}/?demo&group=${encodeURIComponent(unranked)}`);
    await page.getByTestId("dataset.counts").waitFor();
    await page.getByTestId("metric-source.heuristic").first().waitFor();
    expect(await page.getByTestId("metric-source.human").count()).toBe(0);
    const gar = await new GroupView(page).metric("metric-gar-advantage");
    expect(gar.some((v) => v !== null && v !== "")).toBe(true);
    expect(await page.getByTestId("ranking.status").innerText()).toContain(
      "GAR values come from the heuristic grader's ranking",
    );

    // Label the open group's rollouts, compare the LLM run with them in calibration, unseal the
    // test split once, and export every kind.
    const open = mixed[1]!;
    const annotate = new Annotate(page);
    for (const r of open.rollouts) {
      await annotate.label(r.id, (r.reward ?? 0) >= 0.5 ? "pass" : "fail").click();
    }
    const calibration = new Calibration(page);
    await calibration.open();
    const llmRun = await calibration.judge.evaluate(
      (select) =>
        [...(select as HTMLSelectElement).options].find((o) => o.text.includes("stub-judge"))
          ?.value ?? "",
    );
    expect(llmRun).not.toBe("");
    await calibration.judge.selectOption(llmRun);
    expect(await calibration.sealed.isVisible()).toBe(true);
    await calibration.unseal();
    expect(await calibration.unsealed.innerText()).toContain("gar-v1");
    expect(await calibration.unsealButton.count()).toBe(0);
    const exports = new Exports(page);
    await exports.open();
    const kinds = ["calibration", "rubrics", "rewards", "dpo", "annotations"] as const;
    for (const kind of kinds) {
      expect(await exports.error(kind)).toBeNull();
      const { path } = await exports.download(kind, dir, `export.${kind}`);
      const text = readFileSync(path, "utf8");
      expect(text.length).toBeGreaterThan(2);
      expect(text).not.toContain("CANARY");
    }
    const calibrationRows = readFileSync(join(dir, "export.calibration"), "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { rollout_id?: string; rolloutId?: string });
    expect(calibrationRows.length).toBeGreaterThanOrEqual(open.rollouts.length);
    expect(
      (JSON.parse(readFileSync(join(dir, "export.rubrics"), "utf8")) as Record<string, unknown>)[
        noted
      ],
    ).toEqual({ solution: ["s"], behavior: ["b"] });
    expect(readFileSync(join(dir, "export.dpo"), "utf8").trim().split("\n").length).toBe(1);

    // The key is in no storage, no export and no console line.
    const stored = await page.evaluate(async () => {
      const out: string[] = [];
      for (const storage of [localStorage, sessionStorage])
        for (let i = 0; i < storage.length; i++) {
          const k = storage.key(i)!;
          out.push(`${k}=${storage.getItem(k)}`);
        }
      for (const info of await indexedDB.databases()) {
        const db = await new Promise<IDBDatabase>((resolve, reject) => {
          const r = indexedDB.open(info.name!);
          r.onsuccess = () => resolve(r.result);
          r.onerror = () => reject(new Error(String(r.error)));
        });
        for (const name of Array.from(db.objectStoreNames)) {
          const records = await new Promise<unknown[]>((resolve, reject) => {
            const r = db.transaction(name).objectStore(name).getAll();
            r.onsuccess = () => resolve(r.result);
            r.onerror = () => reject(new Error(String(r.error)));
          });
          out.push(`${info.name}/${name}: ${JSON.stringify(records)}`);
        }
        db.close();
      }
      return out;
    });
    expect(stored.some((s) => s.includes("judgeRuns") || s.includes("stub-judge"))).toBe(true);
    expect(stored.filter((s) => s.includes("CANARY"))).toEqual([]);
    const download = page.waitForEvent("download");
    await page.getByTestId("annotations-export").click();
    const exported = readFileSync(await (await download).path(), "utf8");
    expect((JSON.parse(exported) as { judgeRuns: unknown[] }).judgeRuns).toHaveLength(3);
    expect(exported).not.toContain("CANARY");
    expect(consoleLines.filter((l) => l.includes("CANARY"))).toEqual([]);
    expect(pageErrors.list.filter((line) => !refused(line))).toEqual([]);
    expect(pageErrors.list.filter(refused)).toHaveLength(2);
  });
});
