/**
 * Blind pairwise comparison sessions (annotation issue, pairwise mode). A session is plain data
 * (schedule, seed, players, judgements so far), so it persists with the annotations and replays to
 * the same state anywhere. The next match comes from replaying the judgements through the schedule:
 *
 * - `single-elimination`: ArenaRL's seeded tournament (methods.md 5.1): N - 1 seeding matches
 *   against the anchor, then N - 1 bracket matches, 2N - 2 in all (14 for a group of 8). The anchor
 *   is the first player after a seeded shuffle.
 * - `round-robin`: every pair once, n(n-1)/2 matches, ranked by wins (ArenaRL's round robin).
 * - `all-pairs`: every pair twice, once in each order, n(n-1) matches: a check on position bias.
 *
 * Left and right are randomised per match from the seed; the rewards are never part of a match.
 */
import {
  arenaRoundRobin,
  arenaSingleElimination,
  type ArenaMatch,
  type ArenaResult,
  type ArenaScore,
  type ArenaTournament,
} from "../arena/arena.ts";
import type { RolloutId } from "../types.ts";
import { randomHash01, randomMulberry32 } from "../util/random.ts";
import { bradleyTerryBootstrap } from "../winrate/bradleyTerry.ts";
import {
  winRateCycles,
  winRateFromPairs,
  winRateMatrix,
  type PairResult,
  type TieCredit,
} from "../winrate/winRate.ts";

export type PairwiseSchedule = "single-elimination" | "round-robin" | "all-pairs";

export const PAIRWISE_SCHEDULES: readonly PairwiseSchedule[] = [
  "single-elimination",
  "round-robin",
  "all-pairs",
];

export type PairwiseVerdict = "a" | "b" | "tie";

/** One human judgement: `a` and `b` as the schedule listed them (not as shown left and right). */
export interface PairwiseJudgement {
  readonly a: RolloutId;
  readonly b: RolloutId;
  readonly verdict: PairwiseVerdict;
}

export interface PairwiseSession {
  readonly schedule: PairwiseSchedule;
  readonly seed: number;
  /** Players in schedule order (index 0 is single elimination's anchor). */
  readonly players: readonly RolloutId[];
  readonly judgements: readonly PairwiseJudgement[];
}

export class PairwiseError extends Error {
  override readonly name = "PairwiseError";
}

/** A new session over the rollouts, in a seeded order. */
export function pairwiseStart(
  schedule: PairwiseSchedule,
  rollouts: readonly RolloutId[],
  seed: number,
): PairwiseSession {
  const players = [...rollouts];
  const rand = randomMulberry32(seed);
  for (let i = players.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [players[i], players[j]] = [players[j]!, players[i]!];
  }
  return { schedule, seed, players, judgements: [] };
}

/** How many comparisons a schedule takes for n players. */
export function pairwiseTotal(schedule: PairwiseSchedule, n: number): number {
  if (n < 2) return 0;
  if (schedule === "single-elimination") return 2 * n - 2;
  if (schedule === "round-robin") return (n * (n - 1)) / 2;
  return n * (n - 1);
}

function* allPairsBothOrders(n: number): ArenaTournament {
  const wins = new Array<number>(n).fill(0);
  for (let i = 0; i < n; i++)
    for (let j = i + 1; j < n; j++)
      for (const [a, b] of [
        [i, j],
        [j, i],
      ] as const) {
        const score = yield { a, b, phase: "round-robin", round: 0 };
        wins[a]! += score.a;
        wins[b]! += score.b;
      }
  const ranking = wins.map((_, i) => i).sort((x, y) => wins[y]! - wins[x]! || x - y);
  return { ranking, rewards: wins, advantages: wins.map(() => 0), matches: [] };
}

function tournament(schedule: PairwiseSchedule, n: number): ArenaTournament {
  if (schedule === "single-elimination") return arenaSingleElimination(n);
  if (schedule === "round-robin") return arenaRoundRobin(n);
  return allPairsBothOrders(n);
}

const SCORES: Record<PairwiseVerdict, ArenaScore> = {
  a: { a: 1, b: 0 },
  b: { a: 0, b: 1 },
  tie: { a: 0.5, b: 0.5 },
};

function replay(
  session: PairwiseSession,
): { next: ArenaMatch; result: null } | { next: null; result: ArenaResult } {
  const gen = tournament(session.schedule, session.players.length);
  let step = gen.next();
  session.judgements.forEach((j, k) => {
    if (step.done)
      throw new PairwiseError(`judgement ${k + 1} comes after the last match of the schedule`);
    const expected = step.value;
    const a = session.players[expected.a];
    const b = session.players[expected.b];
    if (j.a !== a || j.b !== b)
      throw new PairwiseError(
        `judgement ${k + 1} compares ${j.a} and ${j.b}, but the schedule asks for ${a} and ${b}`,
      );
    step = gen.next(SCORES[j.verdict]);
  });
  return step.done ? { next: null, result: step.value } : { next: step.value, result: null };
}

