/**
 * The spread check (methods.md 2.5) of one group, as the group browser reads it: over the GAR
 * factors of a person's ranking (its ranked passes that are not hacks), or without a ranking over
 * the group's finite rewards; and its verdict, "n/a" when there is nothing to tell apart.
 */
import { garFactorsOfKept } from "../advantage/gar.ts";
import { spreadOk, type SpreadReport } from "../advantage/spread.ts";
import type { Rollout, RolloutId } from "../types.ts";
import { rolloutReward, type AnalysisSettings } from "./analyze.ts";
import type { GroupAnnotation } from "./annotations.ts";

/** "n/a" with fewer than two scores: the check cannot tell anything apart. */
export type SpreadVerdict = "yes" | "no" | "n/a";

/** The verdict of a spread report (`spreadCheck`). */
export function spreadReportVerdict(report: Pick<SpreadReport, "n" | "ok">): SpreadVerdict {
  return report.n < 2 ? "n/a" : report.ok ? "yes" : "no";
}

/**
 * `spreadReportVerdict(spreadCheck(scores, groups))` without building the report (whose text the
 * browser builds only when it is shown).
 */
export function spreadVerdict(scores: readonly number[]): SpreadVerdict {
  return scores.length < 2 ? "n/a" : spreadOk(scores) ? "yes" : "no";
}

/**
 * The scores the spread check of a person's ranking runs over: the GAR factors
 * (`garFactorsOfKept`, settings.minFactor) of its ranked rollouts that are not hacks and pass,
 * re-ranked among themselves. Whether a rollout passes is known only from its rollouts (its reward
 * under settings.rewardWeights against settings.passThreshold): without them (a group not parsed
 * yet) every ranked non-hack counts.
 *
 * @param rollouts the group's rollouts, or undefined while the group is not parsed
 * @throws GarError if settings.minFactor is outside (0, 1]
 */
export function rankingSpreadScores(
  annotation: Pick<GroupAnnotation, "ranking" | "hacks">,
  rollouts: readonly Rollout[] | undefined,
  settings: Pick<AnalysisSettings, "passThreshold" | "rewardWeights" | "minFactor">,
): number[] {
  const hacks = new Set(annotation.hacks);
  const passing: ReadonlySet<RolloutId> | null =
    rollouts === undefined
      ? null
      : new Set(
          rollouts
            .filter((r) => rolloutReward(r, settings.rewardWeights) >= settings.passThreshold)
            .map((r) => r.id),
        );
  return garFactorsOfKept(
    annotation.ranking,
    settings.minFactor,
    (id) => !hacks.has(id) && (passing === null || passing.has(id)),
  );
}
