/**
 * ArenaRL tournaments (Alibaba-NLP/qqr, paper 2601.06487; methods.md 5.1).
 *
 * Each topology is a generator: it yields the next match, receives that match's combined scores
 * (the sum of both judging orders), and returns the final ranking. The same code therefore runs
 * with a synchronous scorer in tests ({@link arenaRun}) and with an async LLM judge in the studio.
 * Players are indices 0..n-1; index 0 is the anchor (pivot).
 */
import { statsMean, statsStd } from "../util/stats.ts";

export type ArenaPhase = "seeding" | "bracket" | "round-robin" | "anchor";

export interface ArenaMatch {
  readonly a: number;
  readonly b: number;
  readonly phase: ArenaPhase;
  /** 0 for seeding and single-round topologies; 1.. for bracket rounds. */
  readonly round: number;
}

/** Combined scores of a match, one per side. */
export interface ArenaScore {
  readonly a: number;
  readonly b: number;
}

export interface ArenaPlayedMatch extends ArenaMatch {
  readonly score: ArenaScore;
  /** The player who advanced (ties go to `a`, the first-listed), or null for a round-robin tie. */
  readonly winner: number | null;
}

export interface ArenaResult {
  /** Players best first. */
  readonly ranking: readonly number[];
  /** Per player: the topology's reward before standardising, in [0, 1]. */
  readonly rewards: readonly number[];
  /** Per player: `(r - mean) / (std + 1e-6)` with the Bessel-corrected std, as ArenaRL does. */
  readonly advantages: readonly number[];
  /** Every match in the order played: the schedule. */
  readonly matches: readonly ArenaPlayedMatch[];
}

export type ArenaTournament = Generator<ArenaMatch, ArenaResult, ArenaScore>;

const ARENA_EPS = 1e-6;

function standardise(r: readonly number[]): number[] {
  if (r.length < 2) return r.map(() => 0);
  const mean = statsMean(r);
  const std = statsStd(r, "sample");
  return r.map((x) => (x - mean) / (std + ARENA_EPS));
}

/**
 * The bracket's seed order by doubling: start from [0]; each step follows every seed i with
 * `2c - 1 - i` (c = current count) until P = next power of two >= n; seeds >= n are filtered out.
 * n = 8 gives [0,7,3,4,1,6,2,5]; n = 6 gives [0,3,4,1,2,5] (the top seeds get no byes).
 */
export function arenaSeedOrder(n: number): number[] {
  if (n <= 0) return [];
  let order = [0];
  while (order.length < n) {
    const c = order.length;
    order = order.flatMap((i) => [i, 2 * c - 1 - i]);
  }
  return order.filter((i) => i < n);
}

function stableSortBy<T>(items: readonly T[], key: (x: T) => number): T[] {
  return items
    .map((x, i) => ({ x, i, k: key(x) }))
    .sort((p, q) => q.k - p.k || p.i - q.i)
    .map((p) => p.x);
}

/**
 * Seeded single elimination: N - 1 anchor matches for seeding, then N - 1 bracket matches.
 *
 * - Seeding: every player i >= 1 plays the pivot 0; i's seed points are [s_i], the pivot's is the
 *   mean of its scores. Players are sorted by mean points, descending, stably.
 * - Bracket: {@link arenaSeedOrder}; consecutive entries pair up, an odd one out gets a bye. The
 *   higher combined score advances; a tie advances the first-listed player. Every match appends each
 *   side's score to its points.
 * - Final ranking: the champion, then the losers round by round from the final backwards, each
 *   round's losers sorted by mean points descending.
 * - Reward `r = 1 - rank/(N-1)` (quantile mapping, no ties), then standardised.
 */
