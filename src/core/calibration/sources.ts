/**
 * What calibration compares with the human labels: a source of pass/fail verdicts per rollout and,
 * where it has one, a best-first ranking per group. A judge run, the reward itself (reward >= the
 * pass threshold) and, later, a verifier are each one constructor call away from a source, so the
 * report and the view never branch on what produced the verdicts.
 */
import {
  JUDGE_VERDICT_DEFAULTS,
  judgeRunRanking,
  judgeRunVerdicts,
  type JudgeRun,
  type JudgeRunInfo,
  type JudgeVerdictOptions,
} from "../judge/runs.ts";
import type { Rollout, RolloutGroup, RolloutId } from "../types.ts";

export type CalibrationVerdict = "pass" | "fail";

/** What produced the verdicts: an LLM or heuristic judge run, a verifier, or the reward itself. */
export type CalibrationSourceKind = "judge" | "verifier" | "reward";

/** Best-first tiers of rollout ids; a tier with several ids is a tie. */
export type CalibrationTiers = readonly (readonly RolloutId[])[];

export interface CalibrationSource {
  /** Stable: a judge run's id, a verifier's name, or "reward". Recorded when the test split is unsealed. */
  readonly id: string;
  /** How the view names it (mode, model or heuristic, prompt version, time for a judge run). */
  readonly label: string;
  readonly kind: CalibrationSourceKind;
  /** The judge prompt's (or verifier's) version; "" when the source has none (the reward). */
  readonly promptVersion: string;
  /**
   * The verdict on each rollout of a group the source judged. A rollout without a verdict (not
   * judged, a failed request, no reward) is absent, never guessed.
   *
   * @param rewards the group's rewards under the settings, in rollout order
   */
  readonly verdicts: (
    group: RolloutGroup,
    rewards: readonly number[],
  ) => ReadonlyMap<RolloutId, CalibrationVerdict>;
  /** The source's best-first tiers for a group, or null when it did not rank the group. */
  readonly ranking: (group: RolloutGroup, rewards: readonly number[]) => CalibrationTiers | null;
}

/** Ids grouped into best-first tiers by a score, higher first; equal scores share a tier. */
export function calibrationTiersByScore(
  scored: readonly (readonly [RolloutId, number])[],
): RolloutId[][] {
  const sorted = scored
    .filter(([, v]) => Number.isFinite(v))
    .map(([id, v], i) => ({ id, v, i }))
    .sort((a, b) => b.v - a.v || a.i - b.i);
  const tiers: RolloutId[][] = [];
  let last = NaN;
  for (const { id, v } of sorted) {
    if (tiers.length > 0 && v === last) tiers[tiers.length - 1]!.push(id);
    else tiers.push([id]);
    last = v;
  }
  return tiers;
}

/** What a source built from per-rollout decisions needs (see {@link calibrationSourceFromRollouts}). */
export interface CalibrationRolloutSourceSpec {
  readonly id: string;
  readonly label: string;
  readonly kind: CalibrationSourceKind;
  readonly promptVersion: string;
  /** The verdict on one rollout given its reward under the settings; null: no verdict. */
  readonly verdict: (rollout: Rollout, reward: number) => CalibrationVerdict | null;
  /**
   * A score to rank by (higher is better; non-finite or null: unranked). Without it the source
   * has no rankings.
   */
  readonly score?: (rollout: Rollout, reward: number) => number | null;
}

/**
 * A source that decides each rollout on its own: the reward, and a verifier (issue 7) is one call,
 * e.g. `calibrationSourceFromRollouts({ id: "tests", label: "unit tests v2", kind: "verifier",
 * promptVersion: "v2", verdict: (r) => (r.testsPassed?.length ? "pass" : "fail") })`.
 * A group whose rollouts all lack a score has no ranking (null).
 */
