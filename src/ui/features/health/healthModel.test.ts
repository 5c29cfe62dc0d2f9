/**
 * Covers: the run view's numbers (healthModel.ts). A whole load shows core's runHealth as it is;
 * an indexed file's reward numbers are every group's (from the summaries, core's
 * rewardStepHealth) while its text series stay the parsed groups' (NaN for a step with none
 * parsed); the table's data attributes are the raw numbers ("" for NaN) under the keys of
 * `health --json`; the charts' rows leave a gap (null) for NaN and skip the step-less groups;
 * fired steps become spans of the step axis; the charts' notes say what an indexed file's
 * series are over and why there is no hack-like share without a marked hack.
 */
import { describe, expect, it } from "vitest";
import {
  ANALYSIS_DEFAULTS,
  runHealth,
  type RolloutGroup,
  type RunHealth,
} from "../../../core/index.ts";
import { testRollout } from "../../../test/rolloutFixtures.ts";
import { chartNotes, parsedOver } from "./chartNotes.ts";
import {
  firedSpans,
  healthChartRows,
  healthRows,
  healthView,
  rawNumber,
  type HealthView,
} from "./healthModel.ts";

function group(id: string, rewards: readonly number[], text = "a b c d"): RolloutGroup {
  return {
    id,
    rollouts: rewards.map((reward, index) =>
      testRollout({
        id: `${id}/${index}`,
        groupId: id,
        index,
        reward,
        rewards: { correct: reward, format: 1 },
        completion: `${text} ${index}`,
      }),
    ),
  };
}

const RUN = [
  { group: group("1/a", [1, 0, 1, 0]), step: 1 },
  { group: group("1/b", [1, 1, 1, 1]), step: 1 },
  { group: group("2/a", [0, 0, 0, 1], "longer words here now"), step: 2 },
  { group: group("2/b", [1, 0, 0, 0]), step: 2 },
  { group: group("x", [1, 0]), step: null },
];

const health = (groups = RUN): RunHealth =>
  runHealth(groups, ANALYSIS_DEFAULTS, { clusterSample: 0 });

const summaries = RUN.map(({ group: g, step }) => ({
  step,
  rewards: g.rollouts.map((r) => r.reward ?? NaN),
}));

const whole = (): HealthView =>
  healthView(health(), { indexed: false, summaries }, ANALYSIS_DEFAULTS);

describe("healthView", () => {
  it("shows a whole load's health as core computed it", () => {
    const h = health();
    const view = healthView(h, { indexed: false, summaries }, ANALYSIS_DEFAULTS);
    expect(view.run).toBe(h);
    expect(view.coverage).toMatchObject({ indexed: false, totalGroups: 5, parsedGroups: 5 });
    expect(view.coverage.rewards).toContain("logged reward");
    const weighted = healthView(
      h,
      { indexed: false, summaries },
      {
        ...ANALYSIS_DEFAULTS,
        rewardWeights: { correct: 2 },
      },
    );
    expect(weighted.coverage.rewards).toContain("weighted sum");
  });

  it("takes an indexed file's reward numbers from every summary, its text from the parsed", () => {
    // Only the step-2 groups are parsed.
    const parsed = health(RUN.filter((g) => g.step === 2));
    const view = healthView(parsed, { indexed: true, summaries }, ANALYSIS_DEFAULTS);
    const full = health();
    expect(view.run.steps.map((s) => s.step)).toEqual([null, 1, 2]);
    for (const [i, s] of view.run.steps.entries()) {
      const f = full.steps[i]!;
      expect([s.groups, s.rollouts, s.passes, s.passRate, s.meanReward]).toEqual([
        f.groups,
        f.rollouts,
        f.passes,
        f.passRate,
        f.meanReward,
      ]);
      expect([s.zeroStdShare, s.mixedShare]).toEqual([f.zeroStdShare, f.mixedShare]);
    }
    // Step 2 was parsed: its text numbers are the parsed groups'. Step 1 was not: undefined.
    expect(view.run.steps[2]!.meanChars).toBe(parsed.steps[0]!.meanChars);
    expect(view.run.steps[1]!.meanChars).toBeNaN();
    expect(view.run.steps[1]!.clustersPerGroup).toBeNaN();
    expect(view.coverage).toMatchObject({ indexed: true, totalGroups: 5, parsedGroups: 2 });
    expect(view.coverage.parsedByStep.get(2)).toBe(2);
    expect(view.coverage.parsedByStep.get(1)).toBeUndefined();
  });
});

