/**
 * Handing a queue out to annotators (issue 18) with an overlap share: that share of the groups goes
 * to two people (their agreement is measured there), the rest to one.
 *
 * The rules, each checked by a property test:
 * - Overlap groups: `teamOverlapCount` = share x groups rounded to the nearest whole number, halves
 *   up (0.25 x 10 = 2.5 gives 3). They are the groups with the smallest seeded hash of their id.
 * - Overlap pairs: every pair of annotators gets the same number of overlap groups, give or take
 *   one (whole rounds over every pair first, in a seeded order, so the first m(m-1)/2 overlap groups
 *   of the queue give every pair some agreement; the remainder goes to pairs chosen so that each
 *   person's share of it differs by at most one, by Havel-Hakimi on a near-regular degree sequence).
 * - Loads: each annotator's number of groups differs from any other's by at most one. The overlap
 *   loads already do; each single group then goes, in queue order, to a least-loaded annotator
 *   (ties by a seeded hash of group and name), which keeps the spread within one.
 * - No one gets a group twice, and the same queue, annotators, share and seed give the same
 *   assignment (no `Math.random`: `core/util/random.ts`).
 */
import type { GroupId } from "../types.ts";
import { randomHash01 } from "../util/random.ts";
import type { TeamAssignment, TeamUserName } from "./types.ts";

export interface TeamAssignOptions {
  /** The annotators, in the order lists name them; distinct, non-empty names. */
  readonly annotators: readonly TeamUserName[];
  /** Share of the queue's groups that go to two annotators, in [0, 1] (0.2: one group in five). */
  readonly overlap: number;
  /** A whole number >= 0: the same seed gives the same assignment. */
  readonly seed: number;
}

/**
 * The number of overlap groups: `share x groups` rounded to the nearest whole number, halves up
 * (a product within 1e-9 below a half counts as the half, so float noise cannot move it).
 */
export function teamOverlapCount(groups: number, share: number): number {
  return Math.min(groups, Math.floor(share * groups + 0.5 + 1e-9));
}

/** Why a queue cannot be assigned so, or null. */
export function teamAssignProblem(
  queue: readonly GroupId[],
  options: TeamAssignOptions,
): string | null {
  const { annotators, overlap, seed } = options;
  if (annotators.length === 0) return "a queue needs at least one annotator";
  if (annotators.some((a) => a.trim() === "")) return "an annotator's name is empty";
  const repeated = firstRepeat(annotators);
  if (repeated !== null) return `annotator "${repeated}" is named twice`;
  const twice = firstRepeat(queue);
  if (twice !== null) return `group "${twice}" is in the queue twice`;
  if (!(overlap >= 0 && overlap <= 1))
    return `the overlap share must be between 0 and 1, got ${overlap}`;
  if (!Number.isInteger(seed) || seed < 0)
    return `the seed must be a whole number of at least 0, got ${seed}`;
  if (annotators.length < 2 && teamOverlapCount(queue.length, overlap) > 0)
    return "an overlap needs at least two annotators";
  return null;
}

function firstRepeat(values: readonly string[]): string | null {
  const seen = new Set<string>();
  for (const v of values) {
    if (seen.has(v)) return v;
    seen.add(v);
  }
  return null;
}

/**
 * Assign a queue (see the module comment for the rules).
 *
 * @throws RangeError when `teamAssignProblem` names a problem
 */
export function teamAssign(queue: readonly GroupId[], options: TeamAssignOptions): TeamAssignment {
  const problem = teamAssignProblem(queue, options);
  if (problem !== null) throw new RangeError(problem);
  const { annotators, seed } = options;
  const count = teamOverlapCount(queue.length, options.overlap);
  const overlapIds = new Set(
    queue
      .map((id, index) => ({ id, index, hash: randomHash01(id, seed) }))
      .sort((a, b) => a.hash - b.hash || a.index - b.index)
      .slice(0, count)
      .map((g) => g.id),
  );
  const pairs = overlapPairs(annotators, count, seed);
  const loads = annotators.map(() => 0);
  const byGroup = new Map<GroupId, TeamUserName[]>();
  let next = 0;
  for (const id of queue) {
    if (!overlapIds.has(id)) continue;
    const [i, j] = pairs[next++]!;
    loads[i]!++;
    loads[j]!++;
    byGroup.set(id, [annotators[i]!, annotators[j]!]);
  }
  for (const id of queue) {
    if (overlapIds.has(id)) continue;
    const least = Math.min(...loads);
    let best = -1;
    let bestHash = Infinity;
    annotators.forEach((name, i) => {
      if (loads[i] !== least) return;
      const hash = randomHash01(`${id}\u0000${name}`, seed);
      if (hash < bestHash) [best, bestHash] = [i, hash];
    });
    loads[best]!++;
    byGroup.set(id, [annotators[best]!]);
  }
  return teamAssignmentOf(queue, Object.fromEntries(byGroup), annotators);
}

