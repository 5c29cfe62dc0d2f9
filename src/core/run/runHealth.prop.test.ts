import { describe, expect } from "vitest";
import { fc, test } from "@fast-check/vitest";
import { testRollout } from "../../test/rolloutFixtures.ts";
import { ANALYSIS_DEFAULTS } from "../analysis/analysisSettings.ts";
import type { RolloutGroup } from "../types.ts";
import { RunHealthTally, runHealth } from "./runHealth.ts";

/** Small groups with short texts of few letters (so some cluster), rewards and components. */
const groupsArb = fc
  .array(
    fc.record({
      step: fc.constantFrom(1, 2, 3, 5, null),
      rollouts: fc.array(
        fc.record({
          text: fc.string({ unit: fc.constantFrom("a", "b", " "), maxLength: 12 }),
          reward: fc.option(fc.constantFrom(0, 0.5, 1), { nil: null }),
          correct: fc.option(fc.constantFrom(0, 1), { nil: null }),
        }),
        { minLength: 0, maxLength: 6 },
      ),
    }),
    { minLength: 1, maxLength: 25 },
  )
  .map((gs) =>
    gs.map(({ step, rollouts }, g) => {
      const id = step === null ? `g${g}` : `${step}/g${g}`;
      const group: RolloutGroup = {
        id,
        rollouts: rollouts.map((r, i) =>
          testRollout({
            id: `${id}/${i}`,
            groupId: id,
            index: i,
            completion: r.text,
            reward: r.reward,
            rewards: r.correct === null ? {} : { correct: r.correct },
          }),
        ),
      };
      return { group, step };
    }),
  );

const inUnit = (x: number): boolean => Number.isNaN(x) || (x >= 0 && x <= 1);

describe("runHealth invariants", () => {
  test.prop([groupsArb, fc.nat({ max: 4 })])(
    "shares are in [0, 1] and the steps' counts add up to the run's",
    (groups, k) => {
      const h = runHealth(groups, ANALYSIS_DEFAULTS, { clusterSample: k });
      for (const s of h.steps) {
        for (const x of [
          s.passRate,
          s.zeroStdShare,
          s.mixedShare,
          s.hackShares.human,
          s.hackShares.heuristic,
          s.hackShares.judge,
        ])
          expect(inUnit(x)).toBe(true);
        expect(s.spread.yes + s.spread.no + s.spread.na).toBe(s.groups);
        expect(s.passes).toBeLessThanOrEqual(s.rollouts);
        expect(s.clusteredGroups).toBeLessThanOrEqual(k === 0 ? s.groups : Math.min(k, s.groups));
        if (s.clusteredGroups > 0) expect(s.clustersPerGroup).toBeGreaterThanOrEqual(0);
      }
      const sum = (f: (s: (typeof h.steps)[number]) => number): number =>
        h.steps.reduce((t, s) => t + f(s), 0);
      expect(sum((s) => s.groups)).toBe(groups.length);
      expect(sum((s) => s.rollouts)).toBe(groups.reduce((t, g) => t + g.group.rollouts.length, 0));
      expect(new Set(h.steps.map((s) => s.step)).size).toBe(h.steps.length);
    },
  );

  test.prop([groupsArb, fc.nat({ max: 3 }), fc.array(fc.nat({ max: 30 }), { maxLength: 4 })])(
    "tallying in batches (a run's files) gives the numbers of one batch (the whole run)",
    (groups, k, cuts) => {
      const whole = runHealth(groups, ANALYSIS_DEFAULTS, { clusterSample: k });
      const tally = new RunHealthTally(ANALYSIS_DEFAULTS, { clusterSample: k });
      const at = [
        ...new Set([0, ...cuts.map((c) => Math.min(c, groups.length)), groups.length]),
      ].sort((a, b) => a - b);
      for (let i = 0; i + 1 < at.length; i++) tally.addBatch(groups.slice(at[i], at[i + 1]));
      expect(tally.finish()).toEqual(whole);
    },
  );
});
