/**
 * View model of the ranking panel (annotation issue): a group's human ranking as best-first tiers,
 * the passes not ranked yet, and what each keystroke on a focused item does. Every edit is one of
 * core's rankingEdit operations; this module only decides which, and what to announce. Pure;
 * RankingPanel.tsx renders it.
 */
import {
  rankingMove,
  rankingPlace,
  rankingRemove,
  rankingSplit,
  rankingTieWithAbove,
  type GroupAnalysis,
  type GroupAnnotation,
  type HumanLabel,
  type Ranking,
  type RolloutGroup,
} from "../../../core/index.ts";
import { fixed3, plainNumber } from "../../components/numbers.ts";

export interface RankItem {
  readonly id: string;
  /** Index in the group (file order), or -1 for an id the group does not have. */
  readonly index: number;
  /** Reward as shown (three decimals) and plain. */
  readonly reward: string;
  readonly passed: boolean;
  /** GAR factor f and GAR advantage from the human ranking; "" when the group has none. */
  readonly factor: string;
  readonly garAdvantage: string;
  readonly garAdvantagePlain: string;
  readonly hack: boolean;
  readonly label: HumanLabel | null;
  /** Why this ranked item does not count ("" when it does). */
  readonly problem: string;
}

export interface RankTier {
  readonly index: number;
  readonly items: readonly RankItem[];
}

export interface RankingView {
  readonly tiers: readonly RankTier[];
  /** Passes not in the ranking, in file order. */
  readonly unranked: readonly RankItem[];
  /**
   * "none": nothing ranked; "applied": GAR values come from the ranking; "incomplete": passes
   * missing; "blind": blind mode (team mode) hides which rollouts pass, so every one is ranked.
   */
  readonly status: "none" | "applied" | "incomplete" | "blind";
  readonly statusText: string;
  /** Every item id in display order (tiers, then unranked): the arrow keys walk it. */
  readonly order: readonly string[];
}

/**
 * The ranking's view. `blind` (team mode's blind queue, before the group is submitted): which
 * rollouts pass is the reward's verdict, so it is not shown: every rollout may be ranked, without
 * its reward, GAR numbers or a "fails" note; once submitted, GAR uses the passes of the ranking.
 */
export function prepareRanking(
  group: RolloutGroup,
  analysis: GroupAnalysis,
  annotation: GroupAnnotation,
  blind = false,
): RankingView {
  const byId = new Map(group.rollouts.map((r, i) => [r.id, i]));
  const item = (id: string): RankItem => {
    const index = byId.get(id) ?? -1;
    const s = index === -1 ? undefined : analysis.rollouts[index];
    if (s === undefined)
      return {
        id,
        index,
        reward: "",
        passed: false,
        factor: "",
        garAdvantage: "",
        garAdvantagePlain: "",
        hack: false,
        label: null,
        problem: "not in this group",
      };
    if (blind)
      return {
        id,
        index,
        reward: "",
        passed: true,
        factor: "",
        garAdvantage: "",
        garAdvantagePlain: "",
        hack: s.hack && analysis.garSource === "human",
        label: s.humanLabel,
        problem: "",
      };
    return {
      id,
      index,
      reward: fixed3(s.reward),
      passed: s.passed,
      factor: s.factor === null ? "" : fixed3(s.factor),
      garAdvantage: s.garAdvantage === null ? "" : fixed3(s.garAdvantage),
      garAdvantagePlain: plainNumber(s.garAdvantage),
      // A judge's hack flags are not the human's marks.
      hack: s.hack && analysis.garSource === "human",
      label: s.humanLabel,
      problem: s.passed ? "" : "fails: ignored in the ranking",
    };
  };
  const ranked = new Set(annotation.ranking.flat());
  const tiers = annotation.ranking.map((t, index) => ({ index, items: t.map(item) }));
  const unranked = group.rollouts
    .filter((r, i) => (blind || analysis.rollouts[i]!.passed) && !ranked.has(r.id))
    .map((r) => item(r.id));
  if (blind)
    return {
      tiers,
      unranked,
      status: "blind",
      statusText:
        unranked.length === 0
          ? "Every rollout is ranked. Rewards, passes and GAR values show once you submit (blind)."
          : `Blind: rank the ${group.rollouts.length} rollouts, best first (${unranked.length} to rank). Which pass shows once you submit; GAR then uses the passes.`,
      order: [...tiers.flatMap((t) => t.items.map((i) => i.id)), ...unranked.map((i) => i.id)],
    };
  const status =
    analysis.gar.kind === "applied"
      ? "applied"
      : analysis.gar.kind === "incomplete"
        ? "incomplete"
        : "none";
  const passes = analysis.passes;
  const statusText =
    analysis.garSource !== null && analysis.garSource !== "human"
      ? `GAR values come from the ${analysis.garSource === "judge" ? "LLM judge's" : "heuristic grader's"} ranking (the run picked as the GAR source in the LLM judge panel) until you rank the passes.`
      : status === "applied"
        ? "GAR values come from this ranking (human)."
        : status === "incomplete"
          ? `${unranked.length} of ${passes} passes still to rank: no GAR values until every pass is ranked.`
          : passes === 0
            ? "No rollout passes: nothing to rank."
            : `Rank the ${passes} passes, best first.`;
  return {
    tiers,
    unranked,
    status,
    statusText,
    order: [...tiers.flatMap((t) => t.items.map((i) => i.id)), ...unranked.map((i) => i.id)],
  };
}

