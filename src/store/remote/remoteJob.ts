/**
 * A view-server run as the load worker reads it: each listed file's bytes URL and its place in
 * the run, with the token's header. Pure over the listing, so it is testable without a server.
 */
import type { RunFile } from "../../io/runs/runFiles.ts";
import { viewRunName } from "../../io/view/viewNames.ts";
import type { RemoteLoadJob } from "../../workers/loadClient.ts";
import { viewFileUrl, viewHeaders, type RemoteRun } from "./viewSession.ts";

/** Why the run on screen is read again: the files to read from the start, what to tell the user. */
export interface RemoteRefresh {
  /** Ids of files that shrank or were rewritten: not taken from the worker's cache. */
  readonly reread: readonly string[];
  readonly notices: readonly string[];
}

export function remoteLoadJob(remote: RemoteRun, reread: readonly string[]): RemoteLoadJob {
  const { listing, session } = remote;
  const run = listing.runs[remote.run];
  if (run === undefined) throw new Error(`the server lists no run ${remote.run}`);
  return {
    name: viewRunName(listing, run),
    files: run.files.map((f) => {
      const file: RunFile = {
        path: f.path,
        size: f.size,
        mtimeMs: f.mtimeMs,
        step: f.step,
        stepSource: f.stepSource,
      };
      return { url: viewFileUrl(session, f.id), id: f.id, run: file };
    }),
    headers: viewHeaders(session),
    ...(listing.format === null ? {} : { format: listing.format }),
    ...(reread.length === 0 ? {} : { reread }),
    ...(remote.indexThreshold === undefined ? {} : { indexThreshold: remote.indexThreshold }),
  };
}
