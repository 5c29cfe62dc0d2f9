/**
 * A judge run as the studio keeps it, exports it and the CLI writes it: which judge (LLM or the
 * offline heuristic), which prompt version, its accounting, and per group either the verdict (keyed
 * by rollout ids, so it survives re-ordering) or the judge error. Stored in the annotations document
 * (`Annotations.judgeRuns`), so a run made by `rollout-studio judge` imports into the studio.
 *
 * From a run, `judgeRunVerdicts` derives the judge's pass/fail per rollout (what calibration
 * compares with the human labels) and `judgeRunRanking` its best-first tiers per group.
 */
import { GAR_DEFAULTS } from "../advantage/gar.ts";
import type { GroupId, RolloutGroup, RolloutId } from "../types.ts";
import type { JudgeAccounting } from "./accounting.ts";
import type { JudgeFailure } from "./types.ts";

/** What a run asked the judge to do (issue: group grader, pairwise judge, rubric scorer, clusterer). */
export type JudgeMode = "gar" | "pairwise" | "rubric" | "cluster";
export const JUDGE_MODES: readonly JudgeMode[] = ["gar", "pairwise", "rubric", "cluster"];

/** An LLM behind an OpenAI-compatible endpoint, or the offline heuristic grader (no key, no network). */
export type JudgeSource = "llm" | "heuristic";

export interface JudgeRunInfo {
  /** Unique within an annotations document, e.g. `gar-2026-11-29T21:40:00.000Z`. */
  readonly id: string;
  readonly mode: JudgeMode;
  readonly source: JudgeSource;
  /** The model name ("heuristic" for the heuristic grader). */
  readonly model: string;
  /** The endpoint's base URL ("" for the heuristic); never holds a key. */
  readonly baseUrl: string;
  /** The prompt template's version (`templateVersion`), or the heuristic's name and version. */
  readonly promptVersion: string;
  /** ISO 8601 times. */
  readonly startedAt: string;
  readonly finishedAt: string;
  readonly accounting: JudgeAccounting;
  /** US dollars at the user's prices; null when no price was set. */
  readonly costUsd: number | null;
  /** The user cancelled the run: the groups it did not finish have no entry. */
  readonly cancelled: boolean;
  /**
   * What was judged, in words, for the run's name: "spread check" (a seeded sample graded for
   * the spread check), "mixed groups", "all groups", "selected group", "spread-eligible groups".
   * Absent in runs written before it existed.
   */
  readonly scope?: string;
}

/** A rubric scorer's scores for one passing rollout, both in [0, 1]. */
export interface JudgeRubricScore {
  readonly solution: number;
  readonly behavior: number;
}

/** One pairwise comparison of rollouts a and b: which won, "tie", or null when the judge failed. */
export interface JudgePairRecord {
  readonly a: RolloutId;
  readonly b: RolloutId;
  readonly winner: "a" | "b" | "tie" | null;
  /** Both orders were asked and the verdicts disagreed (a position flip); null when run one way. */
  readonly flipped: boolean | null;
}

/**
 * A judge's result for one group. Fields that do not belong to the run's mode stay empty. A group
 * whose reply was unusable has `error` set and empty verdict fields: it falls back to the original
 * rewards and is counted (methods.md 2.3).
 */
export interface JudgeGroupResult {
  readonly error: JudgeFailure | null;
  /** gar: best-first tiers of passing rollout ids. */
  readonly tiers: readonly (readonly RolloutId[])[];
  /** gar: passes the judge calls hacks. */
  readonly hacks: readonly RolloutId[];
  /** rubric: scores per passing rollout (a pass whose reply failed is absent and listed in `failed`). */
  readonly scores: Readonly<Record<RolloutId, JudgeRubricScore>>;
  /** rubric or pairwise: rollouts whose own request failed while others in the group succeeded. */
  readonly failed: readonly RolloutId[];
  /** cluster: the cluster label of every rollout. */
  readonly clusters: Readonly<Record<RolloutId, string>>;
  /** pairwise: the comparisons made. */
  readonly pairs: readonly JudgePairRecord[];
  /** rubric: the rubric version the group was scored with (null: none or not a rubric run). */
  readonly rubricVersion: number | null;
  readonly reason: string | null;
}

export interface JudgeRun {
  readonly info: JudgeRunInfo;
  readonly groups: Readonly<Record<GroupId, JudgeGroupResult>>;
}

export const JUDGE_GROUP_RESULT_EMPTY: JudgeGroupResult = {
  error: null,
  tiers: [],
  hacks: [],
  scores: {},
  failed: [],
  clusters: {},
  pairs: [],
  rubricVersion: null,
  reason: null,
};

/** Options for turning a run into per-rollout verdicts. */
export interface JudgeVerdictOptions {
  /** A reward >= this is a pass (methods.md 2.7, 0.5). */
  readonly passThreshold: number;
  /** rubric: a pass is judged a pass when solution x behavior >= this (default 0.5). */
  readonly rubricPassScore: number;
}

export const JUDGE_VERDICT_DEFAULTS: JudgeVerdictOptions = {
  passThreshold: GAR_DEFAULTS.passThreshold,
  rubricPassScore: 0.5,
};

function isPass(reward: number | undefined, threshold: number): boolean {
  return reward !== undefined && Number.isFinite(reward) && reward >= threshold;
}

