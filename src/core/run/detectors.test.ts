import { describe, expect, it } from "vitest";
import { healthRun, healthRunAnnotations, healthRunHackStep } from "../../../scripts/healthRun.ts";
import { healthRunGroups } from "../../test/healthRunGroups.ts";
import { ANALYSIS_DEFAULTS } from "../analysis/analysisSettings.ts";
import type { Annotations } from "../analysis/annotations.ts";
import { ANNOTATIONS_EMPTY } from "../analysis/annotations.ts";
import { HEALTH_DEFAULTS } from "../settings/healthSchema.ts";
import { healthAlerts, healthDetectors, HEALTH_RULES } from "./detectors.ts";
import { hackExemplarsOf, markedHackIds } from "./hackSpread.ts";
import { runHealth, type RunHealth, type StepHealth } from "./runHealth.ts";

/** A step whose numbers are all quiet; a test sets what it is about. */
function step(n: number, over: Partial<StepHealth> = {}): StepHealth {
  return {
    step: n,
    groups: 10,
    rollouts: 80,
    passes: 40,
    passRate: 0.5,
    meanReward: 0.5,
    zeroStdGroups: 1,
    zeroStdShare: 0.1,
    mixedGroups: 9,
    mixedShare: 0.9,
    meanChars: 1000,
    meanTurns: 1,
    meanToolCalls: 0,
    components: {},
    componentShares: {},
    clusteredGroups: 10,
    clustersPerGroup: 8,
    spread: { yes: 9, no: 1, na: 0 },
    hacks: { human: 0, heuristic: 0, judge: 0 },
    hackShares: { human: 0, heuristic: 0, judge: 0 },
    hackLike: 0,
    hackLikeShare: NaN,
    hackCorrected: null,
    ...over,
  };
}

const run = (steps: StepHealth[], over: Partial<RunHealth> = {}): RunHealth => ({
  steps,
  components: [],
  exemplars: 0,
  judged: { tp: 0, fp: 0, fn: 0, tn: 0 },
  ...over,
});

const detector = (r: RunHealth, rule: string, h = HEALTH_DEFAULTS) =>
  healthDetectors(r, h).find((d) => d.rule === rule)!;

