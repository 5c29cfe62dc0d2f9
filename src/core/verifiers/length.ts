/** The length-penalty wrapper (the library's `with_length_penalty`). */
import type { LengthUnit } from "./spec.ts";

/**
 * A text's length: whitespace-separated words (Python's `len(s.split())`, the library's proxy for
 * tokens) or characters (Unicode code points, so an emoji counts once).
 */
export function lengthCount(text: string, unit: LengthUnit): number {
  if (unit === "characters") {
    // Code units less one per surrogate pair.
    return text.length - (text.match(/[\uD800-\uDBFF][\uDC00-\uDFFF]/g)?.length ?? 0);
  }
  let n = 0;
  for (const word of text.split(/\s+/)) if (word !== "") n++;
  return n;
}

/**
 * A reward less `perUnit` for every unit of `length` past `target`. The penalty is capped at the
 * reward, so a reward of 0 or more never goes below 0; unlike the library's `min(reward, ...)`,
 * which would raise a negative reward, a negative reward is returned unchanged.
 *
 * @returns a value in [0, reward] when reward >= 0; `reward` itself when it is negative
 */
export function lengthPenalize(
  reward: number,
  length: number,
  target: number,
  perUnit: number,
): number {
  const overflow = Math.max(0, length - target);
  const penalty = Math.min(Math.max(reward, 0), overflow * perUnit);
  return reward - penalty;
}
