/** In-group rank transforms (methods.md sections 1.7 and 6.2). */

/** Equal for ranking: the same number (0 and -0 too), or both NaN. */
const sameValue = (a: number, b: number): boolean =>
  a === b || (Number.isNaN(a) && Number.isNaN(b));

/**
 * The benchmax seed's rank transform: sort ascending by score with a stable sort (ties keep index
 * order, they are *not* averaged), then `rank_i = position / (n - 1)`; 1.0 when n = 1.
 * NaN scores sort below every number, in index order.
 *
 * Example: `[0.2, 0.9, 0.5, 0.9]` gives `[0, 2/3, 1/3, 1]`.
 */
export function rankTransform(scores: readonly number[]): number[] {
  const n = scores.length;
  if (n === 1) return [1.0];
  const order = scores
    .map((s, i) => ({ s: Number.isNaN(s) ? -Infinity : s, i, nan: Number.isNaN(s) }))
    .sort((a, b) => (a.nan !== b.nan ? (a.nan ? -1 : 1) : a.s - b.s || a.i - b.i));
  const ranks = new Array<number>(n).fill(0);
  order.forEach(({ i }, position) => {
    ranks[i] = position / (n - 1);
  });
  return ranks;
}

/**
 * How the in-group rank treats equal scores (methods.md section 9, "Ties"): "index" is the benchmax
 * seed's stable sort (equal scores keep index order, `rankTransform`); "average" gives them the
 * midpoint of the positions they span, as benchmax's rubric ranking places a tier (methods.md 1.7:
 * "the best tie rule for the studio's rank").
 */
export type RankTies = "index" | "average";

/**
 * The rank transform under a tie rule: `position / (n - 1)` after an ascending sort, 1.0 when
 * n = 1; NaN scores lowest. With "average", equal scores (NaNs among themselves) share the mean of
 * their positions: `[0.2, 0.9, 0.5, 0.9]` gives `[0, 5/6, 1/3, 5/6]`.
 */
export function rankTransformTies(scores: readonly number[], ties: RankTies): number[] {
  if (ties === "index") return rankTransform(scores);
  const n = scores.length;
  if (n === 1) return [1.0];
  const order = scores
    .map((s, i) => ({ s, i }))
    .sort(
      (a, b) =>
        Number(Number.isNaN(b.s)) - Number(Number.isNaN(a.s)) ||
        (Number.isNaN(a.s) ? 0 : a.s - b.s) ||
        a.i - b.i,
    );
  const ranks = new Array<number>(n).fill(0);
  let start = 0;
  while (start < n) {
    let end = start;
    while (end + 1 < n && sameValue(order[end + 1]!.s, order[start]!.s)) end++;
    const rank = (start + end) / 2 / (n - 1);
    for (let k = start; k <= end; k++) ranks[order[k]!.i] = rank;
    start = end + 1;
  }
  return ranks;
}

/**
 * Places, best = 1 (issue 13's one rank convention): the higher score places better, NaN scores
 * last; under "average" equal scores share the mean of the places they span (`[0.2, 0.9, 0.5,
 * 0.9]` gives `[4, 1.5, 3, 1.5]`), under "index" they keep index order like `rankTransform` (the
 * later index places better, as its rank transform is higher). The rank transform is the same
 * order normalised: `rank = (n - place) / (n - 1)`, 1 when n = 1.
 */
export function rankPlaces(scores: readonly number[], ties: RankTies): number[] {
  const n = scores.length;
  // Ascending positions as rankTransformTies sorts them, then place = n - position.
  const key = (s: number): number => (Number.isNaN(s) ? -Infinity : s);
  const order = scores
    .map((s, i) => ({ s, i }))
    .sort(
      (a, b) =>
        Number(Number.isNaN(b.s)) - Number(Number.isNaN(a.s)) ||
        (Number.isNaN(a.s) && Number.isNaN(b.s) ? 0 : key(a.s) - key(b.s)) ||
        a.i - b.i,
    );
  const places = new Array<number>(n).fill(1);
  let start = 0;
  while (start < n) {
    let end = start;
    if (ties === "average")
      while (end + 1 < n && sameValue(order[end + 1]!.s, order[start]!.s)) end++;
    const position = (start + end) / 2;
    for (let k = start; k <= end; k++) places[order[k]!.i] = n - position;
    start = end + 1;
  }
  return places;
}

/**
 * Rubric ranking scores from best-first tiers (benchmax `rewards/rubric.py`): a tier spanning
 * 0-based ranks p..p+len-1 sits at `p + (len-1)/2` and scores `1 - position / (N - 1)`, where N is
 * the number of ranked items. Items not in any tier (empty responses) score 0. N = 1 scores 1.0.
 *
 * @param n the group size; the result has one score per index
 */
export function rankTierScores(tiers: readonly (readonly number[])[], n: number): number[] {
  const ranked = tiers.reduce((sum, tier) => sum + tier.length, 0);
  const scores = new Array<number>(n).fill(0);
  let position = 0;
  for (const tier of tiers) {
    const mid = position + (tier.length - 1) / 2;
    for (const i of tier) scores[i] = ranked <= 1 ? 1.0 : 1 - mid / (ranked - 1);
    position += tier.length;
  }
  return scores;
}

/**
 * Tier midpoint ranks (0 = best): the tie rule the studio shows as "rank" for a human or judge
 * ranking. Unranked indices get null.
 */
export function rankTierMidpoints(
  tiers: readonly (readonly number[])[],
  n: number,
): (number | null)[] {
  const out = new Array<number | null>(n).fill(null);
  let position = 0;
  for (const tier of tiers) {
    for (const i of tier) out[i] = position + (tier.length - 1) / 2;
    position += tier.length;
  }
  return out;
}

/** Equal for ranking: 0 and -0 tie (as ===), and NaN ties with NaN. */

/**
 * Average ranks (1-based, ascending, ties share the mean of the ranks they span): the ranks
 * Spearman's rho and whileai's tie averaging use. NaN values rank last and tie with each other.
 */
export function rankAverage(values: readonly number[]): number[] {
  // NaN ranks above every number (last), all NaNs tied; the comparator must stay consistent.
  const key = (v: number): number => (Number.isNaN(v) ? Infinity : v);
  const order = values
    .map((v, i) => ({ v, i }))
    .sort(
      (a, b) =>
        Number(Number.isNaN(a.v)) - Number(Number.isNaN(b.v)) || key(a.v) - key(b.v) || a.i - b.i,
    );
  const ranks = new Array<number>(values.length).fill(0);
  let start = 0;
  while (start < order.length) {
    let end = start;
    while (end + 1 < order.length && sameValue(order[end + 1]!.v, order[start]!.v)) end++;
    const avg = (start + end) / 2 + 1;
    for (let k = start; k <= end; k++) ranks[order[k]!.i] = avg;
    start = end + 1;
  }
  return ranks;
}

/** Best-first tiers from scores: equal scores share a tier; tiers and their members in index order. */
export function rankTiersFromScores(scores: readonly number[]): number[][] {
  const order = scores.map((s, i) => ({ s, i })).sort((a, b) => b.s - a.s || a.i - b.i);
  const tiers: number[][] = [];
  let last: number | undefined;
  for (const { s, i } of order) {
    if (tiers.length > 0 && s === last) tiers[tiers.length - 1]!.push(i);
    else tiers.push([i]);
    last = s;
  }
  return tiers;
}