/**
 * The whole assignment from what a store keeps: the queue and each group's annotators. `byUser`
 * lists every annotator given (none: the ones `byGroup` names, in order of appearance) and anyone
 * else `byGroup` names after them; a group of `byGroup` outside the queue is ignored, a group of
 * the queue missing from it has no annotator, and a repeat (of a group in the queue, of a name in
 * a group's list) counts once.
 */
export function teamAssignmentOf(
  queue: readonly GroupId[],
  byGroup: Readonly<Record<GroupId, readonly TeamUserName[]>>,
  annotators: readonly TeamUserName[] = [],
): TeamAssignment {
  const byUser = new Map<TeamUserName, GroupId[]>(annotators.map((a) => [a, []]));
  const groups = new Map<GroupId, readonly TeamUserName[]>();
  for (const id of queue) {
    if (groups.has(id)) continue;
    const users = [...new Set(Object.hasOwn(byGroup, id) ? byGroup[id]! : [])];
    groups.set(id, users);
    for (const user of users) {
      let list = byUser.get(user);
      if (list === undefined) byUser.set(user, (list = []));
      list.push(id);
    }
  }
  return {
    queue: [...groups.keys()],
    annotators: [...byUser.keys()],
    byGroup: Object.fromEntries(groups),
    byUser: Object.fromEntries(byUser),
    overlap: [...groups].filter(([, users]) => users.length >= 2).map(([id]) => id),
  };
}

/**
 * The annotator pairs (indices, first < second) of `count` overlap groups, in the order the
 * overlap groups take them: whole seeded rounds over every pair, then the remainder's pairs.
 */
function overlapPairs(
  annotators: readonly TeamUserName[],
  count: number,
  seed: number,
): (readonly [number, number])[] {
  const m = annotators.length;
  if (count === 0 || m < 2) return [];
  const all: (readonly [number, number])[] = [];
  for (let i = 0; i < m; i++) for (let j = i + 1; j < m; j++) all.push([i, j]);
  const pairHash = ([i, j]: readonly [number, number]) =>
    randomHash01(`${annotators[i]!}\u0000${annotators[j]!}`, seed);
  const order = all
    .map((pair, index) => ({ pair, index, hash: pairHash(pair) }))
    .sort((a, b) => a.hash - b.hash || a.index - b.index)
    .map((p) => p.pair);
  const rounds = Math.floor(count / all.length);
  const out: (readonly [number, number])[] = [];
  for (let r = 0; r < rounds; r++) out.push(...order);
  const extra = new Set(nearRegularPairs(annotators, count - rounds * all.length, seed));
  out.push(...order.filter(([i, j]) => extra.has(i * m + j)));
  return out;
}

/**
 * `edges` distinct pairs of the m annotators (each as `i * m + j`, i < j) in which every
 * annotator's number of pairs differs by at most one: Havel-Hakimi on the degree sequence with
 * 2 x edges spread as evenly as possible (the annotators first in a seeded order take the larger
 * degree). Such a sequence is always graphical when edges < m(m-1)/2, so the construction cannot
 * run short; the check below would only fire on a broken invariant.
 */
function nearRegularPairs(
  annotators: readonly TeamUserName[],
  edges: number,
  seed: number,
): number[] {
  const m = annotators.length;
  const rank = annotators
    .map((name, index) => ({ index, hash: randomHash01(name, seed) }))
    .sort((a, b) => a.hash - b.hash || a.index - b.index)
    .map((a) => a.index);
  const position = new Map(rank.map((v, p) => [v, p]));
  const remaining = new Array<number>(m).fill(Math.floor((2 * edges) / m));
  rank.slice(0, 2 * edges - m * remaining[0]!).forEach((v) => remaining[v]!++);
  const alive = [...rank];
  const out: number[] = [];
  const byNeed = (a: number, b: number) =>
    remaining[b]! - remaining[a]! || position.get(a)! - position.get(b)!;
  while (alive.length > 0) {
    alive.sort(byNeed);
    const v = alive.shift()!;
    const need = remaining[v]!;
    remaining[v] = 0;
    const targets = alive.slice(0, need);
    if (targets.length < need || targets.some((u) => remaining[u] === 0))
      throw new Error("overlap pairs: the degree sequence is not graphical");
    for (const u of targets) {
      remaining[u]!--;
      out.push(Math.min(u, v) * m + Math.max(u, v));
    }
  }
  return out;
}
