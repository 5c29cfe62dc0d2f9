/**
 * Covers: the prompt lineage the Lineage tab shows (store/lineage.ts). The members are the groups
 * whose id without its step is the open group's, in step order; their points are core's
 * `promptLineage` over `groupHealth`, and equal what core computes from the files alone (each file
 * parsed by io, tallied with its step); people's hack marks reach the row of their group.
 */
import { describe, expect, it } from "vitest";
import {
  ANALYSIS_DEFAULTS,
  ANNOTATIONS_EMPTY,
  promptLineage,
  rolloutSimilarityInput,
  similarityCluster,
  type LineagePoint,
  type RolloutGroup,
} from "../core/index.ts";
import { annotationsParse } from "../io/annotations/annotationsFile.ts";
import { healthRun, healthRunAnnotations } from "../../scripts/healthRun.ts";
import { healthRunCoreGroups, healthRunInputs } from "../test/healthRunLoads.ts";
import { createPlainStore } from "./createStore.ts";
import { lineageMembers, lineagePoints } from "./lineage.ts";

const settings = ANALYSIS_DEFAULTS;

/** The compute worker's count, as clusterSlice asks for it. */
const clustersOf = (group: RolloutGroup): number =>
  similarityCluster(
    group.rollouts.map((r) =>
      rolloutSimilarityInput(r, settings.completionRule, settings.textChars),
    ),
    { n: settings.ngram, threshold: settings.similarity, on: settings.similarityOn },
  ).nClusters;

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

async function loadedRun(run: ReturnType<typeof healthRun>) {
  const store = createPlainStore();
  store.getState().loadFiles(healthRunInputs(run, "run"));
  for (let i = 0; i < 400 && store.getState().load.status !== "ready"; i++) await settle();
  const load = store.getState().load;
  if (load.status !== "ready") throw new Error(`not loaded: ${load.status}`);
  return load;
}

const withoutId = ({ groupId: _, ...rest }: LineagePoint) => rest;

describe("lineageMembers", () => {
  it("lists the prompt's groups by step, a step-less group first, and no other prompt's", () => {
    const summaries = [
      { id: "2/p0", step: 2 },
      { id: "1/p1", step: 1 },
      { id: "10/p0", step: 10 },
      { id: "1/p0", step: 1 },
      { id: "p0", step: null },
      { id: "1/p01", step: 1 },
    ];
    expect(lineageMembers(summaries, "10/p0")).toEqual([
      { id: "p0", step: null },
      { id: "1/p0", step: 1 },
      { id: "2/p0", step: 2 },
      { id: "10/p0", step: 10 },
    ]);
    expect(lineageMembers(summaries, "1/p1")).toEqual([{ id: "1/p1", step: 1 }]);
    expect(lineageMembers(summaries, "nope")).toEqual([]);
  });
});

describe("lineagePoints over a run opened in the studio", () => {
  it("equal core's lineage computed from the files alone, step by step", async () => {
    const run = healthRun({ steps: 6, prompts: 4, drift: { start: 3, rate: 0.3 } });
    const load = await loadedRun(run);
    const members = lineageMembers(load.dataset.summaries, "4/p2");
    expect(members.map((m) => m.id)).toEqual([1, 2, 3, 4, 5, 6].map((s) => `${s}/p2`));
    const points = lineagePoints(members, load.groups, settings, ANNOTATIONS_EMPTY, clustersOf);
    const core = await healthRunCoreGroups(run, settings);
    const expected = promptLineage(core, core.find((g) => g.prompt === "p2")!.id);
    expect(points.map(withoutId)).toEqual(expected.map(withoutId));
    expect(points.map((p) => p.step)).toEqual([1, 2, 3, 4, 5, 6]);
    // The drift planted from step 3 shows in the mean length.
    expect(points[5]!.meanChars).toBeGreaterThan(points[0]!.meanChars * 1.5);
  });

  it("puts people's hack marks on their group's row, and leaves out groups not parsed", async () => {
    const run = healthRun({ steps: 4, prompts: 6, hack: { start: 2, share0: 0.3, max: 0.6 } });
    const load = await loadedRun(run);
    const parsed = annotationsParse("a.json", JSON.stringify(healthRunAnnotations(run, 3)));
    if (!parsed.ok) throw new Error("the generated annotations do not parse");
    const annotations = parsed.value;
    const marked = Object.keys(annotations.groups);
    expect(marked.length).toBeGreaterThan(0);
    const groupId = marked[0]!;
    const members = lineageMembers(load.dataset.summaries, groupId);
    const points = lineagePoints(members, load.groups, settings, annotations, clustersOf);
    const row = points.find((p) => p.groupId === groupId)!;
    expect(row.hacks.human).toBe(annotations.groups[groupId]!.hacks.length);
    expect(points.filter((p) => p.groupId !== groupId).every((p) => p.hacks.human === 0)).toBe(
      true,
    );
    // An indexed file's groups not parsed yet have no point (the tab lists them as not loaded).
    const some = new Map([...load.groups].filter(([id]) => id !== members[0]!.id));
    const partial = lineagePoints(members, some, settings, annotations, () => null);
    expect(partial.map((p) => p.groupId)).toEqual(members.slice(1).map((m) => m.id));
    expect(partial.every((p) => p.clusters === null)).toBe(true);
  });
});
