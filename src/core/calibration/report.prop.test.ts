/**
 * Properties of the calibration report and the seal. What they rest on (read from report.ts and
 * seal.ts): every human pass/fail label on a loaded rollout is placed in a split (kept once
 * placed); rows are the placed rollouts the source has a verdict on; a sealed report reads no
 * test row's label; the bootstrap streams are seeded from the state. Golden vectors live in
 * report.test.ts and seal.test.ts.
 */
import { fc, test } from "@fast-check/vitest";
import { describe, expect } from "vitest";
import { testRollout } from "../../test/rolloutFixtures.ts";
import {
  GROUP_ANNOTATION_EMPTY,
  type GroupAnnotation,
  type HumanLabel,
} from "../analysis/annotations.ts";
import { judgeAccountingEmpty } from "../judge/accounting.ts";
import type { JudgeRun } from "../judge/runs.ts";
import { CALIBRATION_METRIC_NAMES } from "./bootstrap.ts";
import { calibrationHumanSource } from "./human.ts";
import { calibrationReport, type CalibrationGroupInput, type CalibrationReport } from "./report.ts";
import { calibrationLogReruns, calibrationRerunWarnings, calibrationUnseal } from "./seal.ts";
import {
  calibrationRewardSource,
  calibrationSourceFromRollouts,
  type CalibrationVerdict,
} from "./sources.ts";
import { CALIBRATION_STATE_EMPTY, type CalibrationState } from "./state.ts";

const fast = { samples: 40, level: 0.9 };

type Cell = {
  reward: number;
  label: HumanLabel | null;
  verdict: CalibrationVerdict | null;
};

const cell: fc.Arbitrary<Cell> = fc.record({
  reward: fc.constantFrom(0, 0.25, 0.5, 1, NaN),
  label: fc.constantFrom<HumanLabel | null>("pass", "fail", "defer", null),
  verdict: fc.constantFrom<CalibrationVerdict | null>("pass", "fail", null),
});

interface World {
  readonly groups: CalibrationGroupInput[];
  readonly annotations: Record<string, GroupAnnotation>;
  readonly verdicts: Map<string, CalibrationVerdict | null>;
  readonly seed: number;
}

const world: fc.Arbitrary<World> = fc
  .record({
    cells: fc.array(fc.array(cell, { minLength: 1, maxLength: 7 }), { minLength: 1, maxLength: 6 }),
    seed: fc.integer({ min: 0, max: 1000 }),
    // Per group, a human ranking of its first k rollouts in some tier layout.
    rankings: fc.array(fc.array(fc.nat(3), { maxLength: 7 }), { maxLength: 6 }),
  })
  .map(({ cells, seed, rankings }) => {
    const verdicts = new Map<string, CalibrationVerdict | null>();
    const annotations: Record<string, GroupAnnotation> = {};
    const groups = cells.map((row, g): CalibrationGroupInput => {
      const id = `g${g}`;
      const ids = row.map((_, i) => `${id}/${i}`);
      const labels: Record<string, HumanLabel> = {};
      row.forEach((c, i) => {
        verdicts.set(ids[i]!, c.verdict);
        if (c.label !== null) labels[ids[i]!] = c.label;
      });
      const tiersOf = rankings[g] ?? [];
      const tiers: string[][] = [];
      tiersOf.slice(0, ids.length).forEach((t, i) => {
        while (tiers.length <= t) tiers.push([]);
        tiers[t]!.push(ids[i]!);
      });
      annotations[id] = {
        ...GROUP_ANNOTATION_EMPTY,
        labels,
        ranking: tiers.filter((t) => t.length > 0),
      };
      return {
        group: {
          id,
          rollouts: ids.map((rid, index) => testRollout({ id: rid, groupId: id, index })),
        },
        rewards: row.map((c) => c.reward),
      };
    });
    return { groups, annotations, verdicts, seed };
  });

function sourceOf(w: World) {
  return calibrationSourceFromRollouts({
    id: "arb",
    label: "arbitrary",
    kind: "verifier",
    promptVersion: "p",
    verdict: (r) => w.verdicts.get(r.id) ?? null,
    score: (r, reward) => (Number.isFinite(reward) ? reward + r.index / 100 : null),
  });
}

function reportOf(
  w: World,
  state: CalibrationState,
  annotations = w.annotations,
): CalibrationReport {
  return calibrationReport(
    {
      groups: w.groups,
      human: calibrationHumanSource({ annotator: "", groups: annotations }),
      source: sourceOf(w),
      state,
    },
    fast,
  );
}

const seeded = (w: World): CalibrationState => ({ ...CALIBRATION_STATE_EMPTY, seed: w.seed });