/**
 * The judge's pass/fail for each rollout of a group it judged (`rewards` are the group's effective
 * rewards, in rollout order, as the analysis computes them), or an empty map when it did not
 * judge the group, failed on it, or the mode gives no verdict (cluster).
 *
 * - gar: a failing rollout stays "fail"; a pass is "pass" unless the judge calls it a hack.
 * - rubric: a failing rollout stays "fail"; a pass is "pass" when s x b >= `rubricPassScore`;
 *   a pass whose request failed has no verdict.
 * - pairwise: a rollout is "pass" when it wins at least half of its decided comparisons
 *   (ties count half), "fail" otherwise; rollouts in no decided comparison have no verdict.
 */
export function judgeRunVerdicts(
  run: JudgeRun,
  group: RolloutGroup,
  rewards: readonly number[],
  options: JudgeVerdictOptions = JUDGE_VERDICT_DEFAULTS,
): Map<RolloutId, "pass" | "fail"> {
  const out = new Map<RolloutId, "pass" | "fail">();
  const result = run.groups[group.id];
  if (result === undefined || result.error !== null) return out;
  const mode = run.info.mode;
  if (mode === "gar") {
    const hacks = new Set(result.hacks);
    const ranked = new Set([...result.tiers.flat(), ...result.hacks]);
    for (const [i, r] of group.rollouts.entries()) {
      if (!isPass(rewards[i], options.passThreshold)) out.set(r.id, "fail");
      else if (ranked.has(r.id)) out.set(r.id, hacks.has(r.id) ? "fail" : "pass");
    }
  } else if (mode === "rubric") {
    for (const [i, r] of group.rollouts.entries()) {
      if (!isPass(rewards[i], options.passThreshold)) {
        out.set(r.id, "fail");
        continue;
      }
      const s = result.scores[r.id];
      if (s !== undefined)
        out.set(r.id, s.solution * s.behavior >= options.rubricPassScore ? "pass" : "fail");
    }
  } else if (mode === "pairwise") {
    const won = new Map<RolloutId, number>();
    const played = new Map<RolloutId, number>();
    for (const p of result.pairs) {
      if (p.winner === null) continue;
      for (const id of [p.a, p.b]) played.set(id, (played.get(id) ?? 0) + 1);
      if (p.winner === "tie") {
        won.set(p.a, (won.get(p.a) ?? 0) + 0.5);
        won.set(p.b, (won.get(p.b) ?? 0) + 0.5);
      } else {
        const w = p.winner === "a" ? p.a : p.b;
        won.set(w, (won.get(w) ?? 0) + 1);
      }
    }
    for (const r of group.rollouts) {
      const n = played.get(r.id);
      if (n !== undefined && n > 0)
        out.set(r.id, (won.get(r.id) ?? 0) / n >= 0.5 ? "pass" : "fail");
    }
  }
  return out;
}

/**
 * The judge's best-first tiers for a group (rollout ids), for rank agreement with the human
 * ranking; null when the run has no ranking for the group.
 *
 * - gar: the tiers, then the hacks as one tier, then the failing rollouts as one tier.
 * - rubric: passes by s x b descending (equal products tie), then the failing rollouts.
 * - pairwise: rollouts by win share descending (equal shares tie).
 */
export function judgeRunRanking(
  run: JudgeRun,
  group: RolloutGroup,
  rewards: readonly number[],
  options: JudgeVerdictOptions = JUDGE_VERDICT_DEFAULTS,
): RolloutId[][] | null {
  const result = run.groups[group.id];
  if (result === undefined || result.error !== null) return null;
  const fails = group.rollouts
    .filter((_, i) => !isPass(rewards[i], options.passThreshold))
    .map((r) => r.id);
  const byScore = (entries: readonly (readonly [RolloutId, number])[]): RolloutId[][] => {
    const sorted = [...entries].sort((x, y) => y[1] - x[1]);
    const tiers: RolloutId[][] = [];
    let last = NaN;
    for (const [id, v] of sorted) {
      if (tiers.length > 0 && v === last) tiers[tiers.length - 1]!.push(id);
      else tiers.push([id]);
      last = v;
    }
    return tiers;
  };
  const withTail = (tiers: RolloutId[][], tail: readonly RolloutId[]): RolloutId[][] =>
    tail.length > 0 ? [...tiers, [...tail]] : tiers;
  switch (run.info.mode) {
    case "gar": {
      if (result.tiers.length === 0 && result.hacks.length === 0) return null;
      const tiers = result.tiers.map((t) => [...t]);
      return withTail(withTail(tiers, result.hacks), fails);
    }
    case "rubric": {
      const entries = Object.entries(result.scores).map(
        ([id, s]) => [id, s.solution * s.behavior] as const,
      );
      if (entries.length === 0) return null;
      return withTail(byScore(entries), fails);
    }
    case "pairwise": {
      const won = new Map<RolloutId, number>();
      const played = new Map<RolloutId, number>();
      for (const p of result.pairs) {
        if (p.winner === null) continue;
        for (const id of [p.a, p.b]) played.set(id, (played.get(id) ?? 0) + 1);
        const credit = (id: RolloutId, v: number): void => void won.set(id, (won.get(id) ?? 0) + v);
        if (p.winner === "tie") {
          credit(p.a, 0.5);
          credit(p.b, 0.5);
        } else credit(p.winner === "a" ? p.a : p.b, 1);
      }
      if (played.size === 0) return null;
      return byScore([...played].map(([id, n]) => [id, (won.get(id) ?? 0) / n] as const));
    }
    case "cluster":
      return null;
  }
}

/** The newest run of a mode (by position: runs are appended), or null. */
export function judgeRunLatest(runs: readonly JudgeRun[], mode: JudgeMode): JudgeRun | null {
  for (let i = runs.length - 1; i >= 0; i--) if (runs[i]!.info.mode === mode) return runs[i]!;
  return null;
}