describe("healthRows", () => {
  it("carries the raw numbers under the keys of health --json, '' for NaN", () => {
    const view = whole();
    const rows = healthRows(view);
    expect(rows.map((r) => r.step)).toEqual([null, 1, 2]);
    const s = view.run.steps[1]!;
    expect(rows[1]!.data).toEqual({
      "data-step": "1",
      "data-groups": "2",
      "data-rollouts": "8",
      "data-pass-rate": String(s.passRate),
      "data-mean-reward": String(s.meanReward),
      "data-zero-std-share": "0.5",
      "data-mixed-share": "0.5",
      "data-mean-chars": String(s.meanChars),
      "data-mean-tool-calls": "0",
      "data-clusters-per-group": String(s.clustersPerGroup),
    });
    expect(rows[0]!.data["data-step"]).toBe("");
    expect(rows[1]!.cells.slice(0, 6)).toEqual(["2", "8", "75.0%", "0.750", "50.0%", "50.0%"]);
    expect(rawNumber(NaN)).toBe("");
    expect(rawNumber(0.1 + 0.2)).toBe("0.30000000000000004");
  });

  it("says in an indexed file's tooltips that the text numbers are the parsed groups'", () => {
    const parsed = health(RUN.filter((g) => g.step === 2));
    const rows = healthRows(healthView(parsed, { indexed: true, summaries }, ANALYSIS_DEFAULTS));
    const step2 = rows[2]!;
    expect(step2.titles[2]).not.toContain("parsed");
    expect(step2.titles[6]).toContain("over 2 parsed groups");
    expect(rows[1]!.data["data-mean-chars"]).toBe("");
    expect(rows[1]!.cells[6]).toBe("–");
  });
});

describe("healthChartRows", () => {
  it("draws the numbered steps, a gap for an undefined number", () => {
    const parsed = health(RUN.filter((g) => g.step === 2));
    const rows = healthChartRows(
      healthView(parsed, { indexed: true, summaries }, ANALYSIS_DEFAULTS).run,
    );
    expect(rows.map((r) => r.step)).toEqual([1, 2]);
    expect(rows[0]!.meanChars).toBeNull();
    expect(rows[0]!.passRate).toBe(0.75);
    expect(rows[1]!.components).toEqual({ correct: 0.25, format: 1 });
    expect(rows[0]!.components).toEqual({ correct: null, format: null });
    // No marked hack: no hack-like share, no corrected share.
    expect(rows[1]!.hackLike).toBeNull();
    expect(rows[1]!.hackInterval).toBeNull();
    expect(rows[1]!.hackHuman).toBe(0);
  });
});

describe("firedSpans", () => {
  it("spans consecutive fired steps half-way to their neighbours", () => {
    expect(firedSpans([2, 3, 5], [1, 2, 3, 4, 5])).toEqual([
      { x1: 1.5, x2: 3.5 },
      { x1: 4.5, x2: 5.5 },
    ]);
    // Steps every 10: a lone fired step is 10 wide.
    expect(firedSpans([20], [10, 20, 30])).toEqual([{ x1: 15, x2: 25 }]);
    expect(firedSpans([10], [10, 20])).toEqual([{ x1: 5, x2: 15 }]);
    expect(firedSpans([7], [7])).toEqual([{ x1: 6.5, x2: 7.5 }]);
    // A fired step outside the steps shown (the brush's range) is not drawn.
    expect(firedSpans([1, 9], [2, 3])).toEqual([]);
  });
});

describe("chartNotes", () => {
  it("names the settings, the parsed share of an indexed file and a missing hack mark", () => {
    const notes = chartNotes(whole(), ANALYSIS_DEFAULTS, 200);
    expect(notes.shares).toContain(`reward ≥ ${ANALYSIS_DEFAULTS.passThreshold}`);
    expect(notes.diversity).toContain("at most 200 groups per step");
    expect(notes.hacks).toContain("No rollout is marked as a hack");
    expect(notes.length).not.toContain("parsed");
    const parsed = health(RUN.filter((g) => g.step === 2));
    const indexed = chartNotes(
      healthView(parsed, { indexed: true, summaries }, ANALYSIS_DEFAULTS),
      ANALYSIS_DEFAULTS,
      0,
    );
    expect(indexed.length).toContain("over the 2 of 5 groups parsed");
    expect(parsedOver(whole())).toBeNull();
    expect(parsedOver(healthView(parsed, { indexed: true, summaries }, ANALYSIS_DEFAULTS))).toBe(
      "over the 2 of 5 groups parsed",
    );
    expect(indexed.diversity).toContain("over every group");
  });
});
