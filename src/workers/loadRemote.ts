/**
 * A run's load from the view server (runLoadRemote), read by range requests up to each file's last
 * complete line, and what a worker keeps of it between reads (RemoteCache).
 */
import {
  completeLinesSize,
  extendIndexedFile,
  httpByteSource,
  LoadError,
  INDEX_MIN_BYTES,
  isTrajectoryPath,
  LoadCancelled,
  runDatasetMerge,
  withRunHeader,
  type RunHeader,
  sourcePrefix,
  type IndexedState,
  type LoadedDataset,
  type ParseIssue,
  type RunPart,
  type RunReport,
  namedSource,
} from "../io/index.ts";

import { errorReply } from "./loadReplies.ts";
import { runLoad } from "./loadOneFile.ts";
import { isPart, loadRunPart, QUIET, runIndexOf, type WorkerIndex } from "./loadRunParts.ts";
import type { LoadReply, LoadRequest } from "./protocol.ts";

/**
 * What a worker keeps of a remote run between reads: each file's dataset by id, and a single
 * indexed file's open index (extended with what was appended instead of indexed again).
 */
export interface RemoteCache {
  readonly files: Map<
    string,
    {
      readonly size: number;
      readonly dataset: LoadedDataset;
      /** The file's open index, when it was indexed (extended when it grows). */
      readonly state: IndexedState | null;
    }
  >;
  indexed: { readonly id: string; readonly state: IndexedState } | null;
}

export const remoteCacheEmpty = (): RemoteCache => ({ files: new Map(), indexed: null });

/**
 * Load a run from the view server (issue 14, points 4 and 5). Each file is read by range requests
 * up to its last complete line (a half-written line is held back, not an issue: io's
 * completeLinesSize). One file loads as a local File would (indexed when large); several are read
 * and merged as a run, and on a later call the files whose complete size did not change come from
 * `cache` instead of being read again. A file that does not load (a Parquet file half written, a
 * file gone since the listing) is one issue naming it; the run's other files still load.
 *
 * @returns the indexed state when the one file was indexed, else null
 */
export async function runLoadRemote(
  job: Extract<LoadRequest, { kind: "load-remote" }>,
  emit: (reply: LoadReply) => void,
  isCancelled: () => boolean,
  cache: RemoteCache,
): Promise<WorkerIndex | null> {
  const { requestId } = job;
  try {
    const sources = await Promise.all(
      job.files.map(async (ref) => {
        const full = httpByteSource({
          url: ref.url,
          name: ref.run.path,
          size: ref.run.size,
          headers: job.headers,
        });
        const { size, heldBack } = await completeLinesSize(full);
        return { ref, source: sourcePrefix(full, size), heldBack };
      }),
    );
    const heldBack = sources.reduce((n, s) => n + s.heldBack, 0);
    if (sources.length === 1) {
      const only = sources[0]!;
      cache.files.clear();
      const previous = cache.indexed;
      cache.indexed = null;
      if (
        previous !== null &&
        previous.id === only.ref.id &&
        !(job.reread ?? []).includes(only.ref.id)
      ) {
        const dataset = await extendIndexedFile(previous.state, only.source, {
          isCancelled,
          onProgress: () => undefined,
          onFirstGroup: () => undefined,
        });
        if (dataset !== null) {
          cache.indexed = previous;
          emit({ kind: "done", requestId, dataset, heldBack });
          return previous.state;
        }
      }
      let indexed: IndexedState | null = null;
      await runLoad(
        {
          requestId,
          file: only.source,
          follow: true,
          ...(job.format === undefined ? {} : { format: job.format }),
          ...(job.indexThreshold === undefined ? {} : { indexThreshold: job.indexThreshold }),
        },
        (reply) => emit(reply.kind === "done" ? { ...reply, heldBack } : reply),
        isCancelled,
      ).then((state) => (indexed = state));
      if (indexed !== null) cache.indexed = { id: only.ref.id, state: indexed };
      return indexed;
    }
    cache.indexed = null;
    for (const id of job.reread ?? []) cache.files.delete(id);
    const live = new Set(job.files.map((f) => f.id));
    for (const id of [...cache.files.keys()]) if (!live.has(id)) cache.files.delete(id);
    const totalBytes = sources.reduce((n, s) => n + s.source.size, 0);
    const index = totalBytes >= (job.indexThreshold ?? INDEX_MIN_BYTES);
    let done = 0;
    const parts: RunPart[] = [];
    const states: (IndexedState | null)[] = [];
    const failed: ParseIssue[] = [];
    const reports: RunReport[] = [];
    const headers: RunHeader[] = [];
    const kind = sources.some((s) => isTrajectoryPath(s.ref.run.path))
      ? "agent-trajectories"
      : "files";
    for (const { ref, source } of sources) {
      const file = { ...ref.run, size: source.size };
      const cached = cache.files.get(ref.id);
      if (cached !== undefined && cached.size === source.size) {
        parts.push({ file, dataset: cached.dataset });
        states.push(cached.state);
        done += source.size;
        continue;
      }
      emit({
        kind: "progress",
        requestId,
        phase: index ? "indexing" : "reading",
        bytes: done,
        totalBytes,
      });
      try {
        // A followed indexed file that grew is indexed from where its last read stopped.
        const grown =
          cached?.state?.progress !== undefined
            ? await extendIndexedFile(cached.state, namedSource(source, ref.run.path), {
                ...QUIET,
                isCancelled,
              })
            : null;
        const loaded =
          grown !== null && cached?.state !== undefined && cached.state !== null
            ? { dataset: grown, state: cached.state }
            : await loadRunPart(ref.run.path, source, job.format, index, true, isCancelled, kind);
        if (!isPart(loaded)) {
          if ("report" in loaded) reports.push(loaded.report);
          else if ("header" in loaded) headers.push(loaded.header);
          else failed.push(loaded.issue);
          done += source.size;
          continue;
        }
        const part = loaded;
        cache.files.set(ref.id, { size: source.size, ...part });
        parts.push({ file, dataset: part.dataset });
        states.push(part.state);
      } catch (e) {
        if (e instanceof LoadCancelled) throw e;
        cache.files.delete(ref.id);
        failed.push({
          file: ref.run.path,
          line: 0,
          message: `${e instanceof Error ? e.message : String(e)} (the file is left out of the run; it is read again when it changes)`,
        });
      }
      if (isCancelled()) throw new LoadCancelled();
      done += source.size;
    }
    if (parts.length === 0)
      throw new LoadError(
        job.name,
        `no file of the run could be read: ${failed.map((i) => `${i.file}: ${i.message}`).join("; ")}`,
      );
    const merged = withRunHeader(runDatasetMerge(job.name, parts, reports), headers);
    emit({
      kind: "done",
      requestId,
      dataset: failed.length === 0 ? merged : { ...merged, issues: [...failed, ...merged.issues] },
      heldBack,
    });
    return runIndexOf(states, merged);
  } catch (e) {
    emit(errorReply(requestId, job.name, e));
    return null;
  }
}
