/**
 * One load, wherever it runs (worker or main-thread fallback): pick the path (index a large JSONL
 * file, or read and parse the whole file), and report through `emit`.
 *
 * The loads live beside it: one file (loadOneFile.ts), a local run (loadRun.ts), a remote run
 * (loadRemote.ts), and what the runs share (loadRunParts.ts); this module is their one entry, as
 * the load worker and the main-thread fallback import it.
 */
export { runLoad, type LoadJob } from "./loadOneFile.ts";
export { readWorkerGroup, type RunIndex, type WorkerIndex } from "./loadRunParts.ts";
export { runLoadRun } from "./loadRun.ts";
export { remoteCacheEmpty, runLoadRemote, type RemoteCache } from "./loadRemote.ts";
