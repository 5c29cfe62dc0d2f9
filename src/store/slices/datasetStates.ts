/**
 * The dataset slice's next states, built from the state now and what a load brought: a new load's
 * start, the group a dataset opens on, a followed run read again, a group parsed on demand.
 */
import { ANNOTATIONS_EMPTY, type RolloutGroup } from "../../core/index.ts";
import { datasetWithParsedGroup, type LoadedDataset } from "../../io/dataset.ts";
import type { LoadEvent } from "../../workers/loadClient.ts";
import type { RemoteRefresh } from "../remote/remoteJob.ts";
import type { RemoteRun } from "../remote/viewSession.ts";
import type { Store } from "../index.ts";
import { groupFromUrl } from "../url.ts";
import type { LiveFollow, LoadState } from "./datasetSlice.ts";

/** Parsed groups kept for an indexed file; the oldest unselected ones are dropped first. */
export const MAX_LOADED_GROUPS = 256;

export const LIVE_IDLE: LiveFollow = { arrived: [], notices: [], heldBack: 0, updating: false };

type ReadyLoad = Extract<LoadState, { status: "ready" }>;

/** A followed run read again: the load in place, the selection, what arrived. */
export interface RefreshedState {
  readonly load: ReadyLoad;
  readonly selectedGroupId: string | null;
  readonly live: LiveFollow;
}

/** The group a link asks for (`?group=`), when the dataset has it; else the first group. */
export function initialGroup(dataset: LoadedDataset): string | null {
  const wanted = groupFromUrl();
  if (wanted !== null && dataset.summaries.some((s) => s.id === wanted)) return wanted;
  return dataset.summaries[0]?.id ?? null;
}

/** The state a new load starts from: no group, and no annotations until the new ones arrive. */
export function startState(
  file: File,
  runFiles: readonly File[] | undefined,
  totalBytes: number,
): Pick<
  Store,
  "load" | "selectedGroupId" | "annotations" | "annotationPast" | "annotationFuture" | "live"
> {
  return {
    load: {
      status: "loading",
      file,
      ...(runFiles === undefined ? {} : { runFiles }),
      phase: "reading",
      bytes: 0,
      totalBytes,
      rows: null,
      groups: null,
      preview: null,
    },
    selectedGroupId: null,
    // Annotations belong to a dataset: a new file starts without any.
    annotations: ANNOTATIONS_EMPTY,
    annotationPast: [],
    annotationFuture: [],
    live: LIVE_IDLE,
  };
}

/**
 * The run on screen read again (`refresh` done): the new dataset in place, the parsed groups
 * still whole, the selection kept while its group is there, and what arrived added to `live`.
 */
export function refreshedState(
  now: Extract<LoadState, { status: "ready" }>,
  live: LiveFollow,
  selected: string | null,
  remote: RemoteRun,
  refresh: RemoteRefresh,
  event: Extract<LoadEvent, { kind: "done" }>,
): RefreshedState {
  const known = new Set(now.dataset.summaries.map((s) => s.id));
  const arrived = event.dataset.summaries.filter((s) => !known.has(s.id)).map((s) => s.id);
  // Parsed groups: all of them for a whole-file read; an indexed file keeps the groups
  // parsed so far unless a file was read again from the start.
  const groups = new Map<string, RolloutGroup>();
  if (event.dataset.indexed && refresh.reread.length === 0) {
    // Kept only while their rows are all there: a group that grew is parsed again.
    const sizes = new Map(event.dataset.summaries.map((s) => [s.id, s.rewards.length]));
    for (const [id, g] of now.groups) if (sizes.get(id) === g.rollouts.length) groups.set(id, g);
  }
  for (const g of event.dataset.groups) groups.set(g.id, g);
  const stillThere = selected !== null && event.dataset.summaries.some((s) => s.id === selected);
  return {
    load: { ...now, remote, dataset: event.dataset, groups },
    selectedGroupId: stillThere ? selected : initialGroup(event.dataset),
    live: {
      arrived: [...live.arrived, ...arrived],
      notices: [...live.notices, ...refresh.notices],
      heldBack: event.heldBack ?? 0,
      updating: false,
    },
  };
}

/**
 * A group parsed on demand (or why it could not be) into the ready load: the oldest parsed groups
 * beyond MAX_LOADED_GROUPS are dropped, never the selected one. `file` names the dataset the
 * request was made for, in the issue a failed read adds.
 */
export function loadWithParsedGroup(
  now: ReadyLoad,
  groupId: string,
  reply: Extract<LoadEvent, { kind: "group" | "error" }>,
  selected: string | null,
  file: string,
): ReadyLoad {
  const groups = new Map(now.groups);
  if (reply.kind === "group" && reply.group !== null) {
    groups.set(groupId, reply.group);
    // Drop the oldest groups beyond the cap, never the selected one.
    for (const id of groups.keys()) {
      if (groups.size <= MAX_LOADED_GROUPS) break;
      if (id !== selected) groups.delete(id);
    }
  }
  const updated =
    reply.kind === "group"
      ? datasetWithParsedGroup(now.dataset, reply.group, groupId, reply.issues)
      : datasetWithParsedGroup(now.dataset, null, groupId, [
          {
            file,
            line: 0,
            message: `group ${groupId} could not be read: ${reply.message}`,
          },
        ]);
  return { ...now, dataset: { ...updated, groups: [] }, groups };
}
