/**
 * A prompt's lineage as the group view's Lineage tab shows it (issue 19): the groups of the open
 * group's prompt at every step, found from the dataset's summaries (a group's step, core's
 * `groupPromptKey`), each parsed group's numbers from core's `groupHealth` under the settings and
 * its annotation, and the rows from core's `promptLineage`. Nothing is stored: the numbers derive
 * from the load, the settings and the annotations on render.
 *
 * An indexed file's groups are parsed on demand: the lineage asks the load worker for its groups
 * (at most LINEAGE_PARSE_MAX of them, so a long lineage does not push every other parsed group
 * out of the dataset slice's cache), and lists the rest as not loaded. Cluster counts come from the
 * compute worker, the same `similarityCluster` under the same settings as core's run health; a
 * count still on its way is null and counted in `clustersPending`.
 */
import { useEffect, useMemo, useRef } from "react";
import {
  groupHealth,
  groupPromptKey,
  hackMarksOf,
  promptLineage,
  type AnalysisSettings,
  type Annotations,
  type GroupHealth,
  type LineagePoint,
  type RolloutGroup,
} from "../core/index.ts";
import type { GroupSummary } from "../io/dataset.ts";
import { useDataset, useLoadedGroups, useSettings } from "./hooks.ts";
import { useStore } from "./index.ts";
import { clusterEntry } from "./slices/clusterSlice.ts";

/** Groups of a lineage parsed on demand at most (MAX_LOADED_GROUPS is 256). */
export const LINEAGE_PARSE_MAX = 128;

/** A group of the prompt's lineage, as the summaries list it. */
export interface LineageMember {
  readonly id: string;
  readonly step: number | null;
}

/**
 * The groups of `groupId`'s prompt (its id without its step), ascending by step (a step-less one
 * first), as promptLineage orders them; empty when the dataset has no such group.
 */
export function lineageMembers(
  summaries: readonly Pick<GroupSummary, "id" | "step">[],
  groupId: string,
): LineageMember[] {
  const own = summaries.find((s) => s.id === groupId);
  if (own === undefined) return [];
  const prompt = groupPromptKey(own.id, own.step);
  return summaries
    .filter((s) => groupPromptKey(s.id, s.step) === prompt)
    .map((s) => ({ id: s.id, step: s.step }))
    .sort((a, b) => (a.step === null ? -1 : b.step === null ? 1 : a.step - b.step));
}

/**
 * Core's lineage points of the members that are parsed: each group's health with its annotation,
 * its hack marks and its cluster count (`clustersOf`: null while unknown).
 */
export function lineagePoints(
  members: readonly LineageMember[],
  groups: ReadonlyMap<string, RolloutGroup>,
  settings: AnalysisSettings,
  annotations: Pick<Annotations, "groups" | "judgeRuns">,
  clustersOf: (group: RolloutGroup) => number | null,
): LineagePoint[] {
  const marks = hackMarksOf(annotations);
  const healths: GroupHealth[] = [];
  for (const m of members) {
    const group = groups.get(m.id);
    if (group === undefined) continue;
    healths.push(
      groupHealth(group, m.step, settings, {
        annotation: annotations.groups[m.id],
        clusters: clustersOf(group),
        hacks: marks(m.id),
      }),
    );
  }
  const first = healths[0];
  return first === undefined ? [] : promptLineage(healths, first.id);
}

export interface LineageView {
  /** The prompt's identity: the open group's id without its step. */
  readonly prompt: string;
  readonly members: readonly LineageMember[];
  /** Whether the dataset's groups are parsed on demand (an indexed file). */
  readonly indexed: boolean;
  /** Core's promptLineage over the parsed members, ascending by step. */
  readonly points: readonly LineagePoint[];
  /** Members asked of the load worker and not parsed yet. */
  readonly reading: readonly string[];
  /** How many members the lineage parses at most (LINEAGE_PARSE_MAX). */
  readonly parseMax: number;
  /** Members past `parseMax` that are not parsed: listed as not loaded. */
  readonly notLoaded: readonly string[];
  /** Parsed members whose cluster count has not arrived yet. */
  readonly clustersPending: number;
}

/** The open group's lineage, or null while no dataset is loaded. */
export function useLineage(groupId: string): LineageView | null {
  const dataset = useDataset();
  const groups = useLoadedGroups();
  const settings = useSettings();
  const annotations = useStore((s) => s.annotations);
  const ensureGroup = useStore((s) => s.ensureGroup);
  const requestClusters = useStore((s) => s.requestClusters);
  const clusterVersion = useStore((s) => s.clusterVersion);
  const summaries = dataset?.summaries;
  const members = useMemo(
    () => (summaries === undefined ? [] : lineageMembers(summaries, groupId)),
    [summaries, groupId],
  );
  const wanted = useMemo(() => members.slice(0, LINEAGE_PARSE_MAX), [members]);
  // Parsing an indexed file's groups is a request to the load worker: an external system. Each
  // group is asked once per load (a group that cannot be read is not asked again and again).
  const file = useStore((s) => (s.load.status === "ready" ? s.load.file : null));
  const asked = useRef<{ file: File | null; ids: Set<string> }>({ file: null, ids: new Set() });
  useEffect(() => {
    if (groups === null) return;
    if (asked.current.file !== file) asked.current = { file, ids: new Set() };
    for (const m of wanted)
      if (!groups.has(m.id) && !asked.current.ids.has(m.id)) {
        asked.current.ids.add(m.id);
        ensureGroup(m.id);
      }
  }, [wanted, groups, file, ensureGroup]);
  const { ngram, similarity, completionRule, similarityOn, textChars } = settings;
  // Cluster counts come from the compute worker, cached per group and setting.
  useEffect(() => {
    if (groups === null) return;
    for (const m of members) {
      const group = groups.get(m.id);
      if (group !== undefined)
        requestClusters(group, { ngram, similarity, completionRule, similarityOn, textChars });
    }
  }, [
    members,
    groups,
    ngram,
    similarity,
    completionRule,
    similarityOn,
    textChars,
    requestClusters,
  ]);
  return useMemo(() => {
    if (dataset === null || groups === null) return null;
    void clusterVersion; // read the cluster cache again when a result arrives
    let clustersPending = 0;
    const clustersOf = (group: RolloutGroup): number | null => {
      const entry = clusterEntry(group, settings);
      if (entry?.status === "done") return entry.result.nClusters;
      if (entry === undefined || entry.status === "pending") clustersPending++;
      return null;
    };
    const points = lineagePoints(members, groups, settings, annotations, clustersOf);
    const wantedIds = new Set(wanted.map((m) => m.id));
    const missing = members.filter((m) => !groups.has(m.id)).map((m) => m.id);
    const own = members.find((m) => m.id === groupId);
    return {
      prompt: own === undefined ? groupId : groupPromptKey(own.id, own.step),
      members,
      indexed: dataset.indexed,
      points,
      parseMax: LINEAGE_PARSE_MAX,
      reading: missing.filter((id) => wantedIds.has(id)),
      notLoaded: missing.filter((id) => !wantedIds.has(id)),
      clustersPending,
    };
  }, [dataset, groups, settings, annotations, members, wanted, groupId, clusterVersion]);
}