describe("calibration report properties", () => {
  test.prop([world, fc.boolean()])("every labelled rollout is accounted for", (w, unseal) => {
    const base = seeded(w);
    const r = reportOf(w, unseal ? calibrationUnseal(base, sourceOf(w), "t") : base);
    const labelled = Object.values(w.annotations).flatMap((a) =>
      Object.values(a.labels).filter((l) => l !== "defer"),
    ).length;
    expect(r.counts.labelled).toBe(labelled);
    expect(r.counts.rows + r.counts.unjudged).toBe(r.counts.labelled);
    expect(r.train.n + r.dev.n + r.testRows).toBe(r.counts.rows);
    const visible = r.test === null ? [r.train, r.dev] : [r.train, r.dev, r.test];
    for (const s of visible) {
      const c = s.confusion;
      expect(c.tp + c.tn + c.fp + c.fn).toBe(s.n);
    }
    expect(r.disagreements).toHaveLength(
      visible.reduce((n, s) => n + s.confusion.fp + s.confusion.fn, 0),
    );
    expect(Object.keys(r.state.assignments)).toHaveLength(labelled);
  });

  test.prop([world])("a sealed report reads no test label", (w) => {
    const first = reportOf(w, seeded(w));
    expect(first.test).toBeNull();
    expect(first.disagreements.every((d) => d.split !== "test")).toBe(true);
    // Flip every test row's label (the splits are now fixed in the state): nothing shown changes.
    const flipped: Record<string, GroupAnnotation> = {};
    for (const [g, a] of Object.entries(w.annotations)) {
      const labels: Record<string, HumanLabel> = {};
      for (const [id, l] of Object.entries(a.labels))
        labels[id] =
          first.state.assignments[id] === "test" && l !== "defer"
            ? l === "pass"
              ? "fail"
              : "pass"
            : l;
      flipped[g] = { ...a, labels };
    }
    const second = reportOf(w, first.state, flipped);
    expect(second.state).toBe(first.state);
    expect(second.train).toEqual(first.train);
    expect(second.dev).toEqual(first.dev);
    expect(second.corrected).toEqual(first.corrected);
    expect(second.disagreements).toEqual(first.disagreements);
    expect(second.counts).toEqual(first.counts);
  });

  test.prop([world])("splits are kept, and independent of the source compared", (w) => {
    const first = reportOf(w, seeded(w));
    expect(reportOf(w, first.state).state).toBe(first.state);
    const byReward = calibrationReport(
      {
        groups: w.groups,
        human: calibrationHumanSource({ annotator: "", groups: w.annotations }),
        source: calibrationRewardSource(0.5),
        state: seeded(w),
      },
      fast,
    );
    expect(byReward.state.assignments).toEqual(first.state.assignments);
  });

  test.prop([world])("deterministic, with ordered intervals in range", (w) => {
    const r = reportOf(w, calibrationUnseal(seeded(w), sourceOf(w), "t"));
    expect(reportOf(w, calibrationUnseal(seeded(w), sourceOf(w), "t"))).toEqual(r);
    for (const s of [r.train, r.dev, r.test!])
      for (const name of CALIBRATION_METRIC_NAMES) {
        const { value, lower, upper } = s.metrics[name];
        if (Number.isFinite(lower)) expect(lower).toBeLessThanOrEqual(upper);
        for (const v of [value, lower, upper])
          if (Number.isFinite(v)) {
            expect(v).toBeGreaterThanOrEqual(name === "kappa" ? -1 - 1e-12 : 0);
            expect(v).toBeLessThanOrEqual(1 + 1e-12);
          }
      }
  });

  test.prop([world])("overall rank agreement lies between the groups' extremes", (w) => {
    const r = reportOf(w, seeded(w));
    const taus = r.ranks.groups.map((g) => g.tau).filter(Number.isFinite);
    if (taus.length === 0) expect(r.ranks.overall.tau).toBeNaN();
    else {
      expect(r.ranks.overall.tau).toBeGreaterThanOrEqual(Math.min(...taus) - 1e-12);
      expect(r.ranks.overall.tau).toBeLessThanOrEqual(Math.max(...taus) + 1e-12);
      expect(r.ranks.overall.groups).toBe(taus.length);
    }
  });
});

const runArb: fc.Arbitrary<JudgeRun> = fc
  .record({
    id: fc.string({ minLength: 1, maxLength: 4 }),
    day: fc.integer({ min: 1, max: 28 }),
    version: fc.constantFrom("v1", "v2", ""),
  })
  .map(({ id, day, version }) => ({
    info: {
      id,
      mode: "gar",
      source: "llm",
      model: "m",
      baseUrl: "",
      promptVersion: version,
      startedAt: `2026-01-${String(day).padStart(2, "0")}T00:00:00.000Z`,
      finishedAt: "",
      accounting: judgeAccountingEmpty(),
      costUsd: null,
      cancelled: false,
    },
    groups: {},
  }));

/** Runs with distinct ids, as the annotations schema requires. */
const runsArb = fc.uniqueArray(runArb, { maxLength: 8, selector: (r) => r.info.id });

describe("seal properties", () => {
  const source = { id: "s", label: "s", promptVersion: "v1" };

  test.prop([runsArb])("no warning while sealed", (runs) => {
    expect(calibrationRerunWarnings(CALIBRATION_STATE_EMPTY, runs)).toEqual([]);
  });

  test.prop([runsArb, fc.integer({ min: 1, max: 28 })])(
    "unseal once; each warned run is logged once however often it is logged",
    (runs, day) => {
      const at = `2026-01-${String(day).padStart(2, "0")}T12:00:00.000Z`;
      const open = calibrationUnseal(CALIBRATION_STATE_EMPTY, source, at);
      expect(open.log).toHaveLength(1);
      expect(() => calibrationUnseal(open, source, at)).toThrow(/only once/);
      const warnings = calibrationRerunWarnings(open, runs);
      for (const w of warnings) {
        const run = runs.find((r) => r.info.id === w.runId)!;
        expect(
          Date.parse(run.info.startedAt) > Date.parse(at) || run.info.promptVersion !== "v1",
        ).toBe(true);
      }
      const once = calibrationLogReruns(open, warnings, "later");
      expect(calibrationLogReruns(once, warnings, "even later")).toBe(once);
      expect(calibrationLogReruns(once, calibrationRerunWarnings(once, runs), "x")).toBe(once);
      const distinct = new Set(warnings.map((w) => w.message)).size;
      expect(once.log).toHaveLength(1 + distinct);
      expect(once.log.slice(1).every((e) => e.event === "rerun-after-unseal")).toBe(true);
    },
  );
});