export type PairwiseStep =
  | {
      readonly kind: "match";
      /** 0-based number of this comparison, and the schedule's total. */
      readonly index: number;
      readonly total: number;
      readonly a: RolloutId;
      readonly b: RolloutId;
      /** Who is shown on the left and on the right (blind, seeded per match). */
      readonly left: RolloutId;
      readonly right: RolloutId;
    }
  | { readonly kind: "done"; readonly total: number };

/** The comparison to show next, or done. */
export function pairwiseNext(session: PairwiseSession): PairwiseStep {
  const total = pairwiseTotal(session.schedule, session.players.length);
  const { next } = replay(session);
  if (next === null) return { kind: "done", total };
  const index = session.judgements.length;
  const a = session.players[next.a]!;
  const b = session.players[next.b]!;
  const swap = randomHash01(`${index}:${a}:${b}`, session.seed) < 0.5;
  return { kind: "match", index, total, a, b, left: swap ? b : a, right: swap ? a : b };
}

/** Record the user's choice for the current match (left, right or tie). */
export function pairwiseChoose(
  session: PairwiseSession,
  choice: "left" | "right" | "tie",
): PairwiseSession {
  const step = pairwiseNext(session);
  if (step.kind === "done") throw new PairwiseError("the session is complete");
  const winner = choice === "tie" ? null : choice === "left" ? step.left : step.right;
  const verdict: PairwiseVerdict = winner === null ? "tie" : winner === step.a ? "a" : "b";
  return { ...session, judgements: [...session.judgements, { a: step.a, b: step.b, verdict }] };
}

/** The session without its last judgement. */
export function pairwiseUndo(session: PairwiseSession): PairwiseSession {
  return { ...session, judgements: session.judgements.slice(0, -1) };
}

function playedShare(n: number, pairs: readonly PairResult[], tie: TieCredit): number[] {
  const games = new Array<number>(n).fill(0);
  for (const p of pairs) {
    games[p.a]! += 1;
    games[p.b]! += 1;
  }
  // winRateFromPairs divides by n - 1; rescale to the games each player actually played.
  return winRateFromPairs(n, pairs, tie).map((w, i) =>
    games[i] === 0 ? NaN : (w * (n - 1)) / games[i]!,
  );
}

export interface PairwiseSummary {
  readonly players: readonly RolloutId[];
  /**
   * Per player (in `players` order): points / comparisons played (a win 1, a tie the tie credit);
   * NaN before its first comparison. With every pair judged once this is wins / (n - 1).
   */
  readonly winRates: readonly number[];
  /** Bradley-Terry log-strengths with a seeded 95% bootstrap interval. */
  readonly strength: readonly number[];
  readonly lower: readonly number[];
  readonly upper: readonly number[];
  /** The bootstrap's resamples, and how many it dropped (a fit that did not converge). */
  readonly resamples: number;
  readonly droppedResamples: number;
  /** Best-first tiers the user can accept as the group's ranking. */
  readonly proposed: readonly (readonly RolloutId[])[];
  /** Intransitive triples (a beat b, b beat c, c beat a). */
  readonly cycles: readonly (readonly [RolloutId, RolloutId, RolloutId])[];
  readonly complete: boolean;
}

/**
 * Win rates, strengths and a proposed ranking from the judgements so far: players ordered by
 * Bradley-Terry strength, equal strengths (within 1e-9) sharing a tier, whatever the schedule.
 */
export function pairwiseSummary(session: PairwiseSession, tie: TieCredit = 0.5): PairwiseSummary {
  const n = session.players.length;
  const index = new Map(session.players.map((id, i) => [id, i]));
  const pairs: PairResult[] = session.judgements.map((j) => ({
    a: index.get(j.a)!,
    b: index.get(j.b)!,
    outcome: j.verdict,
  }));
  const { result } = replay(session);
  const bt = bradleyTerryBootstrap(n, pairs, { seed: session.seed, samples: 200 });
  // One order for the places, the table and the proposal: the Bradley-Terry strengths (issue 13,
  // finding 7). A single elimination's bracket places players eliminated in the same round one
  // below the other although nothing tells them apart; their strengths are equal, and so is
  // their place here.
  const order = session.players
    .map((_, i) => i)
    .sort((x, y) => bt.fit.logStrength[y]! - bt.fit.logStrength[x]! || x - y);
  const proposed: RolloutId[][] = [];
  let last = NaN;
  for (const i of order) {
    const s = bt.fit.logStrength[i]!;
    if (proposed.length > 0 && Math.abs(s - last) < 1e-9)
      proposed[proposed.length - 1]!.push(session.players[i]!);
    else proposed.push([session.players[i]!]);
    last = s;
  }
  const cycles = winRateCycles(winRateMatrix(n, pairs, tie)).map(
    ([a, b, c]) => [session.players[a]!, session.players[b]!, session.players[c]!] as const,
  );
  return {
    players: session.players,
    winRates: playedShare(n, pairs, tie),
    strength: bt.fit.logStrength,
    lower: bt.lower,
    upper: bt.upper,
    resamples: bt.samples,
    droppedResamples: bt.dropped,
    proposed,
    cycles,
    complete: result !== null,
  };
}