export function* arenaSingleElimination(n: number): ArenaTournament {
  const matches: ArenaPlayedMatch[] = [];
  const points: number[][] = Array.from({ length: n }, () => []);
  if (n > 1) {
    const pivotScores: number[] = [];
    for (let i = 1; i < n; i++) {
      const match: ArenaMatch = { a: 0, b: i, phase: "seeding", round: 0 };
      const score = yield match;
      pivotScores.push(score.a);
      points[i]!.push(score.b);
      matches.push({ ...match, score, winner: score.a >= score.b ? 0 : i });
    }
    points[0]!.push(statsMean(pivotScores));
  }
  const players = Array.from({ length: n }, (_, i) => i);
  const seeds = stableSortBy(players, (i) => statsMean(points[i]!));
  let current = arenaSeedOrder(n).map((s) => seeds[s]!);
  const losersByRound: number[][] = [];
  let round = 0;
  while (current.length > 1) {
    round++;
    const next: number[] = [];
    const losers: number[] = [];
    for (let k = 0; k < current.length; k += 2) {
      const a = current[k]!;
      const b = current[k + 1];
      if (b === undefined) {
        next.push(a);
        continue;
      }
      const match: ArenaMatch = { a, b, phase: "bracket", round };
      const score = yield match;
      points[a]!.push(score.a);
      points[b]!.push(score.b);
      const winner = score.a >= score.b ? a : b;
      matches.push({ ...match, score, winner });
      next.push(winner);
      losers.push(winner === a ? b : a);
    }
    losersByRound.push(losers);
    current = next;
  }
  const ranking = n === 0 ? [] : [current[0]!];
  for (let r = losersByRound.length - 1; r >= 0; r--) {
    ranking.push(...stableSortBy(losersByRound[r]!, (i) => statsMean(points[i]!)));
  }
  const rewards = new Array<number>(n).fill(1);
  ranking.forEach((player, rank) => {
    rewards[player] = n <= 1 ? 1 : 1 - rank / (n - 1);
  });
  return { ranking, rewards, advantages: standardise(rewards), matches };
}

/** `rank(method="min", descending)`: 1 + the number of players with a strictly higher value. */
function minRankDescending(values: readonly number[]): number[] {
  return values.map((v) => 1 + values.filter((w) => w > v).length);
}

/** `r = (maxRank - rank) / (maxRank - 1)`, all zeros when every rank is 1. */
function rankRewards(ranks: readonly number[]): number[] {
  const maxRank = Math.max(...ranks);
  return maxRank <= 1 ? ranks.map(() => 0) : ranks.map((r) => (maxRank - r) / (maxRank - 1));
}

function finish(values: readonly number[], matches: ArenaPlayedMatch[]): ArenaResult {
  const rewards = rankRewards(minRankDescending(values));
  const ranking = stableSortBy(
    values.map((_, i) => i),
    (i) => values[i]!,
  );
  return { ranking, rewards, advantages: standardise(rewards), matches };
}

/**
 * Round robin: every pair i < j plays once; a win adds 1, a tie 0.5 to each side. Players are ranked
 * by wins with min-ranking, rewarded `(maxRank - rank)/(maxRank - 1)`, then standardised.
 */
export function* arenaRoundRobin(n: number): ArenaTournament {
  const wins = new Array<number>(n).fill(0);
  const matches: ArenaPlayedMatch[] = [];
  for (let a = 0; a < n; a++)
    for (let b = a + 1; b < n; b++) {
      const match: ArenaMatch = { a, b, phase: "round-robin", round: 0 };
      const score = yield match;
      const winner = score.a > score.b ? a : score.b > score.a ? b : null;
      if (winner === null) {
        wins[a]! += 0.5;
        wins[b]! += 0.5;
      } else wins[winner]! += 1;
      matches.push({ ...match, score, winner });
    }
  return finish(wins, matches);
}

/**
 * Anchor: every player i >= 1 plays the pivot 0 once. The scores are the pivot's mean score and each
 * player's score against the pivot; ranked and rewarded as in the round robin.
 */
export function* arenaAnchor(n: number): ArenaTournament {
  const scores = new Array<number>(n).fill(0);
  const pivotScores: number[] = [];
  const matches: ArenaPlayedMatch[] = [];
  for (let i = 1; i < n; i++) {
    const match: ArenaMatch = { a: 0, b: i, phase: "anchor", round: 0 };
    const score = yield match;
    pivotScores.push(score.a);
    scores[i] = score.b;
    matches.push({ ...match, score, winner: score.a >= score.b ? 0 : i });
  }
  if (n > 0) scores[0] = n > 1 ? statsMean(pivotScores) : 0;
  return finish(scores, matches);
}

/** Drive a tournament with a synchronous scorer. */
export function arenaRun(
  tournament: ArenaTournament,
  score: (match: ArenaMatch) => ArenaScore,
): ArenaResult {
  let step = tournament.next();
  while (!step.done) step = tournament.next(score(step.value));
  return step.value;
}
