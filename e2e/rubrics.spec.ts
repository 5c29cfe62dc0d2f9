/**
 * Covers: rubrics per task (src/ui/features/rubrics). On the demo, a group's rubric is written from
 * the keyboard and saved (v1), edited and saved again (v2), and the diff between them shown; a label
 * made under v1 is marked stale once v2 exists while one made under v2 is not, in the tab, in the
 * GRS preview's rows and in the dataset-level panel; the GRS preview shows R x max(floor, s) x
 * max(floor, b) for typed scores and a changed floor; everything survives a reload. Then "Draft with
 * judge" runs the real openai client in the page against the local stub judge
 * (src/test/judgeStub.ts, reached through a same-origin path that a route forwards to it, since
 * the studio's CSP allows no other origin): its draft becomes a version by the judge, a malformed reply shows its error. Script
 * payloads in the judge's criteria and reason, in an imported rubric and judge run, and typed by
 * hand are shown as text and never run. Zero page errors throughout.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { startJudgeStub, stubCompletion, type JudgeStub } from "../src/test/judgeStub.ts";
import { cliAnalyze, writeDemo, type CliGroup } from "./harness/cli.ts";
import { describe, expect, test } from "./harness/test.ts";
import { Annotate } from "./pages/Annotate.ts";
import { Rubrics } from "./pages/Rubrics.ts";

const groups = await cliAnalyze(writeDemo("rubrics-"));
/** A mixed group with at least two passes: two labels and a failure that keeps its reward. */
const group: CliGroup = groups.find(
  (g) => g.mixed && g.rollouts.filter((r) => r.passed).length >= 2,
)!;
const passes = group.rollouts.filter((r) => r.passed);
const failure = group.rollouts.find((r) => !r.passed)!;

const plain = (x: number): string => String(Number(x.toFixed(4)));

async function openGroup(page: Page, baseUrl: string, groupId: string): Promise<void> {
  await page.goto(`${baseUrl}/?demo&group=${encodeURIComponent(groupId)}`);
  await page.locator('[data-testid="group.detail"][data-clusters="ready"]').waitFor();
  await page.getByTestId("ranking.panel").waitFor();
}

const PAYLOADS = [
  '<img src=x onerror="window.__xss=1;alert(1)">',
  "<script>window.__xss=1;alert(1)</script>",
  '<svg onload="window.__xss=1;alert(1)"></svg>',
  '<a href="javascript:window.__xss=1">link</a>',
  "[click](javascript:window.__xss=1)",
  '<iframe src="data:text/html,<script>parent.__xss=1</script>"></iframe>',
];

/** No payload ran, and none became markup: no handler attributes, script URLs or elements. */
async function expectNoScript(page: Page, dialogs: readonly string[]): Promise<void> {
  expect(await page.evaluate(() => (window as { __xss?: unknown }).__xss)).toBeUndefined();
  expect(dialogs).toEqual([]);
  const dangerous = await page.evaluate(() => {
    const found: string[] = [];
    for (const el of document.querySelectorAll("*"))
      for (const a of el.attributes) {
        const name = a.name.toLowerCase();
        if (name.startsWith("on")) found.push(`${el.tagName} ${name}`);
        if (
          ["href", "src", "action", "formaction", "xlink:href", "srcdoc"].includes(name) &&
          /^\s*(javascript|vbscript|data):/i.test(a.value)
        )
          found.push(`${el.tagName} ${name}=${a.value}`);
      }
    return found;
  });
  expect(dangerous).toEqual([]);
  expect(await page.locator("main img, svg[onload], iframe, script:not([src])").count()).toBe(0);
}

