/**
 * What team mode (`view RUN --db URL`, issue 18) changes on the page, read from the store: who the
 * page is (the dataset's listing says, `listing.team`), what they may see of a group (core's
 * `teamVisibility` over their state: their role, the blind groups, their submissions) and of the
 * dataset as a whole, and where a group of their queue stands. Pure functions of the store's state,
 * so the hooks (teamHooks.ts), the slice and the tests share one rule.
 *
 * Blind mode fails closed: while an annotator's state has not been read yet, every group counts as
 * blind and unsubmitted (nothing of a reward shows before the page knows it may).
 */
import {
  groupAnnotationIsEmpty,
  teamVisibility,
  type Annotations,
  type GroupId,
  type TeamVisibility,
} from "../../core/index.ts";
import type { TeamStateReply, ViewTeam } from "../../io/view/teamApi.ts";
import type { ViewSession } from "../remote/viewSession.ts";

/** The part of the store's state these read (the load and the team slice's state). */
export interface TeamReadable {
  readonly load:
    { readonly status: "ready"; readonly remote?: TeamRemote } | { readonly status: string };
  readonly teamState: TeamStateReply | null;
}

/** What of a remote dataset team mode needs: the session and the listing's `team`. */
interface TeamRemote {
  readonly session: ViewSession;
  readonly listing: { readonly team?: ViewTeam };
}

/** Team mode's page: its session and who it is; null in the file mode or without a served run. */
export interface TeamMode {
  readonly session: ViewSession;
  readonly team: ViewTeam;
}

/** The dataset's team mode, or null (the file mode, a file opened by hand, nothing loaded). */
export function selectTeamMode(state: TeamReadable): TeamMode | null {
  const load = state.load;
  if (load.status !== "ready" || !("remote" in load) || load.remote === undefined) return null;
  const team = load.remote.listing.team;
  return team === undefined ? null : { session: load.remote.session, team };
}

/** A stable key of the team mode (origin, token, person, role, dataset); null out of team mode. */
export function teamModeKey(mode: TeamMode | null): string | null {
  return mode === null
    ? null
    : JSON.stringify([
        mode.session.origin,
        mode.session.token,
        mode.team.user,
        mode.team.role,
        mode.team.dataset,
      ]);
}

/** The blind groups as a set, built once per state read from the server. */
const blindSets = new WeakMap<TeamStateReply, ReadonlySet<GroupId>>();
function blindSet(state: TeamStateReply): ReadonlySet<GroupId> {
  let set = blindSets.get(state);
  if (set === undefined) {
    set = new Set(state.blind);
    blindSets.set(state, set);
  }
  return set;
}

/** How a group stands for the viewer: the inputs of core's `teamVisibility`. */
export interface TeamGroupContext {
  readonly role: "annotator" | "lead";
  readonly blind: boolean;
  readonly submitted: boolean;
}

/**
 * The inputs of `teamVisibility` for one group, or null out of team mode (everything shows). An
 * annotator whose state is not read yet sees the group as blind and unsubmitted.
 */
export function selectTeamGroupContext(
  state: TeamReadable,
  groupId: GroupId,
): TeamGroupContext | null {
  const mode = selectTeamMode(state);
  if (mode === null) return null;
  const role = mode.team.role;
  if (role === "lead") return { role, blind: false, submitted: false };
  const s = state.teamState;
  if (s === null) return { role, blind: true, submitted: false };
  return {
    role,
    blind: blindSet(s).has(groupId),
    submitted: Object.hasOwn(s.submitted, groupId),
  };
}

/** What the viewer may see of a group (core's rule), or null out of team mode. */
export function selectTeamVisibility(state: TeamReadable, groupId: GroupId): TeamVisibility | null {
  const context = selectTeamGroupContext(state, groupId);
  return context === null ? null : teamVisibility(context);
}

/** The group's rewards (and everything computed from them) may be shown. */
export function selectRewardsShown(state: TeamReadable, groupId: GroupId): boolean {
  return selectTeamVisibility(state, groupId)?.rewards ?? true;
}

/** The group's judge verdicts (LLM judge runs, the heuristic grader) may be shown. */
export function selectJudgeShown(state: TeamReadable, groupId: GroupId): boolean {
  return selectTeamVisibility(state, groupId)?.judgeVerdicts ?? true;
}

/**
 * Blind groups the viewer has not submitted: what keeps the dataset-wide reward views (the
 * overview, the run's health, the judge, calibration, verifiers, exports, ...) hidden. Those views
 * add up every group's rewards or verdicts, so while any group's are hidden from the viewer, any
 * of them could give it away. 0 for a lead and out of team mode; null for an annotator whose
 * state is not read yet (counted as "some").
 */
export function selectBlindPending(state: TeamReadable): number | null {
  const mode = selectTeamMode(state);
  if (mode === null || mode.team.role === "lead") return 0;
  const s = state.teamState;
  if (s === null) return null;
  let pending = 0;
  for (const groupId of blindSet(s)) if (!Object.hasOwn(s.submitted, groupId)) pending++;
  return pending;
}

/** The dataset-wide reward and verdict views may be shown (see `selectBlindPending`). */
export function selectDatasetRewardsShown(state: TeamReadable): boolean {
  return selectBlindPending(state) === 0;
}

/** The note a hidden dataset-wide view shows in its place. */
export function datasetHiddenNote(pending: number | null): string {
  const count =
    pending === null
      ? "your blind groups are being read"
      : `${pending} group${pending === 1 ? "" : "s"} of a blind queue ${pending === 1 ? "is" : "are"} not submitted by you yet`;
  return `Blind mode: this view adds up rewards or judge verdicts over the whole dataset, and ${count}. It is hidden until every blind group is submitted (a lead sees it).`;
}

/** Where a group of the viewer's queue stands. */
export type TeamItemStatus = "todo" | "draft" | "submitted";

/**
 * A queue item's status: submitted (the server says so), a draft (the page holds a non-empty
 * annotation of it: the viewer's own, as synced), or still to do.
 */
export function teamItemStatus(
  groupId: GroupId,
  state: TeamStateReply | null,
  annotations: Annotations,
): TeamItemStatus {
  if (state !== null && Object.hasOwn(state.submitted, groupId)) return "submitted";
  const annotation = Object.hasOwn(annotations.groups, groupId)
    ? annotations.groups[groupId]
    : undefined;
  return annotation !== undefined && !groupAnnotationIsEmpty(annotation) ? "draft" : "todo";
}
