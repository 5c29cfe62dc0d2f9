/**
 * Properties of n-gram diversity clustering (methods.md 1.4): deterministic, every rollout in
 * exactly one cluster, ids in order of smallest member, exactly the connected components of the
 * `J >= threshold` graph (single-linkage, chaining included), the same for both similarity
 * methods, and the same partition whatever order the rollouts come in. Golden vectors live in
 * ngram.test.ts.
 */
import { fc, test } from "@fast-check/vitest";
import { describe, expect } from "vitest";
import { ngramCluster } from "./cluster.ts";
import { ngramSimilarityNaive, type NgramConfig } from "./ngrams.ts";

/** Short texts over a tiny alphabet, so Jaccard similarities spread over [0, 1] and chains form. */
const text = fc.oneof(
  fc.string({ unit: fc.constantFrom("a", "b", "c", "A", " ", "\u{1F600}"), maxLength: 8 }),
  fc.string({ unit: "grapheme", maxLength: 6 }),
);
const texts = fc
  .array(text, { minLength: 1, maxLength: 4 })
  .chain((pool) => fc.array(fc.oneof(fc.constantFrom(...pool), text), { maxLength: 12 }));

const config: fc.Arbitrary<NgramConfig> = fc.record({
  n: fc.integer({ min: 1, max: 4 }),
  threshold: fc.oneof(
    fc.constantFrom(0, 0.5, 1),
    fc.double({ min: 0, max: 1, noNaN: true, noDefaultInfinity: true }),
  ),
});

const permutation = (n: number) =>
  fc.shuffledSubarray(
    Array.from({ length: n }, (_, i) => i),
    { minLength: n, maxLength: n },
  );

/** Connected components by graph search over the naive similarity: the reference partition. */
function components(list: readonly string[], cfg: NgramConfig): number[] {
  const k = list.length;
  const sim = ngramSimilarityNaive(list, cfg.n);
  const label = new Array<number>(k).fill(-1);
  let next = 0;
  for (let start = 0; start < k; start++) {
    if (label[start] !== -1) continue;
    label[start] = next;
    const queue = [start];
    while (queue.length > 0) {
      const i = queue.pop()!;
      for (let j = 0; j < k; j++) {
        if (label[j] === -1 && i !== j && sim[i * k + j]! >= cfg.threshold) {
          label[j] = next;
          queue.push(j);
        }
      }
    }
    next++;
  }
  return label;
}

describe("ngramCluster", () => {
  test.prop([texts, config])("is deterministic", (list, cfg) => {
    expect(ngramCluster(list, cfg)).toEqual(ngramCluster([...list], { ...cfg }));
  });

  test.prop([texts, config])(
    "assigns every rollout exactly once, ids 0..m-1 by smallest member, divisors = cluster sizes",
    (list, cfg) => {
      const r = ngramCluster(list, cfg);
      const k = list.length;
      expect(r.clusterIndex).toHaveLength(k);
      expect(r.clusterIds).toHaveLength(k);
      expect(r.divisors).toHaveLength(k);
      expect(r.labels).toEqual([]);
      expect(r.clusterIds).toEqual(r.clusterIndex.map(String));
      const m = r.nClusters;
      expect(new Set(r.clusterIds)).toEqual(
        new Set(Array.from({ length: m }, (_, c) => String(c))),
      );
      const sizes = new Array<number>(m).fill(0);
      for (const c of r.clusterIndex) sizes[c]! += 1;
      expect(sizes.every((s) => s > 0)).toBe(true);
      expect(sizes.reduce((a, b) => a + b, 0)).toBe(k);
      r.clusterIndex.forEach((c, i) => expect(r.divisors[i]).toBe(sizes[c]));
      // Ids in order of smallest member: each new id seen in index order is the next integer.
      let seen = -1;
      for (const c of r.clusterIndex) {
        expect(c).toBeLessThanOrEqual(seen + 1);
        seen = Math.max(seen, c);
      }
    },
  );

  test.prop([texts, config])(
    "is single-linkage: J >= threshold joins, and clusters are exactly the connected components",
    (list, cfg) => {
      const r = ngramCluster(list, cfg);
      const k = list.length;
      const sim = ngramSimilarityNaive(list, cfg.n);
      for (let i = 0; i < k; i++)
        for (let j = i + 1; j < k; j++)
          if (sim[i * k + j]! >= cfg.threshold) expect(r.clusterIndex[i]).toBe(r.clusterIndex[j]);
      // Both labelings number components by smallest member, so they must agree outright.
      expect(r.clusterIndex).toEqual(components(list, cfg));
    },
  );

  test.prop([texts, config])('"exact" and "naive" give identical results', (list, cfg) => {
    expect(ngramCluster(list, cfg, "exact")).toEqual(ngramCluster(list, cfg, "naive"));
  });

  test.prop([texts.chain((list) => fc.tuple(fc.constant(list), permutation(list.length))), config])(
    "permuting the rollouts permutes divisors and keeps the partition (ids may be renumbered)",
    ([list, p], cfg) => {
      const base = ngramCluster(list, cfg);
      const moved = ngramCluster(
        p.map((i) => list[i]!),
        cfg,
      );
      expect(moved.nClusters).toBe(base.nClusters);
      expect(moved.divisors).toEqual(p.map((i) => base.divisors[i]!));
      for (let a = 0; a < p.length; a++)
        for (let b = a + 1; b < p.length; b++) {
          const together = moved.clusterIndex[a] === moved.clusterIndex[b];
          expect(together).toBe(base.clusterIndex[p[a]!] === base.clusterIndex[p[b]!]);
        }
    },
  );
});
