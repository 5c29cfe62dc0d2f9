/**
 * The lead's queue form as a plan (issue 18): the form's fields (as typed) give a filter and a
 * selection, core's `teamCandidates` and `teamQueue` give the queue, core's `teamAssign` hands it
 * out with the overlap share, and the plan is the `QueueSpec` the page posts, with the preview
 * line the form shows before anything is sent ("4 groups; 2 to two people; ann 3, bob 3"). A
 * field that does not read as a number, or a rule of core's that refuses the queue, is the plan's
 * problem, in words, and nothing is posted.
 */
import {
  teamAssign,
  teamAssignProblem,
  teamCandidates,
  teamQueue,
  teamSelectionProblem,
  type TeamAssignment,
  type TeamFilter,
  type TeamGroupFacts,
  type TeamQueueSelection,
} from "../../../core/index.ts";
import type { TeamQueueSpecBody, TeamUserReply } from "../../../io/view/teamApi.ts";

/** The form's fields, as the lead typed them. */
export interface QueueForm {
  readonly name: string;
  readonly mixedOnly: boolean;
  readonly zeroStdOnly: boolean;
  /** Training steps, both ends included; "" leaves that end open. */
  readonly stepFrom: string;
  readonly stepTo: string;
  readonly selection: "all" | "sample";
  readonly sampleSize: string;
  /** Seeds the sample and the assignment. */
  readonly seed: string;
  /** Share of the queue's groups given to two annotators, in percent. */
  readonly overlapPercent: string;
  readonly blind: boolean;
  /** The chosen annotators, in the order the form lists them. */
  readonly annotators: readonly string[];
}

export const QUEUE_FORM_DEFAULT: QueueForm = {
  name: "",
  mixedOnly: false,
  zeroStdOnly: false,
  stepFrom: "",
  stepTo: "",
  selection: "all",
  sampleSize: "20",
  seed: "0",
  overlapPercent: "20",
  blind: true,
  annotators: [],
};

export type QueuePlan =
  | {
      readonly ok: true;
      readonly spec: TeamQueueSpecBody;
      readonly assignment: TeamAssignment;
      readonly preview: string;
    }
  | { readonly ok: false; readonly problem: string };

/** The people a queue can be given to: annotators whose token is not revoked, in list order. */
export function assignableAnnotators(
  users: readonly Pick<TeamUserReply, "name" | "role" | "revokedAt">[],
): string[] {
  return users.filter((u) => u.role === "annotator" && u.revokedAt === null).map((u) => u.name);
}

/** A whole number typed in a field, or null ("" and anything else). */
function wholeNumber(text: string): number | null {
  const t = text.trim();
  return /^-?\d+$/.test(t) ? Number(t) : null;
}

/** The step range of the form (null: every step), or the problem with it. */
function stepRange(
  form: QueueForm,
  facts: readonly TeamGroupFacts[],
): { steps: TeamFilter["steps"] } | { problem: string } {
  const fromText = form.stepFrom.trim();
  const toText = form.stepTo.trim();
  if (fromText === "" && toText === "") return { steps: null };
  const from = fromText === "" ? null : wholeNumber(fromText);
  const to = toText === "" ? null : wholeNumber(toText);
  if (fromText !== "" && from === null)
    return { problem: `step "${fromText}" is not a whole number` };
  if (toText !== "" && to === null) return { problem: `step "${toText}" is not a whole number` };
  // An open end takes the run's first or last step, so the queue's filter names real numbers.
  const steps = facts.flatMap((f) => (f.step === null ? [] : [f.step]));
  if (steps.length === 0) return { problem: "the run's groups have no training steps" };
  const range = { from: from ?? Math.min(...steps), to: to ?? Math.max(...steps) };
  if (range.from > range.to) return { problem: `steps ${range.from} to ${range.to}: none` };
  return { steps: range };
}

/** The form's filter and selection, or the first problem with a field. */
export function queueChoices(
  form: QueueForm,
  facts: readonly TeamGroupFacts[],
): { filter: TeamFilter; selection: TeamQueueSelection; seed: number } | { problem: string } {
  const range = stepRange(form, facts);
  if ("problem" in range) return range;
  const seed = wholeNumber(form.seed);
  if (seed === null || seed < 0)
    return { problem: `the seed must be a whole number of at least 0` };
  const filter: TeamFilter = {
    mixedOnly: form.mixedOnly,
    zeroStdOnly: form.zeroStdOnly,
    steps: range.steps,
  };
  if (form.selection === "all") return { filter, selection: { kind: "all" }, seed };
  const size = wholeNumber(form.sampleSize);
  const selection: TeamQueueSelection = { kind: "sample", size: size ?? NaN, seed };
  const problem = teamSelectionProblem(selection);
  if (size === null || problem !== null)
    return { problem: problem ?? `the sample's size must be a whole number` };
  return { filter, selection, seed };
}

/** The overlap share typed in percent, as core's share in [0, 1], or null. */
export function overlapShare(percent: string): number | null {
  const t = percent.trim();
  if (!/^\d+(\.\d+)?$/.test(t)) return null;
  const value = Number(t);
  return value <= 100 ? value / 100 : null;
}

/** "4 groups; 2 to two people; ann 3, bob 3". */
export function queuePreview(assignment: TeamAssignment): string {
  const groups = assignment.queue.length;
  const people = assignment.annotators
    .map((a) => `${a} ${assignment.byUser[a]?.length ?? 0}`)
    .join(", ");
  return `${groups} ${groups === 1 ? "group" : "groups"}; ${assignment.overlap.length} to two people; ${people}`;
}

/** The queue the form describes, built by core's rules, or why it cannot be made. */
export function planQueue(
  form: QueueForm,
  facts: readonly TeamGroupFacts[],
  taken: readonly string[],
): QueuePlan {
  const name = form.name.trim();
  if (name === "") return { ok: false, problem: "Name the queue." };
  if (taken.includes(name)) return { ok: false, problem: `A queue named "${name}" exists.` };
  const choices = queueChoices(form, facts);
  if ("problem" in choices)
    return { ok: false, problem: `Cannot draw the queue: ${choices.problem}.` };
  const overlap = overlapShare(form.overlapPercent);
  if (overlap === null)
    return { ok: false, problem: "The overlap is a share in percent, from 0 to 100." };
  const queue = teamQueue(teamCandidates(facts, choices.filter), choices.selection);
  if (queue.length === 0) return { ok: false, problem: "The filter keeps no group." };
  const options = { annotators: form.annotators, overlap, seed: choices.seed };
  const problem = teamAssignProblem(queue, options);
  if (problem !== null) return { ok: false, problem: `Cannot assign the queue: ${problem}.` };
  const assignment = teamAssign(queue, options);
  const spec: TeamQueueSpecBody = {
    name,
    blind: form.blind,
    overlap,
    seed: choices.seed,
    filter: { ...choices.filter, selection: choices.selection },
    groups: [...assignment.queue],
    assignments: assignment.queue.flatMap((groupId) =>
      (assignment.byGroup[groupId] ?? []).map((user) => ({ groupId, user })),
    ),
  };
  return { ok: true, spec, assignment, preview: queuePreview(assignment) };
}
