/**
 * DPO preference pairs (TRL's `prompt` / `chosen` / `rejected` columns) from the human rankings.
 *
 * The rule, per group, with passes decided by the settings' pass threshold:
 * - tier pairs: for every two tiers of the human ranking, each rollout of the better tier is
 *   chosen over each rollout of the worse one. Rollouts in one tier are tied and give no pair.
 *   Hacks and failing rollouts leave the tiers first (as GAR reads the ranking: a failing rollout
 *   in a ranking is ignored), and a tier left empty vanishes.
 * - hack pairs: a rollout marked as a hack is always rejected, against every pass of the group
 *   that is not a hack, ranked or not.
 * Groups without a ranking or hacks give no pairs; nothing is inferred from the rewards alone.
 * Pairs come in data order: tier pairs by (better tier, worse tier, position in the tier), then
 * hack pairs by (hack, pass) in group order.
 *
 * A pair of chat transcripts is in TRL's conversational preference form by default: `prompt` the
 * prompt messages, `chosen` and `rejected` every message after them (tool calls and tool results
 * included), so two trajectories that end on the same words still differ where they acted. The
 * "text" form (`--text`) writes the prompt as text and each side's text under the completion rule.
 * A pair of plain-text rollouts is text in both forms; a plain-text side paired with a chat
 * transcript is one assistant message (TRL needs both sides in one form).
 */
import { rolloutReward, type AnalysisSettings } from "../analysis/analyze.ts";
import type { Annotations } from "../analysis/annotations.ts";
import { annotationsResolve } from "../analysis/resolve.ts";
import { rolloutText } from "../analysis/text.ts";
import type { GroupId, RolloutGroup, RolloutId } from "../types.ts";
import {
  exportConversation,
  exportIsChat,
  exportPromptText,
  type ExportMessage,
  type TranscriptForm,
} from "./text.ts";

export interface DpoExportRow {
  readonly group_id: GroupId;
  /** The chosen rollout's prompt: its messages (conversational form) or its text. */
  readonly prompt: string | readonly ExportMessage[];
  /**
   * Each side's messages after the prompt (conversational form), or its text as judges read it
   * (the text form: the settings' completion rule).
   */
  readonly chosen: string | readonly ExportMessage[];
  readonly rejected: string | readonly ExportMessage[];
  readonly chosen_id: RolloutId;
  readonly rejected_id: RolloutId;
  /** "tier": the ranking orders them; "hack": the rejected one is a hack. */
  readonly rule: "tier" | "hack";
  /** 0-based tier of the chosen rollout after hacks and failures left the ranking. */
  readonly chosen_tier: number | null;
  /** The rejected rollout's tier; null for a hack. */
  readonly rejected_tier: number | null;
}

/** Every preference pair of the annotated groups (see the module comment). */
export function exportDpo(
  groups: readonly RolloutGroup[],
  annotations: Annotations,
  settings: AnalysisSettings,
  transcripts: TranscriptForm = "messages",
): DpoExportRow[] {
  const resolved = annotationsResolve(groups, annotations);
  const rows: DpoExportRow[] = [];
  for (const group of groups) {
    const a = resolved.byGroup.get(group.id);
    if (a === undefined) continue;
    const passed = group.rollouts.map(
      (r) => rolloutReward(r, settings.rewardWeights) >= settings.passThreshold,
    );
    const hacks = new Set(a.hacks);
    const tiers = a.ranking
      .map((tier) => tier.filter((i) => passed[i] && !hacks.has(i)))
      .filter((tier) => tier.length > 0);
    const tierOf = new Map<number, number>();
    tiers.forEach((tier, t) => tier.forEach((i) => tierOf.set(i, t)));
    const pair = (chosen: number, rejected: number, rule: "tier" | "hack"): DpoExportRow => {
      const c = group.rollouts[chosen]!;
      const r = group.rollouts[rejected]!;
      const conversational = transcripts === "messages" && (exportIsChat(c) || exportIsChat(r));
      const chosenConversation = conversational ? exportConversation(c) : null;
      return {
        group_id: group.id,
        prompt: chosenConversation?.prompt ?? exportPromptText(c.prompt),
        chosen: chosenConversation?.completion ?? rolloutText(c, settings.completionRule),
        rejected: conversational
          ? exportConversation(r).completion
          : rolloutText(r, settings.completionRule),
        chosen_id: c.id,
        rejected_id: r.id,
        rule,
        chosen_tier: tierOf.get(chosen) ?? null,
        rejected_tier: tierOf.get(rejected) ?? null,
      };
    };
    for (let better = 0; better < tiers.length; better++)
      for (let worse = better + 1; worse < tiers.length; worse++)
        for (const c of tiers[better]!)
          for (const r of tiers[worse]!) rows.push(pair(c, r, "tier"));
    const honest = passed.flatMap((p, i) => (p && !hacks.has(i) ? [i] : []));
    for (const h of a.hacks) for (const c of honest) rows.push(pair(c, h, "hack"));
  }
  return rows;
}
