/**
 * Groupwise Reward Synthesis reward shaping (MiMo-V2.6 equation 2; whileai mode "reward",
 * methods.md section 2.4): `R_i = R_test_i * max(floor, s_i) * max(floor, b_i)` for each pass.
 */
import { GAR_DEFAULTS } from "./gar.ts";

export interface GrsScore {
  /** Solution score in [0, 1]. */
  readonly solution: number;
  /** Behaviour score in [0, 1]. */
  readonly behavior: number;
}

export interface GrsOptions {
  /** Lower bound on each score before multiplying; in [0, 1). whileai default 0. */
  readonly floor: number;
  readonly passThreshold: number;
}

export const GRS_DEFAULTS: GrsOptions = { floor: 0.0, passThreshold: GAR_DEFAULTS.passThreshold };

export interface GrsResult {
  readonly rewards: number[];
  /** `s*b` for every pass that was scored, by index (whileai `stats.scores`). */
  readonly products: ReadonlyMap<number, number>;
  /** Passes whose score was missing, an error, or out of range: they keep R_test. */
  readonly failures: readonly number[];
}

const inUnit = (x: unknown): x is number => typeof x === "number" && x >= 0 && x <= 1;

/**
 * Shape a group's rewards with per-pass rubric scores. Failures keep their reward (they are not
 * zeroed). A pass whose score is null, an Error, or has a value outside [0, 1] keeps R_test and is
 * counted in `failures`.
 *
 * @param scores one entry per rollout; only entries at passes are read
 * @throws RangeError if floor is outside [0, 1)
 */
export function grsShape(
  rewards: readonly number[],
  scores: readonly (GrsScore | Error | null | undefined)[],
  options: GrsOptions = GRS_DEFAULTS,
): GrsResult {
  if (!(options.floor >= 0 && options.floor < 1)) {
    throw new RangeError(`floor must be in [0, 1), got ${options.floor}`);
  }
  const products = new Map<number, number>();
  const failures: number[] = [];
  const shaped = rewards.map((r, i) => {
    if (!(r >= options.passThreshold)) return r;
    const score = scores[i];
    if (!score || score instanceof Error || !inUnit(score.solution) || !inUnit(score.behavior)) {
      failures.push(i);
      return r;
    }
    products.set(i, score.solution * score.behavior);
    return r * Math.max(options.floor, score.solution) * Math.max(options.floor, score.behavior);
  });
  return { rewards: shaped, products, failures };
}
