/**
 * What a judge verifier reads: each rollout's verdict from a stored judge run. Verdicts need the
 * whole group (a pairwise verdict is a share of the group's comparisons, a rubric or gar verdict
 * reads the group's rewards), so they are computed per group where the inputs are built and travel
 * in each rollout's `VerifierInput.verdicts`, small and structured-cloneable for the worker.
 */
import { rolloutReward } from "../analysis/analyze.ts";
import { judgeRunVerdicts, type JudgeRun } from "../judge/runs.ts";
import type { RolloutGroup } from "../types.ts";
import { verifierJudgeRun, type JudgeVerifier, type Verifier, type VerifierSpec } from "./spec.ts";

/** One judge verifier's reading of one rollout: the run's verdict, or null and why there is none. */
export interface JudgeVerdictInput {
  readonly verdict: "pass" | "fail" | null;
  /** Why there is no verdict, or which run failed the rollout; "" for a pass. */
  readonly note: string;
}

/** The judge verifiers a run evaluates (enabled, or the input of an enabled length penalty). */
function judgeVerifiersEvaluated(spec: VerifierSpec): JudgeVerifier[] {
  const wrapped = new Set(
    spec.verifiers.flatMap((v) => (v.enabled && v.kind === "length-penalty" ? [v.wraps] : [])),
  );
  return spec.verifiers.filter(
    (v): v is JudgeVerifier & Verifier => v.kind === "judge" && (v.enabled || wrapped.has(v.name)),
  );
}

/** True when some evaluated verifier reads a judge run (the CLI then needs --annotations). */
export function verifierReadsJudgeRuns(spec: VerifierSpec): boolean {
  return judgeVerifiersEvaluated(spec).length > 0;
}

function runName(run: JudgeRun): string {
  return `${run.info.id}${run.info.source === "heuristic" ? " (heuristic)" : ""}`;
}

/**
 * Each rollout's judge verdicts for a group, by verifier name, in rollout order. A rollout gets a
 * null verdict, with the reason, when its verifier has no run (`verifierSpecProblems` refuses that
 * first), the run did not judge its group, the judge failed on the group or on its own request, or
 * the run's rule gives it none (a gar pass the judge did not rank, a pairwise rollout in no decided
 * comparison). Verdicts are `judgeRunVerdicts` on the file's rewards (`rolloutReward(r, null)`).
 */
export function verifierJudgeVerdicts(
  spec: VerifierSpec,
  group: RolloutGroup,
  runs: readonly JudgeRun[],
): Record<string, JudgeVerdictInput>[] {
  const out = group.rollouts.map((): Record<string, JudgeVerdictInput> => ({}));
  const judges = judgeVerifiersEvaluated(spec);
  if (judges.length === 0) return out;
  const rewards = group.rollouts.map((r) => rolloutReward(r, null));
  for (const v of judges) {
    const run = verifierJudgeRun(v, runs);
    const none = (note: string): void => {
      for (const row of out) row[v.name] = { verdict: null, note };
    };
    if (run === null) {
      none(`no ${v.mode} judge run${v.run === null ? "" : ` "${v.run}"`}: run the judge first`);
      continue;
    }
    const result = Object.hasOwn(run.groups, group.id) ? run.groups[group.id]! : undefined;
    if (result === undefined) {
      none(`${runName(run)} did not judge this group`);
      continue;
    }
    if (result.error !== null) {
      none(`${runName(run)} failed on this group: ${result.error.kind}: ${result.error.message}`);
      continue;
    }
    const verdicts = judgeRunVerdicts(run, group, rewards, {
      passThreshold: v.passThreshold,
      rubricPassScore: v.rubricPassScore,
    });
    const failed = new Set(result.failed);
    group.rollouts.forEach((r, i) => {
      const verdict = verdicts.get(r.id) ?? null;
      out[i]![v.name] =
        verdict !== null
          ? { verdict, note: verdict === "pass" ? "" : `failed by ${runName(run)}` }
          : {
              verdict: null,
              note: failed.has(r.id)
                ? `${runName(run)}: the judge's request for this rollout failed`
                : `${runName(run)} gave this rollout no verdict`,
            };
    });
  }
  return out;
}
