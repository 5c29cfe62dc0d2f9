/**
 * `analyzeDatasetStream` (a group at a time, for a dataset too large to hold) gives exactly what
 * `analyzeDataset` gives, under every estimator, scale and aggregation, with annotations.
 */
import { fc, test } from "@fast-check/vitest";
import { describe, expect } from "vitest";

import type { Rollout, RolloutGroup } from "../types.ts";
import {
  ANALYSIS_DEFAULTS,
  advantagesAreGroupwise,
  analysisAdvantages,
  analyzeDataset,
  analyzeDatasetStream,
  datasetAnalysisHead,
} from "./analyze.ts";
import { ANNOTATIONS_EMPTY, GROUP_ANNOTATION_EMPTY } from "./annotations.ts";
import { annotationsResolve } from "./resolve.ts";

const reward = fc.oneof(
  fc.constantFrom(0, 1, 0.5, null),
  fc.double({ min: -1, max: 2, noNaN: true }),
);
const components = fc.dictionary(
  fc.constantFrom("a", "b", "c"),
  fc.oneof(reward, fc.constant(null)),
  {
    maxKeys: 3,
  },
);

const dataset = fc
  .array(
    fc.array(
      fc.record({
        reward,
        rewards: components,
        completion: fc.constantFrom("yes", "no", "the answer is 4", "four", ""),
      }),
      { minLength: 1, maxLength: 6 },
    ),
    { minLength: 1, maxLength: 8 },
  )
  .map((groups): RolloutGroup[] =>
    groups.map((rollouts, g) => ({
      id: `g${g}`,
      rollouts: rollouts.map((r, i): Rollout => ({
        id: `g${g}/${i}`,
        groupId: `g${g}`,
        index: i,
        prompt: "p",
        messages: [],
        completion: r.completion,
        reward: r.reward,
        rewards: r.rewards,
        answer: null,
        testsPassed: null,
        meta: {},
        source: { file: "t.jsonl", line: i + 1 },
      })),
    })),
  );

const settings = fc.record({
  estimator: fc.constantFrom("grpo" as const, "rloo" as const),
  scale: fc.constantFrom("group" as const, "batch" as const, "none" as const),
  aggregation: fc.constantFrom("sum_then_normalize" as const, "normalize_then_sum" as const),
  std: fc.constantFrom("sample" as const, "population" as const),
  rewardWeights: fc.constantFrom<Readonly<Record<string, number>> | null>(
    null,
    { a: 2 },
    { b: 0.5, c: 1 },
  ),
});

describe("analyzeDatasetStream", () => {
  test.prop([dataset, settings, fc.boolean()])(
    "equals analyzeDataset of the same groups",
    (groups, chosen, annotate) => {
      const s = { ...ANALYSIS_DEFAULTS, ...chosen };
      // A ranking of the first group's rollouts (best first) and a hack in the last group.
      const annotations = annotate
        ? annotationsResolve(groups, {
            ...ANNOTATIONS_EMPTY,
            groups: {
              [groups[0]!.id]: {
                ...GROUP_ANNOTATION_EMPTY,
                ranking: groups[0]!.rollouts.map((r) => [r.id]),
              },
              [groups.at(-1)!.id]: {
                ...GROUP_ANNOTATION_EMPTY,
                hacks: [groups.at(-1)!.rollouts[0]!.id],
              },
            },
          })
        : undefined;
      const stream = analyzeDatasetStream(s, annotations);
      for (const g of groups) stream.add(g);
      expect(stream.finish()).toEqual(analyzeDataset(groups, s, annotations));
    },
  );

  test.prop([dataset, settings, fc.boolean(), fc.integer({ min: 0, max: 10 })])(
    "keeping only the first groups gives the whole analysis' head, summary and all",
    (groups, chosen, annotate, keep) => {
      const s = { ...ANALYSIS_DEFAULTS, ...chosen };
      const annotations = annotate
        ? annotationsResolve(groups, {
            ...ANNOTATIONS_EMPTY,
            groups: {
              [groups.at(-1)!.id]: {
                ...GROUP_ANNOTATION_EMPTY,
                ranking: groups.at(-1)!.rollouts.map((r) => [r.id]),
              },
            },
          })
        : undefined;
      const stream = analyzeDatasetStream(s, annotations, keep);
      for (const g of groups) stream.add(g);
      const whole = analyzeDataset(groups, s, annotations);
      const head = stream.finishHead();
      expect(head).toEqual(datasetAnalysisHead(whole, keep));
      expect(head.head.length).toBe(Math.min(keep, groups.length));
      if (keep < groups.length) expect(() => stream.finish()).toThrow(/kept/);
      else expect(stream.finish()).toEqual(whole);
    },
  );

  test.prop([dataset, settings])(
    "groupwise settings give each group alone the advantages the whole dataset gives it",
    (groups, chosen) => {
      const s = { ...ANALYSIS_DEFAULTS, ...chosen };
      fc.pre(advantagesAreGroupwise(s));
      const whole = analysisAdvantages(groups, s);
      groups.forEach((g, gi) => expect(analysisAdvantages([g], s)[0]).toEqual(whole[gi]));
    },
  );
});