export function calibrationSourceFromRollouts(
  spec: CalibrationRolloutSourceSpec,
): CalibrationSource {
  if (spec.id === "") throw new RangeError("a calibration source needs a non-empty id");
  const score = spec.score;
  return {
    id: spec.id,
    label: spec.label,
    kind: spec.kind,
    promptVersion: spec.promptVersion,
    verdicts: (group, rewards) => {
      const out = new Map<RolloutId, CalibrationVerdict>();
      group.rollouts.forEach((r, i) => {
        const v = spec.verdict(r, rewards[i] ?? NaN);
        if (v !== null) out.set(r.id, v);
      });
      return out;
    },
    ranking: (group, rewards) => {
      if (score === undefined) return null;
      const scored = group.rollouts.map(
        (r, i) => [r.id, score(r, rewards[i] ?? NaN) ?? NaN] as const,
      );
      const tiers = calibrationTiersByScore(scored);
      return tiers.length === 0 ? null : tiers;
    },
  };
}

/** The id of the reward source (a judge run's id is `<mode>-<time>`, so they cannot clash in practice). */
export const CALIBRATION_REWARD_SOURCE_ID = "reward";

/**
 * The reward as a judge: a rollout passes when its reward (under the settings) is >= the pass
 * threshold; a rollout without a finite reward has no verdict. It ranks every rollout with a
 * finite reward by that reward, equal rewards tied.
 */
export function calibrationRewardSource(passThreshold: number): CalibrationSource {
  return calibrationSourceFromRollouts({
    id: CALIBRATION_REWARD_SOURCE_ID,
    label: `reward (pass threshold ${passThreshold})`,
    kind: "reward",
    promptVersion: "",
    verdict: (_, reward) =>
      Number.isFinite(reward) ? (reward >= passThreshold ? "pass" : "fail") : null,
    score: (_, reward) => (Number.isFinite(reward) ? reward : null),
  });
}

/** An ISO time as "YYYY-MM-DD HH:MM:SS UTC" (the text as given when it is not ISO). */
function shortTime(iso: string): string {
  const m = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}:\d{2})(?:\.\d+)?Z$/.exec(iso);
  return m === null ? iso : `${m[1]} ${m[2]} UTC`;
}

/**
 * How a judge run is named wherever it is picked (the GAR source, calibration, the exports): mode,
 * the model (or "heuristic grader": the offline grader is labelled as a heuristic everywhere),
 * prompt version, start time and what it judged ("spread check (20 groups)"), so that two runs
 * never read the same.
 */
export function calibrationJudgeRunLabel(info: JudgeRunInfo, groups?: number): string {
  const who = info.source === "heuristic" ? "heuristic grader" : info.model;
  const cancelled = info.cancelled ? " (cancelled)" : "";
  const count = groups === undefined ? "" : `${groups} group${groups === 1 ? "" : "s"}`;
  const scope =
    info.scope === undefined
      ? count === ""
        ? ""
        : ` · ${count}`
      : ` · ${info.scope}${count === "" ? "" : ` (${count})`}`;
  return `${info.mode} · ${who} · prompt ${info.promptVersion} · ${shortTime(info.startedAt)}${scope}${cancelled}`;
}

/** A run's name with its group count (`calibrationJudgeRunLabel`). */
export function judgeRunName(run: JudgeRun): string {
  return calibrationJudgeRunLabel(run.info, Object.keys(run.groups).length);
}

/**
 * A judge run as a source: its verdicts and rankings are `judgeRunVerdicts` and `judgeRunRanking`
 * (see there for each mode's rule); a group the run failed on or did not reach has neither.
 */
export function calibrationJudgeRunSource(
  run: JudgeRun,
  options: JudgeVerdictOptions = JUDGE_VERDICT_DEFAULTS,
): CalibrationSource {
  return {
    id: run.info.id,
    label: judgeRunName(run),
    kind: "judge",
    promptVersion: run.info.promptVersion,
    verdicts: (group, rewards) => judgeRunVerdicts(run, group, rewards, options),
    ranking: (group, rewards) => judgeRunRanking(run, group, rewards, options),
  };
}
