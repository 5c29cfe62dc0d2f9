/**
 * Diversity clusters: true single-linkage over n-gram Jaccard (benchmax current API, methods.md 1.4).
 * Chaining applies: A~B and B~C put A, B and C together even when A and C are not similar.
 */
import { ngramSimilarityNaive, ngramValidateConfig, type NgramConfig } from "./ngrams.ts";
import { ngramSimilarity } from "./similarity.ts";
import { similarityMatrix, type SimilarityInput, type SimilarityOn } from "./toolCalls.ts";

export interface ClusterResult {
  /** "0", "1", ... in order of each cluster's smallest member. */
  readonly clusterIds: readonly string[];
  /** Per rollout: its cluster's index (the number in its id). */
  readonly clusterIndex: readonly number[];
  /** Per rollout: the size of its cluster (the divisor `scaleByDiversity` divides by). */
  readonly divisors: readonly number[];
  /** Cluster labels; empty for n-gram clustering (an LLM clusterer may name them). */
  readonly labels: readonly string[];
  readonly nClusters: number;
}

/**
 * Connected components of the graph linking i < j when `similar(i, j)`, by union-find: the larger
 * root points at the smaller, find halves paths, so every root is its component's smallest index.
 */
export function clusterComponents(
  k: number,
  similar: (i: number, j: number) => boolean,
): ClusterResult {
  const parent = Array.from({ length: k }, (_, i) => i);
  const find = (x: number): number => {
    while (parent[x] !== x) {
      parent[x] = parent[parent[x]!]!;
      x = parent[x]!;
    }
    return x;
  };
  for (let i = 0; i < k; i++)
    for (let j = i + 1; j < k; j++) {
      if (!similar(i, j)) continue;
      const ri = find(i);
      const rj = find(j);
      if (ri === rj) continue;
      if (ri < rj) parent[rj] = ri;
      else parent[ri] = rj;
    }
  const indexOfRoot = new Map<number, number>();
  const clusterIndex = parent.map((_, i) => {
    const root = find(i);
    let c = indexOfRoot.get(root);
    if (c === undefined) {
      c = indexOfRoot.size;
      indexOfRoot.set(root, c);
    }
    return c;
  });
  const sizes = new Array<number>(indexOfRoot.size).fill(0);
  for (const c of clusterIndex) sizes[c]! += 1;
  return {
    clusterIds: clusterIndex.map(String),
    clusterIndex,
    divisors: clusterIndex.map((c) => sizes[c]!),
    labels: [],
    nClusters: indexOfRoot.size,
  };
}

/** Which implementation computes the similarities; both give identical clusters. */
export type NgramMethod = "exact" | "naive";

/**
 * benchmax `cluster_texts` with the n-gram backend: 0 texts give empty results, 1 text gives cluster
 * "0" with divisor 1, otherwise single-linkage at `J >= threshold`.
 *
 * @throws RangeError for an invalid config ("n must be positive", "... within [0, 1]")
 */
export function ngramCluster(
  texts: readonly string[],
  config: NgramConfig,
  method: NgramMethod = "exact",
): ClusterResult & { readonly similarity: Float64Array } {
  ngramValidateConfig(config);
  const k = texts.length;
  const similarity =
    k < 2
      ? Float64Array.from({ length: k * k }, () => 1)
      : method === "exact"
        ? ngramSimilarity(texts, config.n)
        : ngramSimilarityNaive(texts, config.n);
  return {
    ...clusterComponents(k, (i, j) => similarity[i * k + j]! >= config.threshold),
    similarity,
  };
}

/**
 * {@link ngramCluster} over what `on` compares (./toolCalls.ts): the text, the tool-call sequence,
 * or both (their mean Jaccard where either rollout made a call). "text" is exactly `ngramCluster`.
 *
 * @throws RangeError for an invalid config, as `ngramCluster`
 */
export function similarityCluster(
  inputs: readonly SimilarityInput[],
  config: NgramConfig & { readonly on: SimilarityOn },
): ClusterResult & { readonly similarity: Float64Array } {
  ngramValidateConfig(config);
  const k = inputs.length;
  const similarity =
    k < 2
      ? Float64Array.from({ length: k * k }, () => 1)
      : similarityMatrix(inputs, config.n, config.on);
  return {
    ...clusterComponents(k, (i, j) => similarity[i * k + j]! >= config.threshold),
    similarity,
  };
}

/**
 * benchmax `scale_by_diversity`: divide every component of each rollout's reward map by its
 * cluster's size. Injects no keys.
 *
 * @throws RangeError "rewards and texts must have the same length"
 */
export function ngramScaleByDiversity(
  rewards: readonly Readonly<Record<string, number>>[],
  texts: readonly string[],
  config: NgramConfig,
): { scaled: Record<string, number>[]; clusters: ClusterResult } {
  if (rewards.length !== texts.length)
    throw new RangeError("rewards and texts must have the same length");
  const clusters = ngramCluster(texts, config);
  const scaled = rewards.map((map, i) => {
    const d = clusters.divisors[i]!;
    return Object.fromEntries(Object.entries(map).map(([key, v]) => [key, v / d]));
  });
  return { scaled, clusters };
}