describe("rubrics per task", () => {
  test("write, save, edit, diff, stale labels, GRS preview, panel; survives a reload", async ({
    baseUrl,
    page,
    pageErrors,
  }) => {
    expect(group).toBeDefined();
    const rubrics = new Rubrics(page);
    const annotate = new Annotate(page);
    await openGroup(page, baseUrl, group.id);
    await rubrics.open();
    expect(await rubrics.lines("solution")).toEqual([""]);
    expect(await rubrics.save.isDisabled()).toBe(true);

    // v1, from the keyboard alone.
    await rubrics.typeLines("solution", ["Refunds the right order", "States the refund amount"]);
    await rubrics.typeLines("behavior", ["Looks the order up before acting"]);
    await page.keyboard.press("Control+Enter");
    await rubrics.waitForVersion(1);
    expect(await rubrics.lines("solution")).toEqual([
      "Refunds the right order",
      "States the refund amount",
    ]);

    // A label under v1.
    const [first, second] = [passes[0]!.id, passes[1]!.id];
    await rubrics.openRollouts();
    await annotate.label(first, "pass").click();
    await rubrics.open();
    expect(await rubrics.staleLabels()).toEqual([]);

    // v2: reword a line, move a line up with Alt+ArrowUp, add a behavior line with the button.
    await rubrics.line("solution", 1).fill("States the refund amount to the customer");
    await page.keyboard.press("Alt+ArrowUp");
    await page.getByTestId("rubric.add.behavior").click();
    await page.keyboard.type("Never invents an order id");
    expect(await rubrics.lines("solution")).toEqual([
      "States the refund amount to the customer",
      "Refunds the right order",
    ]);
    await rubrics.saveAs(2);
    expect(await rubrics.diff()).toEqual({
      solution: [
        "+States the refund amount to the customer",
        " Refunds the right order",
        "-States the refund amount",
      ],
      behavior: [" Looks the order up before acting", "+Never invents an order id"],
    });
    expect(await page.getByTestId("rubric.diff.summary").innerText()).toBe("2 added, 1 removed");
    await rubrics.diffVersions(0, 1);
    expect((await rubrics.diff()).behavior).toEqual(["+Looks the order up before acting"]);
    expect(
      await rubrics.history
        .locator('[data-testid="rubric.version"]')
        .evaluateAll((els) => els.map((e) => e.getAttribute("data-version"))),
    ).toEqual(["2", "1"]);

    // The v1 label is stale; one made under v2 is not.
    expect(await rubrics.staleLabels()).toEqual([[first, "1"]]);
    await rubrics.openRollouts();
    await annotate.label(second, "fail").click();
    await rubrics.open();
    expect(await rubrics.staleLabels()).toEqual([[first, "1"]]);
    const marked = (await rubrics.grsRows()).filter((r) => r.stale).map((r) => r.id);
    expect(marked).toEqual([first]);

    // GRS preview: typed s and b, then a floor.
    const r0 = passes[0]!.reward;
    await rubrics.typeScores(first, "0.5", "0.8");
    let rows = await rubrics.grsRows();
    expect(rows.find((r) => r.id === first)).toMatchObject({
      status: "shaped",
      shaped: plain(r0 * 0.5 * 0.8),
    });
    expect(rows.find((r) => r.id === second)).toMatchObject({
      status: "unscored",
      shaped: plain(passes[1]!.reward),
    });
    expect(rows.find((r) => r.id === failure.id)).toMatchObject({
      status: "failure",
      shaped: plain(failure.reward),
    });
    expect(await rubrics.grsRow(first).getByTestId("grs.formula").innerText()).toBe(
      `${plain(r0)} × max(0, 0.5) × max(0, 0.8) = ${plain(r0 * 0.4)}`,
    );
    await rubrics.setFloor("0.6");
    rows = await rubrics.grsRows();
    expect(rows.find((r) => r.id === first)!.shaped).toBe(plain(r0 * 0.6 * 0.8));
    await rubrics.typeScores(second, "1", "0.25");
    rows = await rubrics.grsRows();
    expect(rows.find((r) => r.id === second)!.shaped).toBe(plain(passes[1]!.reward * 0.6));
    await rubrics.setFloor("1");
    await rubrics.grs.getByTestId("grs.floor-error").waitFor();
    await rubrics.setFloor("0");
    await rubrics.typeScores(second, "1.5", "1");
    expect((await rubrics.grsRows()).find((r) => r.id === second)!.status).toBe("unscored");
    expect(await rubrics.grsRow(second).getByTestId("grs.s").getAttribute("aria-invalid")).toBe(
      "true",
    );

    // The dataset panel.
    await rubrics.openPanel();
    expect(await rubrics.panelRow(group.id).getByTestId("rubrics.row.status").innerText()).toBe(
      "version 2 (human)",
    );
    expect(await rubrics.panelRow(group.id).getByTestId("rubrics.row.stale").innerText()).toContain(
      "1",
    );

    // Saved in the browser: after a reload the versions and the stale label are back.
    await page.locator('[data-testid="annotations.saved"][data-status="saved"]').waitFor();
    await openGroup(page, baseUrl, group.id);
    await rubrics.open();
    await rubrics.waitForVersion(2);
    expect(await rubrics.staleLabels()).toEqual([[first, "1"]]);

    // Re-checked under v2: no longer stale, anywhere.
    await page.getByTestId("rubric.stale.confirm").click();
    await page.locator('[data-testid="rubric.stale"][data-count="0"]').waitFor();
    expect((await rubrics.grsRows()).some((r) => r.stale)).toBe(false);
    expect(pageErrors.list).toEqual([]);
  });

  test("draft with the stub judge; script payloads in rubric text stay text", async ({
    baseUrl,
    page,
    pageErrors,
  }) => {
    const dialogs: string[] = [];
    page.on("dialog", (d) => {
      dialogs.push(d.message());
      d.dismiss().catch(() => undefined);
    });
    const draft = {
      solution: [`Refunds the order ${PAYLOADS[0]}`, PAYLOADS[1], PAYLOADS[3]],
      behavior: [PAYLOADS[2], PAYLOADS[4], PAYLOADS[5]],
      reason: `Because ${PAYLOADS[0]}`,
    };
    const stub: JudgeStub = await startJudgeStub([
      stubCompletion(`<think>drafting</think>\n\`\`\`json\n${JSON.stringify(draft)}\n\`\`\``),
      stubCompletion("I would rather not write a rubric."),
      // Held back long enough for the user to cancel (closing the stub ends it).
      stubCompletion(JSON.stringify(draft), undefined, 30_000),
    ]);
    try {
      // The studio's CSP allows connections to its own origin only, so the page talks to a path
      // of its own origin that the route forwards to the stub (a same-origin proxy, as a user
      // would put in front of a local server).
      const stubOrigin = new URL(stub.baseURL).origin;
      const judgeBase = `${baseUrl}/judge-stub`;
      await page.route(`${judgeBase}/**`, async (route) => {
        try {
          const response = await route.fetch({
            url: route.request().url().replace(judgeBase, stubOrigin),
          });
          await route.fulfill({ response });
        } catch {
          // The page cancelled the request, or the stub closed while it was held back.
        }
      });
      await page.addInitScript((baseURL) => {
        localStorage.setItem(
          "rollout-studio",
          JSON.stringify({
            state: { judgeConnection: { baseURL, model: "stub-judge", maxRetries: 0 } },
            version: 1,
          }),
        );
      }, `${judgeBase}/v1`);

      const rubrics = new Rubrics(page);
      await openGroup(page, baseUrl, group.id);

      // An imported rubric (v1) and a rubric run with payloads in its id and model.
      const [first] = [passes[0]!.id];
      const dir = mkdtempSync(join(tmpdir(), "rubrics-xss-"));
      const file = join(dir, "annotations.json");
      writeFileSync(
        file,
        JSON.stringify({
          version: 1,
          groups: {},
          rubrics: {
            [group.id]: {
              versions: [
                {
                  version: 1,
                  savedAt: "2026-01-01T00:00:00.000Z",
                  author: "human",
                  solution: [PAYLOADS[5]],
                  behavior: [],
                },
              ],
            },
          },
          judgeRuns: [
            {
              info: {
                id: PAYLOADS[0],
                mode: "rubric",
                source: "llm",
                model: PAYLOADS[2],
                promptVersion: "grs-v1",
                startedAt: "2026-01-01T00:00:00.000Z",
                finishedAt: "2026-01-01T00:00:01.000Z",
                accounting: { requests: 1, successes: 1, failures: {} },
              },
              groups: {
                [group.id]: {
                  scores: { [first]: { solution: 0.5, behavior: 0.5 } },
                  rubricVersion: 1,
                },
              },
            },
          ],
        }),
      );
      await page.getByTestId("annotations-import").setInputFiles(file);
      await rubrics.open();
      await rubrics.waitForVersion(1);
      expect(await rubrics.lines("solution")).toEqual([PAYLOADS[5]]);
      // The run's scores feed the preview.
      expect((await rubrics.grsRows()).find((r) => r.id === first)).toMatchObject({
        status: "shaped",
        shaped: plain(passes[0]!.reward * 0.25),
      });
      expect(await rubrics.grs.getByTestId("grs.judge").innerText()).toContain(PAYLOADS[0]);

      // Draft with judge: saved as v2 by the judge, shown as text.
      await page.getByTestId("rubric.draft.start").click();
      await page.locator('[data-testid="rubric.draft"][data-status="done"]').waitFor();
      await rubrics.waitForVersion(2);
      expect(await rubrics.lines("solution")).toEqual(draft.solution);
      expect(await rubrics.lines("behavior")).toEqual(draft.behavior);
      expect(await page.getByTestId("rubric.draft.reason").innerText()).toBe(
        `Judge: ${draft.reason}`,
      );
      expect(await page.getByTestId("rubric.draft.done").innerText()).toMatch(
        /saved as v2 \(author: judge\)[\s\S]*Prompt rubric-draft-v1@[0-9a-f]{8}, 15 tokens\./,
      );
      expect(await rubrics.status.innerText()).toContain("the judge (draft)");
      expect((await rubrics.diff()).solution).toEqual([
        `-${PAYLOADS[5]}`,
        ...draft.solution.map((c) => `+${c}`),
      ]);
      expect(stub.requests).toHaveLength(1);
      const sent = stub.requests[0]!.body as { model: string; messages: { content: string }[] };
      expect(sent.model).toBe("stub-judge");
      expect(sent.messages[1]!.content).toContain('<attempt index="0" result=');

      // The user edits the judge's draft by hand (one more payload) and saves v3.
      await rubrics.line("behavior", 2).fill(PAYLOADS[1]!);
      await rubrics.saveAs(3);
      expect((await rubrics.diff()).behavior).toEqual([
        ` ${PAYLOADS[2]}`,
        ` ${PAYLOADS[4]}`,
        `-${PAYLOADS[5]}`,
        `+${PAYLOADS[1]}`,
      ]);

      // A reply with no JSON object: an error, and no new version.
      await page.getByTestId("rubric.draft.start").click();
      await page.locator('[data-testid="rubric.draft"][data-status="error"]').waitFor();
      expect(await page.getByTestId("rubric.draft.error").innerText()).toContain("malformed_reply");
      await rubrics.waitForVersion(3);

      // Cancel while the judge is thinking: nothing is saved.
      await page.getByTestId("rubric.draft.start").click();
      await page.getByTestId("rubric.draft.progress").waitFor();
      await page.getByTestId("rubric.draft.cancel").click();
      await page.locator('[data-testid="rubric.draft"][data-status="error"]').waitFor();
      expect(await page.getByTestId("rubric.draft.error").innerText()).toBe(
        "The draft was cancelled.",
      );
      await rubrics.waitForVersion(3);

      await rubrics.openPanel();
      expect(await rubrics.panelRow(group.id).getByTestId("rubrics.row.status").innerText()).toBe(
        "version 3 (human)",
      );
      await expectNoScript(page, dialogs);
      expect(pageErrors.list).toEqual([]);
    } finally {
      await stub.close();
    }
  });
});
