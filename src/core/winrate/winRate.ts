/**
 * Pairwise win rates (benchmax seed, methods.md 1.7; Pref-GRPO, methods.md 5.2).
 *
 * A tie (or a missing verdict) counts 0 to both sides in the benchmax seed and 0.5 to each side in
 * Pref-GRPO and ArenaRL's round robin: the `tie` setting chooses.
 */

/** Who won a comparison between `a` and `b`; null means no verdict. */
export type PairOutcome = "a" | "b" | "tie" | null;

export interface PairResult {
  readonly a: number;
  readonly b: number;
  readonly outcome: PairOutcome;
}

/** What a tie or missing verdict is worth to each side. */
export type TieCredit = 0 | 0.5;

/**
 * Win rate per rollout: `wins_i / (n - 1)`, where a win counts 1 and a tie or missing verdict counts
 * `tie`. The denominator is n - 1 as in both sources (every pair judged once); with n = 1 there is
 * no comparison and the win rate is 0.
 */
export function winRateFromPairs(
  n: number,
  pairs: readonly PairResult[],
  tie: TieCredit = 0,
): number[] {
  const wins = new Array<number>(n).fill(0);
  for (const { a, b, outcome } of pairs) {
    if (outcome === "a") wins[a]! += 1;
    else if (outcome === "b") wins[b]! += 1;
    else {
      wins[a]! += tie;
      wins[b]! += tie;
    }
  }
  return n <= 1 ? wins.map(() => 0) : wins.map((w) => w / (n - 1));
}

/** Every pair i < j, in order: the all-pairs schedule (n(n-1)/2 comparisons). */
export function winRateAllPairs(n: number): [number, number][] {
  const pairs: [number, number][] = [];
  for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) pairs.push([i, j]);
  return pairs;
}

/** Pairs decided by score: the higher score wins, equal scores tie. NaN loses to any number. */
export function winRatePairsFromScores(scores: readonly number[]): PairResult[] {
  const value = (x: number): number => (Number.isNaN(x) ? -Infinity : x);
  return winRateAllPairs(scores.length).map(([a, b]) => {
    const sa = value(scores[a]!);
    const sb = value(scores[b]!);
    return { a, b, outcome: sa > sb ? "a" : sb > sa ? "b" : "tie" };
  });
}

/** Pairs decided by best-first tiers: the better tier wins, the same tier ties; unranked pairs get no verdict. */
export function winRatePairsFromTiers(
  tiers: readonly (readonly number[])[],
  n: number,
): PairResult[] {
  const tierOf = new Array<number | null>(n).fill(null);
  tiers.forEach((tier, t) => tier.forEach((i) => (tierOf[i] = t)));
  return winRateAllPairs(n).map(([a, b]) => {
    const ta = tierOf[a]!;
    const tb = tierOf[b]!;
    if (ta === null || tb === null) return { a, b, outcome: null };
    return { a, b, outcome: ta < tb ? "a" : tb < ta ? "b" : "tie" };
  });
}

/**
 * The k x k win-rate matrix: `M[i][j]` is i's share of the points against j over every comparison
 * between them (a win 1, a tie `tie`), or NaN when they never met (a gap, not a zero).
 * Comparisons without a verdict count as games with `tie` credit, like {@link winRateFromPairs}.
 */
export function winRateMatrix(
  n: number,
  pairs: readonly PairResult[],
  tie: TieCredit = 0,
): number[][] {
  const points = Array.from({ length: n }, () => new Array<number>(n).fill(0));
  const games = Array.from({ length: n }, () => new Array<number>(n).fill(0));
  for (const { a, b, outcome } of pairs) {
    games[a]![b]! += 1;
    games[b]![a]! += 1;
    if (outcome === "a") points[a]![b]! += 1;
    else if (outcome === "b") points[b]![a]! += 1;
    else {
      points[a]![b]! += tie;
      points[b]![a]! += tie;
    }
  }
  return points.map((row, i) => row.map((p, j) => (games[i]![j]! === 0 ? NaN : p / games[i]![j]!)));
}

/**
 * Intransitive triples among decisive outcomes: (i, j, k) with i beating j, j beating k and k beating
 * i, where "beats" means a strictly larger share in the win-rate matrix. Each cycle is reported once,
 * starting from its smallest index.
 */
export function winRateCycles(matrix: readonly (readonly number[])[]): [number, number, number][] {
  const n = matrix.length;
  // Bitsets, one row of words per rollout: beats[i] holds the j that i beats, beaten[i] the k that
  // beat i. The candidates k of a pair (i beats j) are beats[j] AND beaten[i], above i: n^2 * n/32
  // word operations, where the plain triple loop (kept as the definition in the tests) took n^3/2
  // look-ups: 3 s for a group of 512 rollouts on the main thread.
  const words = (n + 31) >>> 5;
  const beats = new Uint32Array(n * words);
  const beaten = new Uint32Array(n * words);
  for (let i = 0; i < n; i++)
    for (let j = 0; j < n; j++) {
      const m = matrix[i]![j]!;
      if (!Number.isNaN(m) && m > 0.5) {
        beats[i * words + (j >>> 5)]! |= 1 << (j & 31);
        beaten[j * words + (i >>> 5)]! |= 1 << (i & 31);
      }
    }
  const cycles: [number, number, number][] = [];
  for (let i = 0; i < n; i++)
    for (let j = i + 1; j < n; j++) {
      if ((beats[i * words + (j >>> 5)]! & (1 << (j & 31))) === 0) continue;
      // k from i + 1 up, in order, never j (a matrix may say j beats itself).
      for (let w = (i + 1) >>> 5; w < words; w++) {
        let bits = beats[j * words + w]! & beaten[i * words + w]!;
        if (w === (i + 1) >>> 5) bits &= ~((1 << ((i + 1) & 31)) - 1);
        if (w === j >>> 5) bits &= ~(1 << (j & 31));
        while (bits !== 0) {
          const low = bits & -bits;
          cycles.push([i, j, (w << 5) + 31 - Math.clz32(low)]);
          bits ^= low;
        }
      }
    }
  return cycles;
}
