/**
 * Covers: run against run in the studio. A second run opens into the compare slice with a load
 * client of its own, leaving the dataset on screen as it was; the comparison of the two runs'
 * parsed groups is core's `compareRuns`, equal to core's over the files alone; a pair of groups
 * opened side by side stays while its group is the open one; closing run B clears both.
 */
import { describe, expect, it } from "vitest";
import { ANALYSIS_DEFAULTS, compareRuns, type PromptComparison } from "../core/index.ts";
import { healthRun } from "../../scripts/healthRun.ts";
import { healthRunCoreGroups, healthRunInputs } from "../test/healthRunLoads.ts";
import { createPlainStore } from "./createStore.ts";
import { parsedGroupHealths } from "./runCompare.ts";

const settings = ANALYSIS_DEFAULTS;
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
const clean = healthRun({ steps: 5, prompts: 8 });
const hacked = healthRun({ steps: 5, prompts: 8, hack: { start: 2, share0: 0.2, max: 0.6 } });

/** A prompt's comparison without its group ids (the studio's carry the step, core's do not). */
const numbers = (c: PromptComparison) => ({
  prompt: c.prompt,
  a: { ...c.a, groupIds: c.a.groupIds.length },
  b: { ...c.b, groupIds: c.b.groupIds.length },
  passDiff: c.passDiff,
  rewardDiff: c.rewardDiff,
});

async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 400 && !check(); i++) await settle();
  if (!check()) throw new Error("timed out");
}

describe("the compared run (run B)", () => {
  it("loads beside the dataset on screen, and the comparison is core's", async () => {
    const store = createPlainStore();
    store.getState().loadFiles(healthRunInputs(clean, "clean"));
    await until(() => store.getState().load.status === "ready");
    const a = store.getState().load;
    store.getState().loadCompareFiles(healthRunInputs(hacked, "hacked"));
    expect(store.getState().compareRun.status).toBe("loading");
    await until(() => store.getState().compareRun.status === "ready");
    const b = store.getState().compareRun;
    if (a.status !== "ready" || b.status !== "ready") throw new Error("not loaded");
    // The dataset on screen is untouched by run B's load.
    expect(store.getState().load).toBe(a);
    expect(b.file.name).toBe("hacked");
    expect(b.groups.size).toBe(40);
    expect([...b.groups.keys()].slice(0, 2)).toEqual(["1/p0", "1/p1"]);

    const studio = compareRuns(
      parsedGroupHealths(a.dataset, a.groups, settings),
      parsedGroupHealths(b.dataset, b.groups, settings),
    );
    const core = compareRuns(
      await healthRunCoreGroups(clean, settings),
      await healthRunCoreGroups(hacked, settings),
    );
    expect(studio.shared.map(numbers)).toEqual(core.shared.map(numbers));
    expect(studio.passRate).toEqual(core.passRate);
    expect(studio.meanReward).toEqual(core.meanReward);
    expect(studio.regressions.map((r) => r.prompt)).toEqual(core.regressions.map((r) => r.prompt));
    expect(studio.improvements.map((r) => r.prompt)).toEqual(
      core.improvements.map((r) => r.prompt),
    );
    // The hack scores full marks: run B's rewards are higher, and the interval says so.
    expect(studio.shared).toHaveLength(8);
    expect(studio.meanReward.lower).toBeGreaterThan(0);
    // A prompt pools its groups of every step.
    expect(studio.shared[0]!.a.groupIds).toEqual([1, 2, 3, 4, 5].map((s) => `${s}/p0`));
  });

  it("counts only the parsed groups of an indexed run", () => {
    const groups = new Map([["1/p0", { id: "1/p0", rollouts: [] }]]);
    const summary = { rewards: [], prompt: "", partial: false };
    const summaries = [
      { ...summary, id: "1/p0", step: 1 },
      { ...summary, id: "2/p0", step: 2 },
    ];
    const healths = parsedGroupHealths({ summaries }, groups, settings);
    expect(healths.map((h) => [h.id, h.step, h.prompt])).toEqual([["1/p0", 1, "p0"]]);
  });

  it("a pair shows while its group is open; closing run B clears it all", async () => {
    const store = createPlainStore();
    store.getState().loadFiles(healthRunInputs(clean, "clean"));
    await until(() => store.getState().load.status === "ready");
    store.getState().loadCompareFiles(healthRunInputs(hacked, "hacked"));
    await until(() => store.getState().compareRun.status === "ready");
    store.getState().selectGroup("5/p3");
    store.getState().openComparePair({ a: "5/p3", b: "5/p3", prompt: "p3" });
    expect(store.getState().comparePair).toEqual({
      a: "5/p3",
      b: "5/p3",
      prompt: "p3",
      over: "5/p3",
    });
    store.getState().openComparePair(null);
    expect(store.getState().comparePair).toBeNull();
    store.getState().openComparePair({ a: "1/p0", b: "1/p0", prompt: "p0" });
    store.getState().closeCompare();
    expect(store.getState().compareRun).toEqual({ status: "idle" });
    expect(store.getState().comparePair).toBeNull();
    expect(store.getState().load.status).toBe("ready");
  });

  it("says why files that are no run cannot be compared", () => {
    const store = createPlainStore();
    const inputs = [...healthRunInputs(clean, "x/a"), ...healthRunInputs(clean, "x/b")];
    store.getState().loadCompareFiles(inputs);
    const run = store.getState().compareRun;
    expect(run.status).toBe("error");
    if (run.status === "error") expect(run.message).toMatch(/holds 2 runs/);
  });
});
