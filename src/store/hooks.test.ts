import { describe, expect, it } from "vitest";
import {
  ANALYSIS_DEFAULTS,
  analyzeDataset,
  annotationsResolve,
  GROUP_ANNOTATION_EMPTY,
  type Rollout,
  type RolloutGroup,
  ANNOTATIONS_EMPTY,
} from "../core/index.ts";
import { groupAdvantages, groupView, usesDatasetAdvantages } from "./hooks.ts";
import { useStore } from "./index.ts";
import { clusterEntry } from "./slices/clusterSlice.ts";
import { testRollout } from "../test/rolloutFixtures.ts";

function rollout(id: string, reward: number, completion: string, rewards = {}): Rollout {
  return testRollout({
    id,
    completion,
    reward,
    rewards,
  });
}

const group: RolloutGroup = {
  id: "g",
  rollouts: [
    rollout("a", 1, "refund issued", { accuracy: 1, format: 0 }),
    rollout("b", 1, "refund issued twice", { accuracy: 1, format: 1 }),
    rollout("c", 0, "no idea", { accuracy: 0, format: 1 }),
  ],
};

describe("groupView", () => {
  it("equals the CLI's analysis, with GAR values once a ranking exists", () => {
    const annotation = { ...GROUP_ANNOTATION_EMPTY, ranking: [["b"], ["a"]] };
    const clusters = { status: "pending" } as const;
    const view = groupView(group, ANALYSIS_DEFAULTS, undefined, annotation, clusters);
    const cli = analyzeDataset(
      [group],
      ANALYSIS_DEFAULTS,
      annotationsResolve([group], { ...ANNOTATIONS_EMPTY, groups: { g: annotation } }),
    ).groups[0]!;
    expect(view.analysis.rollouts.map((r) => r.advantage)).toEqual(
      cli.rollouts.map((r) => r.advantage),
    );
    expect(view.analysis.rollouts.map((r) => r.garAdvantage)).toEqual(
      cli.rollouts.map((r) => r.garAdvantage),
    );
    expect(view.analysis.rollouts[0]!.garAdvantage).not.toBeNull();
    const none = groupView(group, ANALYSIS_DEFAULTS, undefined, GROUP_ANNOTATION_EMPTY, clusters);
    expect(none.analysis.rollouts.every((r) => r.garAdvantage === null)).toBe(true);
  });

  it("honours reward weights, and takes batch advantages from the dataset", () => {
    const weighted = { ...ANALYSIS_DEFAULTS, rewardWeights: { accuracy: 1, format: 2 } };
    const view = groupView(group, weighted, undefined, GROUP_ANNOTATION_EMPTY, {
      status: "pending",
    });
    expect(view.analysis.rollouts.map((r) => r.reward)).toEqual([1, 3, 2]);
    const batch = { ...ANALYSIS_DEFAULTS, scale: "batch" as const };
    const given = [0.5, 0.25, -0.75];
    const fromDataset = groupView(group, batch, given, GROUP_ANNOTATION_EMPTY, {
      status: "pending",
    });
    expect(fromDataset.analysis.rollouts.map((r) => r.advantage)).toEqual(given);
    // The advantages do not depend on the annotation: computed once, they give the same view.
    expect(groupAdvantages(group, batch, given)).toBe(given);
    const noScale = { ...ANALYSIS_DEFAULTS, scale: "none" as const };
    const local = groupAdvantages(group, noScale, given);
    expect(local).not.toBe(given);
    const ranked = { ...GROUP_ANNOTATION_EMPTY, ranking: [["b"], ["a"]] };
    const pending = { status: "pending" } as const;
    const reused = groupView(group, noScale, given, ranked, pending, null, local);
    expect(reused.analysis).toEqual(groupView(group, noScale, given, ranked, pending).analysis);
    expect(reused.analysis.rollouts[0]!.garAdvantage).not.toBeNull();
  });

  it("shows every rollout as its own cluster while the worker computes", () => {
    const view = groupView(group, ANALYSIS_DEFAULTS, undefined, GROUP_ANNOTATION_EMPTY, {
      status: "pending",
    });
    expect(view.analysis.rollouts.map((r) => r.cluster)).toEqual([0, 1, 2]);
  });
});

describe("cluster cache", () => {
  it("computes once per group and setting, and moves the version when done", async () => {
    const { requestClusters } = useStore.getState();
    const before = useStore.getState().clusterVersion;
    const settings = {
      ngram: 3,
      similarity: 0.5,
      completionRule: "final-assistant" as const,
      similarityOn: "both" as const,
      textChars: 200_000,
    };
    requestClusters(group, settings);
    requestClusters(group, settings);
    expect(clusterEntry(group, settings)?.status).toBe("pending");
    await new Promise((r) => setTimeout(r, 0));
    const entry = clusterEntry(group, settings);
    expect(entry?.status).toBe("done");
    if (entry?.status === "done") expect(entry.result.clusterIndex).toEqual([0, 0, 1]);
    expect(useStore.getState().clusterVersion).toBe(before + 1);
    expect(clusterEntry(group, { ...settings, similarity: 0.9 })).toBeUndefined();
    // The text analysed per rollout changes the clusters: its own cache entry.
    expect(clusterEntry(group, { ...settings, textChars: 10 })).toBeUndefined();
    expect(clusterEntry(group, { ...settings, similarityOn: "text" })).toBeUndefined();
  });
});

describe("usesDatasetAdvantages", () => {
  it("only GRPO with batch scaling needs the other groups' advantages", () => {
    expect(usesDatasetAdvantages({ estimator: "grpo", scale: "batch" })).toBe(true);
    expect(usesDatasetAdvantages({ estimator: "rloo", scale: "batch" })).toBe(false);
    expect(usesDatasetAdvantages({ estimator: "grpo", scale: "group" })).toBe(false);
    expect(usesDatasetAdvantages({ estimator: "grpo", scale: "none" })).toBe(false);
    expect(usesDatasetAdvantages(ANALYSIS_DEFAULTS)).toBe(false);
  });
});
