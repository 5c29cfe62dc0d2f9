/**
 * The bounds of the analysis settings, once: the settings schema (./analysisSchema.ts) checks a
 * stored value, a flag and a typed entry with these, and the formulas refuse a value outside them.
 */

/** GRPO's epsilon, added to the std: any number >= 0. */
export const epsValid = (x: number): boolean => x >= 0;
/** GAR's lambda cap: at least 1 (methods.md 2.7). */
export const capValid = (x: number): boolean => x >= 1;
/** GAR's factor of the worst-ranked pass: in (0, 1]. */
export const minFactorValid = (x: number): boolean => x > 0 && x <= 1;
/** The character n-gram length: a positive integer. */
export const ngramValid = (x: number): boolean => Number.isInteger(x) && x >= 1;
/** A Jaccard threshold: in [0, 1]. */
export const similarityValid = (x: number): boolean => x >= 0 && x <= 1;
/** The pass threshold: any finite number. */
export const passThresholdValid = (x: number): boolean => Number.isFinite(x);
