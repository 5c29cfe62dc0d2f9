/**
 * Train / dev / test splits for judge calibration: stratified by label, seeded, deterministic, and
 * stable when rows are added.
 *
 * Stability is what keeps a sealed test split honest: a row once in test must stay in test. So a
 * row's place comes from a hash of (seed, key), never from a shuffle of the whole set, and rows that
 * already have a split (`previous`) keep it. New rows fill each stratum's splits in hash order,
 * each going to the split furthest below its target share, so every stratum is split in proportion
 * (to within one row per split) however the rows arrive.
 */
import { randomHash01 } from "../util/random.ts";

export type SplitName = "train" | "dev" | "test";
export const SPLIT_NAMES: readonly SplitName[] = ["train", "dev", "test"];

export interface SplitOptions {
  readonly seed: number;
  /** Shares of train, dev and test; they must be non-negative and sum to 1. Default 15/42.5/42.5. */
  readonly fractions: Readonly<Record<SplitName, number>>;
}

export const SPLIT_DEFAULTS: SplitOptions = {
  seed: 0,
  fractions: { train: 0.15, dev: 0.425, test: 0.425 },
};

export interface SplitRow {
  /** Stable identity of the row, e.g. the rollout id. */
  readonly key: string;
  /** The stratum, e.g. the human label "pass" / "fail". */
  readonly stratum: string;
}

/**
 * Assign every row to a split.
 *
 * @param previous assignments made earlier; those rows keep their split
 * @throws RangeError if the fractions are negative or do not sum to 1
 */
export function splitAssign(
  rows: readonly SplitRow[],
  options: SplitOptions = SPLIT_DEFAULTS,
  previous: ReadonlyMap<string, SplitName> = new Map(),
): Map<string, SplitName> {
  const f = options.fractions;
  const total = f.train + f.dev + f.test;
  if (SPLIT_NAMES.some((s) => !(f[s] >= 0)) || Math.abs(total - 1) > 1e-9) {
    throw new RangeError(`split fractions must be non-negative and sum to 1, got ${total}`);
  }
  const out = new Map<string, SplitName>();
  const strata = new Map<string, SplitRow[]>();
  const seen = new Set<string>();
  for (const row of rows) {
    if (seen.has(row.key)) continue;
    seen.add(row.key);
    const kept = previous.get(row.key);
    if (kept !== undefined) out.set(row.key, kept);
    const list = strata.get(row.stratum) ?? [];
    list.push(row);
    strata.set(row.stratum, list);
  }
  for (const list of strata.values()) {
    const counts: Record<SplitName, number> = { train: 0, dev: 0, test: 0 };
    for (const row of list) {
      const kept = out.get(row.key);
      if (kept !== undefined) counts[kept]++;
    }
    const fresh = list
      .filter((row) => !out.has(row.key))
      .map((row) => ({ row, h: randomHash01(row.key, options.seed) }))
      .sort((a, b) => a.h - b.h || (a.row.key < b.row.key ? -1 : 1));
    let assigned = counts.train + counts.dev + counts.test;
    for (const { row } of fresh) {
      assigned++;
      let best: SplitName = "train";
      let bestDeficit = -Infinity;
      for (const s of SPLIT_NAMES) {
        const deficit = f[s] * assigned - counts[s];
        if (f[s] > 0 && deficit > bestDeficit + 1e-12) {
          best = s;
          bestDeficit = deficit;
        }
      }
      counts[best]++;
      out.set(row.key, best);
    }
  }
  return out;
}
