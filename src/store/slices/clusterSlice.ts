/**
 * Diversity clusters, computed in the compute worker and cached per parsed group (by object
 * identity, so dropping a group drops its entries) and per setting that changes them (n, the
 * threshold, the completion-text rule and what the similarity compares). The store holds only a version counter that moves when
 * a result arrives; hooks read the cache.
 */
import type { StateCreator } from "zustand";
import {
  rolloutSimilarityInput,
  type AnalysisSettings,
  type RolloutGroup,
} from "../../core/index.ts";
import { clusterRollouts } from "../../workers/computeClient.ts";
import type { ClusterOutput } from "../../workers/computeProtocol.ts";
import type { Store } from "../index.ts";

export type ClusterEntry =
  | { readonly status: "pending" }
  | { readonly status: "done"; readonly result: ClusterOutput }
  | { readonly status: "error"; readonly message: string };

type ClusterSettings = Pick<
  AnalysisSettings,
  "ngram" | "similarity" | "completionRule" | "similarityOn" | "textChars"
>;

const cache = new WeakMap<RolloutGroup, Map<string, ClusterEntry>>();

export function clusterKey(settings: ClusterSettings): string {
  return `${settings.ngram}|${settings.similarity}|${settings.completionRule}|${settings.similarityOn}|${settings.textChars}`;
}

/** The cached entry of a group under the settings, or undefined when never requested. */
export function clusterEntry(
  group: RolloutGroup,
  settings: ClusterSettings,
): ClusterEntry | undefined {
  return cache.get(group)?.get(clusterKey(settings));
}

export interface ClusterSlice {
  /** Moves whenever a cluster result arrives, so hooks reading the cache re-render. */
  readonly clusterVersion: number;
  /** Start computing a group's clusters unless they are cached or on their way. */
  readonly requestClusters: (group: RolloutGroup, settings: ClusterSettings) => void;
}

export const createClusterSlice: StateCreator<Store, [], [], ClusterSlice> = (set) => ({
  clusterVersion: 0,
  requestClusters: (group, settings) => {
    let entries = cache.get(group);
    if (entries === undefined) {
      entries = new Map();
      cache.set(group, entries);
    }
    const key = clusterKey(settings);
    if (entries.has(key)) return;
    entries.set(key, { status: "pending" });
    const store = entries;
    const inputs = group.rollouts.map((r) =>
      rolloutSimilarityInput(r, settings.completionRule, settings.textChars),
    );
    clusterRollouts(inputs, {
      n: settings.ngram,
      threshold: settings.similarity,
      on: settings.similarityOn,
    }).then(
      (result) => {
        store.set(key, { status: "done", result });
        set((s) => ({ clusterVersion: s.clusterVersion + 1 }));
      },
      (e: unknown) => {
        store.set(key, { status: "error", message: e instanceof Error ? e.message : String(e) });
        set((s) => ({ clusterVersion: s.clusterVersion + 1 }));
      },
    );
  },
});
