/**
 * From per-record drafts to groups: ids, group order, and the duplicate checks every format shares.
 */
import type { ChatMessage, Rollout, RolloutGroup, SourceRef } from "../../core/index.ts";
import type { ParseIssue, Result } from "../issues.ts";

/** A rollout before grouping: its id may still be defaulted from its place in the group. */
export interface RolloutDraft {
  readonly groupId: string;
  readonly id: string | null;
  readonly prompt: string | readonly ChatMessage[] | null;
  readonly messages: readonly ChatMessage[];
  readonly completion: string | null;
  readonly reward: number | null;
  readonly rewards: Readonly<Record<string, number | null>>;
  readonly answer: string | null;
  readonly testsPassed: readonly string[] | null;
  readonly meta: Readonly<Record<string, unknown>>;
  readonly source: SourceRef;
  /** Sort key within the group (tau-bench's trial, Inspect's epoch); ties keep input order. */
  readonly order: number;
}

export type RecordOutcome = Result<RolloutDraft>;

/**
 * The one id no group or rollout may have: annotations, the store and IndexedDB key objects by
 * group and rollout id, and a "__proto__" key would set the object's prototype instead of adding
 * an entry (the annotations file's parser drops it, a plain assignment replaces the prototype).
 */
export const RESERVED_ID = "__proto__";
export const RESERVED_MESSAGE =
  'cannot be "__proto__": groups and rollouts are stored under their ids, and this one would be taken for the object\'s prototype';

function duplicateIssue(d: RolloutDraft, id: string, first: SourceRef): ParseIssue {
  const firstAt = first.line > 0 ? `line ${first.line}` : (first.member ?? "an earlier record");
  return {
    ...d.source,
    field: "id",
    message: `duplicate rollout id "${id}" (first at ${firstAt}); this row is skipped`,
  };
}

/**
 * Group drafts by group id in order of first appearance, order each group by `order` (stably),
 * default missing ids to `<group>/<index>`, and reject duplicate ids with an issue.
 *
 * A record's own id belongs to the first record in input order that gives it, whatever its group:
 * the large-file path decides the same way while it indexes (stream/indexedFile.ts). (Deciding in
 * group order called line 2 a duplicate "first at line 3" when line 3's group came first; found by
 * fuzzing the two paths against each other.) Defaulted ids come after, per group. One case still
 * differs: the large-file path defaults an id as its row arrives, so when a later row gives that
 * same id as its own, the later row is the duplicate there and the defaulted row is here.
 */
export function groupDrafts(drafts: readonly RolloutDraft[]): {
  groups: RolloutGroup[];
  issues: ParseIssue[];
} {
  const seen = new Map<string, SourceRef>();
  const issues: ParseIssue[] = [];
  const byGroup = new Map<string, RolloutDraft[]>();
  for (const d of drafts) {
    if (d.groupId === RESERVED_ID || d.id === RESERVED_ID) {
      issues.push({
        ...d.source,
        field: d.id === RESERVED_ID ? "id" : "group",
        message: RESERVED_MESSAGE,
      });
      continue;
    }
    if (d.id !== null) {
      const first = seen.get(d.id);
      if (first !== undefined) {
        issues.push(duplicateIssue(d, d.id, first));
        continue;
      }
      seen.set(d.id, d.source);
    }
    const list = byGroup.get(d.groupId) ?? [];
    list.push(d);
    byGroup.set(d.groupId, list);
  }
  // Defaulted ids (`<group>/<integer>`) never equal one another (the integer holds no "/"), so
  // with no record's own id there is nothing to check them against: a verl or TRL file skips a
  // Map entry per row.
  const ownIds = seen.size > 0;
  const groups: RolloutGroup[] = [];
  for (const [groupId, list] of byGroup) {
    let sorted = true;
    for (let i = 1; i < list.length && sorted; i++) sorted = list[i - 1]!.order <= list[i]!.order;
    const ordered = sorted
      ? list
      : list
          .map((d, i) => ({ d, i }))
          .sort((a, b) => a.d.order - b.d.order || a.i - b.i)
          .map(({ d }) => d);
    const rollouts: Rollout[] = [];
    for (const d of ordered) {
      const id = d.id ?? `${groupId}/${rollouts.length}`;
      if (d.id === null && ownIds) {
        const first = seen.get(id);
        if (first !== undefined) {
          issues.push(duplicateIssue(d, id, first));
          continue;
        }
        seen.set(id, d.source);
      }
      // The rows of a group usually repeat one prompt, parsed into a string of its own per row:
      // keep one copy per group (a verl step file's prompts were a fifth of a run's heap).
      const before = rollouts[rollouts.length - 1]?.prompt;
      const prompt =
        typeof d.prompt === "string" && typeof before === "string" && before === d.prompt
          ? before
          : d.prompt;
      rollouts.push({
        id,
        groupId,
        index: rollouts.length,
        prompt,
        messages: d.messages,
        completion: d.completion,
        reward: d.reward,
        rewards: d.rewards,
        answer: d.answer,
        testsPassed: d.testsPassed,
        meta: d.meta,
        source: d.source,
      });
    }
    if (rollouts.length > 0) groups.push({ id: groupId, rollouts });
  }
  return { groups, issues };
}
