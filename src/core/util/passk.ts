/** tau-bench's pass^k and group flags (methods.md 4.5, 3.2). */
import { statsStd } from "./stats.ts";

/** tau-bench's success rule: `|reward - 1| <= 1e-6`. */
export function passTauSuccess(reward: number): boolean {
  return Math.abs(reward - 1) <= 1e-6;
}

/** C(c, k) / C(n, k) as a product, exact for small k and free of overflow. */
function binomialRatio(c: number, n: number, k: number): number {
  let ratio = 1;
  for (let j = 0; j < k; j++) ratio *= (c - j) / (n - j);
  return Math.max(0, ratio);
}

/**
 * pass^k (tau-bench `display_metrics`): `mean over tasks of C(c, k) / C(n, k)`, where a task has n
 * trials of which c succeeded. Tasks with fewer than k trials are left out; NaN when none remain.
 *
 * @param tasks per task, the number of trials and of successes
 */
export function passHatK(tasks: readonly { n: number; c: number }[], k: number): number {
  const eligible = tasks.filter((t) => t.n >= k);
  if (eligible.length === 0 || k < 1) return NaN;
  let sum = 0;
  for (const t of eligible) sum += binomialRatio(t.c, t.n, k);
  return sum / eligible.length;
}

export interface GroupFlags {
  readonly passes: number;
  /** Both passes and failures: the groups GRPO learns from. */
  readonly mixed: boolean;
  /**
   * Every finite reward equal (population std <= 1e-8, torch.isclose's atol): advantages all 0.
   * False for an unscored group: it has no rewards to be equal.
   */
  readonly zeroStd: boolean;
  /** No finite reward at all (agent trajectories no report scored): nothing to learn from yet. */
  readonly unscored: boolean;
}

/** Flags for one group. NaN rewards are ignored for the std and are not passes. */
export function groupFlags(rewards: readonly number[], passed: readonly boolean[]): GroupFlags {
  const passes = passed.filter(Boolean).length;
  const finite = rewards.filter((r) => Number.isFinite(r));
  const unscored = finite.length === 0;
  const zeroStd = !unscored && statsStd(finite, "population") <= 1e-8;
  return { passes, mixed: passes > 0 && passes < passed.length, zeroStd, unscored };
}
