import { describe, expect, it } from "vitest";
import { fc, test } from "@fast-check/vitest";
import type { GroupHealth } from "./groupHealth.ts";
import { NO_HACK_LIKE, NO_HACK_MARKS } from "./groupHealth.ts";
import { compareRuns, pairedSummary, signTestP } from "./compare.ts";
import { lineageIndex, promptLineage } from "./lineage.ts";

function gh(
  id: string,
  step: number | null,
  n: number,
  passes: number,
  rewardSum: number,
): GroupHealth {
  return {
    id,
    step,
    prompt: step === null ? id : id.slice(String(step).length + 1),
    n,
    passes,
    rewardSum,
    rewarded: n,
    std: 0,
    zeroStd: false,
    mixed: passes > 0 && passes < n,
    chars: 10 * n,
    turns: n,
    toolCalls: 0,
    components: {},
    variance: 0,
    clusters: null,
    spread: "n/a",
    hacks: NO_HACK_MARKS,
    hackLike: NO_HACK_LIKE,
  };
}

describe("signTestP", () => {
  it("matches SciPy's binomtest (two-sided, p = 1/2)", () => {
    expect(signTestP(3, 9)).toBeCloseTo(0.14599609375, 12);
    expect(signTestP(0, 5)).toBeCloseTo(0.0625, 12);
    expect(signTestP(20, 20)).toBe(1);
    expect(signTestP(40, 60)).toBeCloseTo(0.05688793364098089, 10);
    expect(signTestP(0, 0)).toBe(1);
  });
});

describe("pairedSummary", () => {
  it("gives the mean difference inside its bootstrap interval and counts the signs", () => {
    const s = pairedSummary([0.1, 0.2, -0.1, 0, 0.3, NaN], { seed: 1, samples: 500, level: 0.95 });
    expect(s.n).toBe(5);
    expect(s.meanDiff).toBeCloseTo(0.1, 12);
    expect(s.lower).toBeLessThanOrEqual(0.1);
    expect(s.upper).toBeGreaterThanOrEqual(0.1);
    expect([s.positive, s.negative, s.ties]).toEqual([3, 1, 1]);
    expect(s.signP).toBeCloseTo(signTestP(3, 1), 12);
  });

  test.prop([
    fc.array(fc.double({ min: -1, max: 1, noNaN: true }), { minLength: 1, maxLength: 30 }),
  ])(
    "the interval lies within the differences' range and is the same for the same seed",
    (diffs) => {
      const options = { seed: 7, samples: 200, level: 0.9 };
      const s = pairedSummary(diffs, options);
      expect(s.lower).toBeGreaterThanOrEqual(Math.min(...diffs) - 1e-12);
      expect(s.upper).toBeLessThanOrEqual(Math.max(...diffs) + 1e-12);
      expect(s.lower).toBeLessThanOrEqual(s.upper);
      expect(pairedSummary(diffs, options)).toEqual(s);
    },
  );
});

describe("compareRuns", () => {
  // Run A: prompts x, y, z; run B: x better, y worse, w new. Each pooled over its steps.
  const a = [
    gh("1/x", 1, 4, 1, 1),
    gh("2/x", 2, 4, 1, 1),
    gh("1/y", 1, 4, 4, 4),
    gh("1/z", 1, 4, 2, 2),
  ];
  const b = [
    gh("1/x", 1, 4, 3, 3),
    gh("1/y", 1, 4, 2, 2),
    gh("1/z", 1, 4, 2, 2),
    gh("1/w", 1, 4, 0, 0),
  ];
  const c = compareRuns(a, b, { samples: 300 });

  it("pairs the shared prompts, pooled over their steps", () => {
    expect(c.shared.map((p) => p.prompt)).toEqual(["x", "y", "z"]);
    const x = c.shared[0]!;
    expect(x.a.groupIds).toEqual(["1/x", "2/x"]);
    expect(x.a.passRate).toBeCloseTo(2 / 8, 12);
    expect(x.b.passRate).toBeCloseTo(3 / 4, 12);
    expect(x.passDiff).toBeCloseTo(0.5, 12);
    expect([c.onlyA, c.onlyB]).toEqual([0, 1]);
  });

  it("summarises the paired differences and lists regressions and improvements", () => {
    expect(c.passRate.n).toBe(3);
    expect(c.passRate.meanDiff).toBeCloseTo((0.5 - 0.5 + 0) / 3, 12);
    expect([c.passRate.positive, c.passRate.negative, c.passRate.ties]).toEqual([1, 1, 1]);
    expect(c.regressions.map((p) => p.prompt)).toEqual(["y"]);
    expect(c.improvements.map((p) => p.prompt)).toEqual(["x"]);
  });

  it("a run against itself shows no difference", () => {
    const self = compareRuns(a, a);
    expect(self.passRate.meanDiff).toBe(0);
    expect(self.passRate.signP).toBe(1);
    expect(self.regressions).toEqual([]);
  });
});

describe("promptLineage", () => {
  it("lists a prompt's group at every step, ascending", () => {
    const groups = [gh("2/x", 2, 4, 3, 3), gh("1/x", 1, 4, 1, 1), gh("1/y", 1, 2, 0, 0)];
    const lineage = promptLineage(groups, "2/x", lineageIndex(groups));
    expect(lineage.map((p) => [p.step, p.groupId, p.passes, p.passRate])).toEqual([
      [1, "1/x", 1, 0.25],
      [2, "2/x", 3, 0.75],
    ]);
    expect(lineage[0]!.meanChars).toBe(10);
    expect(promptLineage(groups, "nope")).toEqual([]);
  });
});