describe("each detector on a hand-made series", () => {
  it("zero-std fires above its share, once per episode, at the episode's first step", () => {
    const shares = [0.1, 0.6, 0.7, 0.2, 0.55, 0.1];
    const d = detector(run(shares.map((s, i) => step(i + 1, { zeroStdShare: s }))), "zero-std");
    expect(d.fired).toEqual([2, 3, 5]);
    expect(d.alerts.map((a) => [a.step, a.value, a.threshold])).toEqual([
      [2, 0.6, 0.5],
      [5, 0.55, 0.5],
    ]);
  });

  it("zero-std fires on a significant rise over the window below the share", () => {
    const shares = [0.05, 0.05, 0.05, 0.15, 0.25, 0.35, 0.45];
    const d = detector(run(shares.map((s, i) => step(i + 1, { zeroStdShare: s }))), "zero-std");
    // Windows of 5: steps 3-7 rise by 0.4 (fitted), steps 2-6 by 0.32, 1-5 by 0.22.
    expect(d.fired).toEqual([5, 6, 7]);
    expect(d.alerts).toHaveLength(1);
    expect(d.alerts[0]!.threshold).toBe(HEALTH_DEFAULTS.zeroStdRise);
  });

  it("length drift names the first longer step, and not while the pass rate climbs", () => {
    const chars = [1000, 1000, 1000, 1000, 1000, 1200, 1400, 1600, 1800, 2000];
    const flat = run(chars.map((c, i) => step(i + 1, { meanChars: c })));
    const d = detector(flat, "length-drift");
    expect(d.alerts).toHaveLength(1);
    expect(d.alerts[0]!.step).toBe(6);
    expect(d.fired[0]).toBeGreaterThanOrEqual(7);
    const climbing = run(
      chars.map((c, i) => step(i + 1, { meanChars: c, passRate: 0.3 + 0.05 * i })),
    );
    expect(detector(climbing, "length-drift").fired).toEqual([]);
  });

  it("a drift interrupted by a window where the pass rate moved is reported once", () => {
    const chars = [1000, 1000, 1000, 1000, 1000, 1200, 1400, 1600, 1800, 2000, 2200, 2400, 2600];
    const pass = [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.62, 0.5, 0.5, 0.5];
    const d = detector(
      run(chars.map((c, i) => step(i + 1, { meanChars: c, passRate: pass[i]! }))),
      "length-drift",
    );
    // Two episodes of firing windows, split where the bump at step 10 made the pass rate climb.
    const fired = d.fired;
    expect(fired.some((s, i) => i > 0 && s - fired[i - 1]! > 1)).toBe(true);
    expect(d.alerts.map((a) => a.step)).toEqual([6]);
  });

  it("diversity collapse names where the clusters start to fall", () => {
    const clusters = [8, 8, 8, 8, 7, 6, 5, 4, 3];
    const d = detector(
      run(clusters.map((c, i) => step(i + 1, { clustersPerGroup: c }))),
      "diversity-collapse",
    );
    expect(d.alerts.map((a) => a.step)).toEqual([5]);
  });

  it("component dominance names the component over its share", () => {
    const steps = [0.5, 0.85, 0.9].map((s, i) =>
      step(i + 1, { componentShares: { correct: s, format: 1 - s } }),
    );
    const d = detector(run(steps, { components: ["correct", "format"] }), "component-dominance");
    expect(d.fired).toEqual([2, 3]);
    expect(d.alerts[0]!.message).toContain('"correct" carries 85.0%');
    expect(detector(run(steps), "component-dominance").idle).toMatch(/two reward components/);
  });

  it("hack spread fires above its share and is idle without marked hacks", () => {
    const steps = [0, 0.05, 0.12, 0.3].map((s, i) => step(i + 1, { hackLikeShare: s }));
    const d = detector(run(steps, { exemplars: 2 }), "hack-spread");
    expect(d.fired).toEqual([3, 4]);
    expect(d.alerts.map((a) => a.step)).toEqual([3]);
    expect(detector(run(steps), "hack-spread").idle).toMatch(/marked/);
  });

  it("trend rules are idle on runs shorter than the window and skip a step-less batch", () => {
    const d = detector(run([step(1), step(2)]), "length-drift");
    expect(d.idle).toMatch(/needs 5 steps/);
    const withNull = run([step(0, { step: null, zeroStdShare: 0.9 }), step(1)]);
    expect(detector(withNull, "zero-std").fired).toEqual([]);
  });

  it("every rule has a formula naming its thresholds", () => {
    const all = healthDetectors(run([step(1)]), HEALTH_DEFAULTS);
    expect(all.map((d) => d.rule)).toEqual(HEALTH_RULES);
    expect(all.find((d) => d.rule === "zero-std")!.formula).toContain("0.5");
    expect(all.find((d) => d.rule === "hack-spread")!.formula).toContain("0.1");
  });
});

describe("the detectors on generated runs (scripts/healthRun.ts)", () => {
  const planted = healthRun({
    drift: { start: 8, rate: 0.15 },
    hack: { start: 12, share0: 0.03, max: 0.6 },
  });
  const groups = healthRunGroups(planted);
  // The annotations file's shape is core's once io has read it; these fields are all it holds.
  const raw = healthRunAnnotations(planted) as Pick<Annotations, "groups">;
  const annotations: Annotations = { ...ANNOTATIONS_EMPTY, groups: raw.groups };
  const exemplars = hackExemplarsOf(
    groups.map((g) => g.group),
    markedHackIds(annotations),
    ANALYSIS_DEFAULTS,
  );
  const health = runHealth(groups, ANALYSIS_DEFAULTS, HEALTH_DEFAULTS, { annotations, exemplars });
  const alerts = healthAlerts(healthDetectors(health, HEALTH_DEFAULTS));

  it("length drift starts where it was planted", () => {
    expect(alerts.filter((a) => a.rule === "length-drift").map((a) => a.step)).toEqual([8]);
  });

  it("hack spread fires once, where the planted share first passes the threshold", () => {
    expect(exemplars).toHaveLength(2);
    expect(alerts.filter((a) => a.rule === "hack-spread").map((a) => a.step)).toEqual([
      healthRunHackStep(planted, HEALTH_DEFAULTS.hackSpreadMax),
    ]);
  });

  it("a clean run fires nothing", () => {
    const clean = runHealth(healthRunGroups(healthRun()), ANALYSIS_DEFAULTS, HEALTH_DEFAULTS);
    expect(healthAlerts(healthDetectors(clean, HEALTH_DEFAULTS))).toEqual([]);
    expect(clean.steps.map((s) => s.step)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
  });
});
