import { describe, expect, it } from "vitest";
import { ANALYSIS_DEFAULTS, compareRuns, groupHealth } from "../../../core/index.ts";
import { testRollout } from "../../../test/rolloutFixtures.ts";
import type { RunCompareView } from "../../../store/runCompare.ts";
import { latestGroup, pValue, runCompareModel, signed } from "./runCompareModel.ts";

/** A group of `n` rollouts at `step`, the first `passes` of them rewarded 1, the rest 0. */
const health = (id: string, step: number, n: number, passes: number) =>
  groupHealth(
    {
      id,
      rollouts: Array.from({ length: n }, (_, i) =>
        testRollout({ id: `${id}/${i}`, groupId: id, index: i, reward: i < passes ? 1 : 0 }),
      ),
    },
    step,
    ANALYSIS_DEFAULTS,
  );

const A = [health("1/p0", 1, 4, 2), health("1/p1", 1, 4, 4), health("1/p2", 1, 4, 1)];
const B = [health("1/p0", 1, 4, 3), health("1/p1", 1, 4, 1), health("1/p3", 1, 4, 4)];

const side = (name: string, groups = 3, parsed = 3) => ({
  name,
  groups,
  parsed,
  indexed: parsed < groups,
});

const view = (over: Partial<RunCompareView> = {}): RunCompareView => ({
  a: side("runA"),
  b: side("runB"),
  stepsA: new Map(),
  stepsB: new Map(),
  comparison: compareRuns(A, B),
  verifiersApplied: false,
  ...over,
});

describe("signed and pValue", () => {
  it("writes a signed difference with a true minus, and small p-values as a bound", () => {
    expect(signed(0.125)).toBe("+0.125");
    expect(signed(-0.0414)).toBe("−0.041");
    expect(signed(0.0001)).toBe("0.000");
    expect(signed(NaN)).toBe("–");
    expect(pValue(0.0004)).toBe("< 0.001");
    expect(pValue(0.5)).toBe("0.500");
  });
});

describe("runCompareModel", () => {
  it("the chosen metric's summary first, the lists under it, every shared prompt", () => {
    const model = runCompareModel(view());
    expect([model.shared, model.onlyA, model.onlyB]).toEqual([2, 1, 1]);
    expect(model.lines.map((l) => l.metric)).toEqual(["passRate", "meanReward"]);
    const main = model.lines[0]!;
    const core = compareRuns(A, B).passRate;
    expect(main.summary).toEqual(core);
    expect(main.attrs.meanDiff).toBe(String(core.meanDiff));
    expect(main.attrs.signP).toBe(String(core.signP));
    expect(main.signs).toBe("1 up, 1 down, 0 tied");
    expect(main.interval).toBe(`[${signed(core.lower)}, ${signed(core.upper)}]`);
    expect(model.regressions.map((r) => [r.prompt, r.valueA, r.valueB, r.diff])).toEqual([
      ["p1", "1.000", "0.250", "−0.750"],
    ]);
    expect(model.improvements.map((r) => [r.prompt, r.diff])).toEqual([["p0", "+0.250"]]);
    expect(model.prompts.map((r) => r.prompt)).toEqual(["p0", "p1"]);
    expect(model.notes).toEqual([]);
  });

  it("ranks by mean reward when asked", () => {
    const model = runCompareModel(
      view({ comparison: compareRuns(A, B, { metric: "meanReward" }) }),
    );
    expect(model.lines.map((l) => l.label)).toEqual(["Mean reward", "Pass rate"]);
    expect(model.regressions[0]!.cells.rewardDiff).toBe("−0.750");
  });

  it("says what the numbers leave out", () => {
    const model = runCompareModel(view({ b: side("runB", 10, 3), verifiersApplied: true }));
    expect(model.notes).toEqual([
      "Run B is indexed: 3 of its 10 groups are parsed, and only those are compared (open a group to parse it).",
      "Verifiers are applied to run A on screen; the comparison reads both runs' own rewards.",
    ]);
  });
});

describe("latestGroup", () => {
  it("opens the prompt's group at its latest step in the run", () => {
    const steps = new Map<string, number | null>([
      ["2/p0", 2],
      ["10/p0", 10],
      ["p0", null],
    ]);
    expect(
      latestGroup(
        { groupIds: ["2/p0", "10/p0", "p0"], rollouts: 0, passRate: 0, meanReward: 0 },
        steps,
      ),
    ).toBe("10/p0");
    expect(latestGroup({ groupIds: ["p0"], rollouts: 0, passRate: 0, meanReward: 0 }, steps)).toBe(
      "p0",
    );
  });
});
