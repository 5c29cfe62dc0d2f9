/**
 * What a person may see of a group (issue 18), decided once here so the server (which leaves out
 * what is hidden from its answers) and the studio (which says what is hidden and why) apply the
 * same rule.
 *
 * - A lead sees everything: rewards, judge verdicts and everyone's annotations (and the gold).
 * - An annotator never sees another person's annotations or the gold, blind or not, before or
 *   after submitting: the people and security rules ("an annotator reads and writes only
 *   their own annotations"; no endpoint returns another user's annotations to them).
 * - In a blind queue, an annotator sees no reward and no judge verdict of a group until they
 *   submit it; from then on they see both. Outside a blind queue they always see both.
 *
 * Their own annotation is always theirs to see and edit.
 */
import type { TeamRole } from "./types.ts";

/** Why a person sees what they see of a group. */
export type TeamVisibilityReason = "lead" | "open queue" | "submitted" | "blind until submitted";

export interface TeamVisibility {
  /**
   * Rewards and everything computed from them: reward columns and components, pass or fail,
   * advantages, the spread check, the mixed and zero-std flags and filters, the overview's
   * numbers, verifiers' scores.
   */
  readonly rewards: boolean;
  /** Graders' verdicts: LLM judge runs (rankings, hack flags, scores) and the heuristic grader. */
  readonly judgeVerdicts: boolean;
  /** Other people's labels, rankings, hack marks and notes, the agreement figures and the gold. */
  readonly othersAnnotations: boolean;
  readonly reason: TeamVisibilityReason;
}

export interface TeamViewContext {
  readonly role: TeamRole;
  /**
   * The group is in a blind queue. The server should say so for any blind queue holding the group,
   * not only the viewer's: an annotator not given the group today may be given it tomorrow.
   */
  readonly blind: boolean;
  /** The viewer has submitted their annotation of the group. */
  readonly submitted: boolean;
}

/** What the viewer may see of the group (see the module comment). */
export function teamVisibility(context: TeamViewContext): TeamVisibility {
  if (context.role === "lead")
    return { rewards: true, judgeVerdicts: true, othersAnnotations: true, reason: "lead" };
  const reason: TeamVisibilityReason = !context.blind
    ? "open queue"
    : context.submitted
      ? "submitted"
      : "blind until submitted";
  const shown = reason !== "blind until submitted";
  return { rewards: shown, judgeVerdicts: shown, othersAnnotations: false, reason };
}

/**
 * The line the studio shows about what is hidden, or null when nothing of the group's own data is
 * (other people's annotations are never an annotator's to see, so they need no line per group).
 */
export function teamVisibilityNote(visibility: TeamVisibility): string | null {
  return visibility.reason === "blind until submitted"
    ? "Blind: rewards and judge verdicts are hidden until you submit this group."
    : null;
}
