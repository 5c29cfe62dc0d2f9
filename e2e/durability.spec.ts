/**
 * Covers: durability of annotations (issue 8 part 5). On a profile of its own, a burst of keyboard
 * annotation actions (ranking moves, pass/fail/defer labels) is made; the save status's
 * acknowledgement ("Saved in this browser", nothing pending) is awaited after some of them. Then,
 * mid-burst, the tab's renderer is crashed (CDP Page.crash) and the browser process is killed
 * (SIGKILL), with no chance to flush or unload. A new browser on the same profile restores every
 * acknowledged action; an action made after the last acknowledgement is either there or not, never
 * anything else.
 */
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import { generateDemo } from "../scripts/generate-demo.ts";
import { main } from "../src/cli/main.ts";
import { launchPersistentChromium } from "./harness/browser.ts";
import { collectPageErrors } from "./harness/pageErrors.ts";
import { describe, expect, test } from "./harness/test.ts";
import { Annotate } from "./pages/Annotate.ts";

const dir = mkdtempSync(join(tmpdir(), "durability-"));

interface CliGroup {
  id: string;
  passes: number;
  rollouts: { id: string; passed: boolean }[];
}

/** A demo group with at least three passes and six rollouts, from the CLI's own analysis. */
async function pickGroup(): Promise<CliGroup> {
  const path = join(dir, "demo.jsonl");
  writeFileSync(path, generateDemo());
  let out = "";
  await main(["analyze", path, "--json"], {
    stdout: (t) => (out += t),
    stderr: () => undefined,
    cwd: process.cwd(),
  });
  const groups = (JSON.parse(out) as { groups: CliGroup[] }).groups;
  return groups.find((g) => g.passes >= 3 && g.rollouts.length >= 6)!;
}

/**
 * SIGKILL every process of the browser on this profile (found by its --user-data-dir): the
 * browser process and its helpers, all started by this spec, and nothing else.
 */
function killBrowserOn(profile: string): number {
  let killed = 0;
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    let cmdline: string;
    try {
      cmdline = readFileSync(`/proc/${entry}/cmdline`, "utf8");
    } catch {
      continue; // Exited meanwhile.
    }
    if (!cmdline.split("\0").includes(`--user-data-dir=${profile}`)) continue;
    try {
      process.kill(Number(entry), "SIGKILL");
      killed++;
    } catch {
      // Already gone.
    }
  }
  return killed;
}

async function openGroup(page: Page, baseUrl: string, groupId: string): Promise<void> {
  await page.goto(`${baseUrl}/?demo&group=${encodeURIComponent(groupId)}`);
  await page.locator('[data-testid="group.detail"][data-clusters="ready"]').waitFor();
  await page.getByTestId("ranking.panel").waitFor();
}

/** Waits for the acknowledgement: saved in this browser, with no write pending. */
async function acknowledged(page: Page): Promise<void> {
  await page.locator('[data-testid="annotations.saved"][data-pending="0"]').waitFor();
}

/**
 * Labels a rollout from the keyboard: p, f or d with the focus in its column. The focus goes to
 * the column's first label button (where Tab reaches it; a short transcript is not a scroller and
 * takes no focus), then the key is pressed.
 */
async function labelByKey(annotate: Annotate, id: string, key: "p" | "f" | "d"): Promise<void> {
  await annotate.label(id, "pass").focus();
  await annotate.page.keyboard.press(key);
}

const LABEL = { p: "pass", f: "fail", d: "defer" } as const;

describe("annotations survive a killed browser", () => {
  test("every acknowledged action is restored after a renderer crash and a SIGKILL", async ({
    baseUrl,
  }) => {
    const group = await pickGroup();
    expect(group).toBeDefined();
    const ids = group.rollouts.map((r) => r.id);
    const passes = group.rollouts.filter((r) => r.passed).map((r) => r.id);
    const profile = mkdtempSync(join(tmpdir(), "durability-profile-"));

    let context: BrowserContext | null = await launchPersistentChromium(profile);
    try {
      const page = context.pages()[0] ?? (await context.newPage());
      const errors = collectPageErrors(page);
      const annotate = new Annotate(page);
      await openGroup(page, baseUrl, group.id);

      // Acknowledged, step by step: rank every pass by keyboard (a, then down), then label the
      // first half of the rollouts, waiting for the save after each few actions.
      await page.getByTestId("ranking.unranked").getByTestId("ranking.item").first().focus();
      for (let i = 0; i < passes.length; i++) {
        await page.keyboard.press("a");
        await page.keyboard.press("ArrowDown");
      }
      await page.keyboard.press("Alt+ArrowUp");
      await acknowledged(page);
      const ranking = await annotate.ranking();
      expect(ranking.flat().sort()).toEqual([...passes].sort());

      const half = Math.ceil(ids.length / 2);
      const keys = ["p", "f", "d"] as const;
      const acknowledgedLabels = new Map<string, string>();
      for (let i = 0; i < half; i++) {
        const key = keys[i % 3]!;
        await labelByKey(annotate, ids[i]!, key);
        acknowledgedLabels.set(ids[i]!, LABEL[key]);
        if (i % 2 === 1) await acknowledged(page);
      }
      await acknowledged(page);
      expect(await annotate.labels(ids.slice(0, half))).toEqual([...acknowledgedLabels.values()]);

      // The burst: labels on the other rollouts, key after key, no waiting; then the crash.
      const burst = new Map<string, string>();
      for (let i = half; i < ids.length; i++) {
        const key = keys[(i + 1) % 3]!;
        await labelByKey(annotate, ids[i]!, key);
        burst.set(ids[i]!, LABEL[key]);
      }
      expect(errors.list).toEqual([]);
      const cdp = await context.newCDPSession(page);
      // Page.crash never answers: the renderer is gone before it could.
      void cdp.send("Page.crash").catch(() => undefined);
      await page.waitForEvent("crash");
      expect(killBrowserOn(profile)).toBeGreaterThan(0);
      await context.close().catch(() => undefined);
      context = null;

      // A new browser on the same profile.
      context = await launchPersistentChromium(profile);
      const again = context.pages()[0] ?? (await context.newPage());
      const againErrors = collectPageErrors(again);
      const restoredView = new Annotate(again);
      await openGroup(again, baseUrl, group.id);
      await again.getByText("1 group(s) restored").waitFor();

      expect(await restoredView.ranking()).toEqual(ranking);
      expect(await restoredView.labels(ids.slice(0, half))).toEqual([
        ...acknowledgedLabels.values(),
      ]);
      const after = await restoredView.labels(ids.slice(half));
      after.forEach((label, k) => {
        // Not acknowledged: kept or not, but never another value.
        expect([null, burst.get(ids[half + k]!)]).toContain(label);
      });
      expect(againErrors.list).toEqual([]);
    } finally {
      await context?.close().catch(() => undefined);
    }
  });
});
