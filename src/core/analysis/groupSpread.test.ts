import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import { testRollout } from "../../test/rolloutFixtures.ts";
import { GarError } from "../advantage/gar.ts";
import { spreadCheck } from "../advantage/spread.ts";
import { rankingSpreadScores, spreadReportVerdict, spreadVerdict } from "./groupSpread.ts";

const SETTINGS = { passThreshold: 0.5, rewardWeights: null, minFactor: 0.2 } as const;

describe("spreadVerdict", () => {
  it("is n/a under two scores, else the check's verdict", () => {
    expect(spreadVerdict([])).toBe("n/a");
    expect(spreadVerdict([1])).toBe("n/a");
    expect(spreadVerdict([0.5, 1, 1, 0.5])).toBe("yes");
    expect(spreadVerdict([0.93, 0.93, 0.94, 0.93, 0.92, 0.93])).toBe("no");
  });

  test.prop([fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 10 })])(
    "agrees with the verdict of spreadCheck's report",
    (scores) => {
      expect(spreadVerdict(scores)).toBe(spreadReportVerdict(spreadCheck(scores, 1)));
    },
  );
});

describe("rankingSpreadScores", () => {
  const rollouts = [
    testRollout({ id: "a", reward: 1 }),
    testRollout({ id: "b", reward: 1 }),
    testRollout({ id: "c", reward: 0 }),
    testRollout({ id: "d", reward: 1 }),
  ];

  it("is the GAR factors of the ranked passes that are not hacks, re-ranked among themselves", () => {
    const annotation = { ranking: [["a"], ["c"], ["b"], ["d"]], hacks: ["b"] };
    // Kept: a, d (c fails, b is a hack): two places, factors 1 and the min factor.
    expect(rankingSpreadScores(annotation, rollouts, SETTINGS)).toEqual([1, 0.2]);
  });

  it("keeps every ranked non-hack while the rollouts are not at hand", () => {
    const annotation = { ranking: [["a"], ["c"], ["b"]], hacks: ["b"] };
    expect(rankingSpreadScores(annotation, undefined, SETTINGS)).toEqual([1, 0.2]);
  });

  it("decides passes by the weighted reward when weights are set", () => {
    const weighted = [
      testRollout({ id: "a", reward: 1, rewards: { x: 0 } }),
      testRollout({ id: "b", reward: 0, rewards: { x: 1 } }),
    ];
    const annotation = { ranking: [["a"], ["b"]], hacks: [] };
    expect(
      rankingSpreadScores(annotation, weighted, { ...SETTINGS, rewardWeights: { x: 1 } }),
    ).toEqual([1]);
  });

  it("throws GarError for a min factor outside (0, 1]", () => {
    const annotation = { ranking: [["a"], ["b"]], hacks: [] };
    expect(() => rankingSpreadScores(annotation, rollouts, { ...SETTINGS, minFactor: 0 })).toThrow(
      GarError,
    );
  });
});