/** The unranked passes appended in file order, each as its own tier ("rank all in file order"). */
export function rankingAppendAll(ranking: Ranking, ids: readonly string[]): string[][] {
  const seen = new Set(ranking.flat());
  return [...ranking.map((t) => [...t]), ...ids.filter((id) => !seen.has(id)).map((id) => [id])];
}

export type RankingAction =
  | { readonly kind: "move"; readonly direction: -1 | 1 }
  | { readonly kind: "tie" }
  | { readonly kind: "split" }
  | { readonly kind: "remove" }
  | { readonly kind: "add" }
  | { readonly kind: "focus"; readonly direction: -1 | 1 };

export interface KeyLike {
  readonly key: string;
  readonly altKey: boolean;
  readonly ctrlKey: boolean;
  readonly metaKey: boolean;
}

/**
 * What a key pressed on a focused ranking item does: Alt+ArrowUp/Down move it, t ties it
 * with the tier above, s splits it out of its tie, x or Delete unranks it, a or Enter ranks an
 * unranked pass last, and ArrowUp/Down move the focus. Ctrl and Meta chords are left alone.
 */
export function rankingKeyAction(e: KeyLike): RankingAction | null {
  if (e.ctrlKey || e.metaKey) return null;
  if (e.altKey) {
    if (e.key === "ArrowUp") return { kind: "move", direction: -1 };
    if (e.key === "ArrowDown") return { kind: "move", direction: 1 };
    return null;
  }
  switch (e.key) {
    case "t":
      return { kind: "tie" };
    case "s":
      return { kind: "split" };
    case "x":
    case "Delete":
      return { kind: "remove" };
    case "a":
    case "Enter":
      return { kind: "add" };
    case "ArrowUp":
      return { kind: "focus", direction: -1 };
    case "ArrowDown":
      return { kind: "focus", direction: 1 };
    default:
      return null;
  }
}

/** The ranking after an edit action on `id` (core's operations; unchanged when it cannot apply). */
export function rankingApply(
  ranking: Ranking,
  id: string,
  action: Exclude<RankingAction, { kind: "focus" }>,
): Ranking {
  const isRanked = ranking.some((t) => t.includes(id));
  switch (action.kind) {
    case "move":
      return isRanked ? rankingMove(ranking, id, action.direction) : ranking;
    case "tie":
      return isRanked ? rankingTieWithAbove(ranking, id) : ranking;
    case "split":
      return rankingSplit(ranking, id);
    case "remove":
      return isRanked ? rankingRemove(ranking, id) : ranking;
    case "add":
      return isRanked ? ranking : rankingPlace(ranking, id, ranking.length, "before");
  }
}

/** Where an id sits, for the live region: "r/2: tier 1 of 3, tied with r/5". */
export function rankingDescribe(ranking: Ranking, id: string): string {
  const tier = ranking.findIndex((t) => t.includes(id));
  if (tier === -1) return `${id}: unranked`;
  const others = ranking[tier]!.filter((x) => x !== id);
  const tie = others.length === 0 ? "" : `, tied with ${others.join(", ")}`;
  return `${id}: tier ${tier + 1} of ${ranking.length}${tie}`;
}

/** Where an id sits in a ranking: its tier and its place in the tier (0-based), or null. */
export function rankingPlaceOf(
  ranking: Ranking,
  id: string,
): { readonly tier: number; readonly at: number } | null {
  for (let tier = 0; tier < ranking.length; tier++) {
    const at = ranking[tier]!.indexOf(id);
    if (at !== -1) return { tier, at };
  }
  return null;
}

/** The id to focus after the focus moves by `direction` in display order (clamped). */
export function rankingFocusNext(
  order: readonly string[],
  id: string,
  direction: -1 | 1,
): string | null {
  const at = order.indexOf(id);
  if (at === -1) return order[0] ?? null;
  return order[Math.max(0, Math.min(order.length - 1, at + direction))] ?? null;
}
