/** Label-free group rewards from the benchmax seed (methods.md 1.7). */

/**
 * Self-consistency: the majority answer is `Counter.most_common(1)`; on equal counts the answer seen
 * first wins. Rollouts that agree with it get `majority_count / n`, the others 0. A null answer (none
 * could be extracted) never forms the majority and scores 0.
 *
 * Example: `["4","4","5","4"]` gives `[0.75, 0.75, 0, 0.75]`.
 */
export function consistencySelf(answers: readonly (string | null)[]): number[] {
  const n = answers.length;
  const counts = new Map<string, number>();
  for (const a of answers) if (a !== null) counts.set(a, (counts.get(a) ?? 0) + 1);
  let majority: string | null = null;
  let best = 0;
  // Map iteration is insertion order, i.e. first-seen order, so `>` keeps the first on ties.
  for (const [answer, count] of counts) {
    if (count > best) {
      best = count;
      majority = answer;
    }
  }
  return answers.map((a) => (a !== null && a === majority ? best / n : 0));
}

/**
 * Complementarity: with `passCounts[tc]` the number of rollouts that passed test case tc,
 * `c_i = (sum over tc passed by i of 1 / passCounts[tc]) / n`. Rare passes are worth more.
 * A null entry (no test data) scores 0 and passes nothing.
 *
 * Example: `[{a,b},{a},{a,c}]` gives `[0.4444, 0.1111, 0.4444]`.
 */
export function consistencyComplementarity(
  passed: readonly (readonly string[] | null)[],
): number[] {
  const n = passed.length;
  const counts = new Map<string, number>();
  const sets = passed.map((p) => new Set(p ?? []));
  for (const set of sets) for (const tc of set) counts.set(tc, (counts.get(tc) ?? 0) + 1);
  return sets.map((set) => {
    let sum = 0;
    for (const tc of set) sum += 1 / counts.get(tc)!;
    return n === 0 ? 0 : sum / n;
  });
}
