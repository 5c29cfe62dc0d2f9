/**
 * The Verifiers panel's decisions, pure: the metadata fields a draft may read, what the status
 * line says, the drop-a-component table of the selected group, and what the check before applying
 * leads to (apply at once, ask first, or apply a spec that does not fit so its status says why).
 */
import {
  componentDropAdvantages,
  verifierEmitted,
  verifierFieldPaths,
  type AnalysisSettings,
  type GroupAnnotation,
  type LoggedRewardRule,
  type RolloutGroup,
  type VerifierSpec,
} from "../../../core/index.ts";
import type { VerifierResults, VerifierStatus } from "../../../store/slices/verifierSlice.ts";
import type { VerifierPreview } from "../../../store/verifiers/verifierSync.ts";
import {
  prepareDropView,
  prepareFlipView,
  type DropView,
  type FlipView,
} from "./prepareVerifiers.ts";

/** Metadata of this many rollouts is enough to offer the fields a dump has. */
export const FIELD_SAMPLE = 500;

/**
 * The metadata paths the loaded rollouts have (from the first `sample` rollouts), with the
 * format's own answer field (native `answer`) first when any rollout has one: the exact match reads
 * it after the metadata.
 */
export function verifierDraftFields(
  groups: ReadonlyMap<string, RolloutGroup> | null,
  sample = FIELD_SAMPLE,
): string[] {
  if (groups === null) return [];
  const metas = [];
  outer: for (const g of groups.values())
    for (const r of g.rollouts) {
      if (metas.length >= sample) break outer;
      metas.push(r.meta);
    }
  const paths = verifierFieldPaths(metas);
  const hasAnswer = [...groups.values()].some((g) => g.rollouts.some((r) => r.answer !== null));
  return hasAnswer && !paths.includes("answer") ? ["answer", ...paths] : paths;
}

/** How each logged-reward rule is offered. */
export const LOGGED_REWARD_LABELS: Readonly<Record<LoggedRewardRule, string>> = {
  auto: "auto: multiplied for a 0/1 reward, else added to",
  multiply: "multiplied: the logged reward × the verifiers",
  keep: "kept: the verifiers add to it",
  drop: "dropped: the verifiers alone",
};

/** The status line of the applied spec. */
export function verifierStatusText(status: VerifierStatus): string {
  switch (status.kind) {
    case "off":
      return "No verifier applied: the rollouts have the file's rewards.";
    case "running":
      return `Scoring ${status.rollouts.toLocaleString("en-US")} rollouts in a worker…`;
    case "done":
      return `Applied to ${status.rollouts.toLocaleString("en-US")} rollouts: the components below are in every total, advantage and chart.`;
    case "invalid":
      return "The applied spec does not fit this data, so the rollouts have the file's rewards:";
    case "error":
      return `Not applied: ${status.message}`;
  }
}

/**
 * The selected group's advantages with each added component (and the logged reward) dropped,
 * over the groups as views show them; the rule in force is the run's, or the spec's own before a
 * run (`auto` reads as `keep` until resolved).
 */
export function verifierDropView(
  groups: readonly RolloutGroup[],
  selected: RolloutGroup | null,
  settings: AnalysisSettings,
  spec: VerifierSpec,
  results: Pick<VerifierResults, "resolution" | "logged">,
): DropView | null {
  if (selected === null) return null;
  const table = componentDropAdvantages(groups, settings, {
    added: verifierEmitted(spec).map((v) => v.name),
    loggedReward:
      results.resolution?.rule ?? (spec.loggedReward === "auto" ? "keep" : spec.loggedReward),
    logged: results.logged,
  });
  return prepareDropView(table, groups.indexOf(selected), selected);
}

/** What a preview leads to: apply now (nobody flips, or the spec does not fit), or ask first. */
export type ApplyDecision =
  | { readonly kind: "apply-unfit" }
  | { readonly kind: "apply"; readonly view: FlipView }
  | { readonly kind: "confirm"; readonly view: FlipView };

export function verifierApplyDecision(
  preview: VerifierPreview,
  annotationGroups: Readonly<Record<string, GroupAnnotation>>,
): ApplyDecision {
  // A spec that does not fit the data is applied: its status then says why it is not in force.
  if (preview.kind === "invalid") return { kind: "apply-unfit" };
  const view = prepareFlipView(preview.report, preview.resolution, annotationGroups);
  return view.none ? { kind: "apply", view } : { kind: "confirm", view };
}
