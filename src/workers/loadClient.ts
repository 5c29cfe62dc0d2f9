/**
 * The main thread's side of the load worker: one worker on a `WorkerChannel` (a fresh one per
 * load), cancel, group requests, and a fallback to the main thread when Workers are unavailable
 * (the studio still works; it blocks while parsing). A `LoadClient` owns its channel: the studio's
 * dataset has one (the functions exported below), and a second run opened to compare with
 * (issue 19) has its own, so loading one never terminates the worker that holds the other's index.
 */
import type { FormatOptions, RunFile } from "../io/index.ts";
import { unpackSummariesSliced } from "../io/packedSummaries.ts";
import type * as Loaders from "./loadFile.ts";
import type { RemoteCache, WorkerIndex } from "./loadFile.ts";

import type { LoadReply, LoadRequest, RemoteFileRef } from "./protocol.ts";
import { WorkerChannel, type ChannelListener } from "./workerChannel.ts";
import { yieldTask } from "./yieldTask.ts";

export type LoadEvent = LoadReply;

export interface LoadHandle {
  readonly requestId: number;
  cancel(): void;
}

/** Every load client's worker: the one `new Worker` expression the bundler finds. */
const startLoadWorker = (): Worker =>
  new Worker(new URL("./load.worker.ts", import.meta.url), { type: "module" });

/**
 * A reply as the worker meant it: a "done" reply's packed summaries unpacked into its dataset, a
 * slice per macrotask (a 100,000-group dataset unpacked at once was a 176 ms task at index-done).
 */
async function unpackedReply(reply: LoadReply): Promise<LoadReply> {
  if (reply.kind !== "done" || reply.packedSummaries === undefined) return reply;
  const { packedSummaries, ...rest } = reply;
  const summaries = await unpackSummariesSliced(packedSummaries, yieldTask);
  return { ...rest, dataset: { ...rest.dataset, summaries } };
}

type LoadChannel = WorkerChannel<LoadRequest, LoadReply>;

/**
 * Route one load's replies to `onEvent`: progress and the first group as they come, then one last
 * event. A "done" reply with packed summaries is delivered once unpacked, unless the load was
 * cancelled or replaced meanwhile (it is then told so instead). A crashed worker fails the load
 * loudly; a worker terminated for the next load cancels it.
 */
function loadListener(
  channel: LoadChannel,
  requestId: number,
  onEvent: (event: LoadEvent) => void,
): ChannelListener<LoadReply> {
  let live = true;
  const deliver = (event: LoadEvent): void => {
    if (!live) return;
    live = false;
    channel.forget(requestId);
    onEvent(event);
  };
  return {
    reply: (data) => {
      if (data.kind === "done" && data.packedSummaries !== undefined) {
        unpackedReply(data).then(deliver, (e: unknown) =>
          deliver({
            kind: "error",
            requestId,
            message: `the loaded groups could not be read: ${e instanceof Error ? e.message : String(e)}`,
          }),
        );
        return false;
      }
      if (data.kind === "progress" || data.kind === "first-group") {
        if (live) onEvent(data);
        return false;
      }
      deliver(data);
      return true;
    },
    stopped: (reason, detail) =>
      deliver(
        reason === "terminated"
          ? { kind: "cancelled", requestId }
          : { kind: "error", requestId, message: `the loader stopped unexpectedly: ${detail}` },
      ),
  };
}

/**
 * How long a prewarm waits for an idle moment. Headless Chromium gave none for 2 s after the
 * first paint, so a file chosen at once waited ~300 ms for its worker to start (fetch and compile).
 */
const PREWARM_IDLE_TIMEOUT_MS = 250;

type LoadFileModule = typeof Loaders;

export interface RemoteLoadJob {
  readonly name: string;
  readonly files: readonly RemoteFileRef[];
  readonly headers: Readonly<Record<string, string>>;
  readonly format?: string;
  readonly indexThreshold?: number;
  readonly reread?: readonly string[];
}

/** One load worker and what its main-thread fallback keeps (see the module header). */
export class LoadClient {
  private readonly channel: LoadChannel = new WorkerChannel(startLoadWorker);
  /** The fallback's remote run files as last read (the worker keeps its own). */
  private fallbackCache: RemoteCache | null = null;
  /** The fallback's indexed file, when loads run on the main thread. */
  private localIndexed: WorkerIndex | null = null;

  /**
   * Start a load worker ahead of the next load (its start-up, about 70-90 ms on a 2-core machine,
   * would otherwise delay the first group). Does nothing when a spare is waiting or Workers are
   * unavailable.
   */
  prewarm(): void {
    this.channel.prestart();
  }

  /** {@link prewarm} once the page is idle (within 250 ms at the latest). */
  prewarmWhenIdle(): void {
    if (!this.channel.available) return;
    const prewarm = (): void => this.prewarm();
    if (typeof requestIdleCallback === "function")
      requestIdleCallback(prewarm, { timeout: PREWARM_IDLE_TIMEOUT_MS });
    else setTimeout(prewarm, 0);
  }

  /** True once creating a Worker has failed; loads then run on the main thread. */
  get workerUnavailable(): boolean {
    return !this.channel.available;
  }

  /**
   * A new worker for every load: in Chromium 156 a second BYOB stream read by a reused worker
   * stalled for good in about half of the tries (bench/README.md), and a fresh worker never did.
   * The spare counts as fresh: it has read nothing. The old one, with the previous file's index,
   * is terminated.
   */
  private freshWorker(): Worker | null {
    return this.channel.fresh();
  }

  /**
   * Send a load to its worker, or, with none (`w` null), run it here: the loaders are then loaded
   * on demand, off the main bundle, and the index they return is kept for group requests.
   */
  private dispatch(
    w: Worker | null,
    request: Extract<LoadRequest, { kind: "load" | "load-run" | "load-remote" }>,
    onEvent: (event: LoadEvent) => void,
    name: string,
    runHere: (loaders: LoadFileModule, isCancelled: () => boolean) => Promise<WorkerIndex | null>,
  ): LoadHandle {
    const { requestId } = request;
    if (w === null) {
      let cancelled = false;
      import("./loadFile.ts")
        .then((loaders) => runHere(loaders, () => cancelled))
        .then((index) => {
          this.localIndexed = index;
        })
        .catch((e: unknown) =>
          onEvent({ kind: "error", requestId, message: `${name}: ${String(e)}` }),
        );
      return {
        requestId,
        cancel: () => {
          cancelled = true;
        },
      };
    }
    this.channel.send(request, loadListener(this.channel, requestId, onEvent));
    return {
      requestId,
      // To the load's own worker: once a later load has replaced it, there is nothing to cancel.
      cancel: () => w.postMessage({ kind: "cancel", requestId } satisfies LoadRequest),
    };
  }

  /** Start loading a file; events arrive through `onEvent` until done, error or cancelled. */
  startLoad(
    file: File,
    onEvent: (event: LoadEvent) => void,
    choice: { format?: string; options?: FormatOptions; indexThreshold?: number } = {},
  ): LoadHandle {
    const request = {
      kind: "load" as const,
      requestId: this.channel.nextRequestId(),
      file,
      ...(choice.format === undefined ? {} : { format: choice.format }),
      ...(choice.options === undefined ? {} : { options: choice.options }),
      ...(choice.indexThreshold === undefined ? {} : { indexThreshold: choice.indexThreshold }),
    };
    return this.dispatch(this.freshWorker(), request, onEvent, file.name, (loaders, cancelled) =>
      loaders.runLoad(request, onEvent, cancelled),
    );
  }

  /**
   * Start loading several files as one run (merged; a run of 32 MB or more indexed file by file);
   * events as startLoad's.
   */
  startRunLoad(
    name: string,
    files: readonly { readonly file: File; readonly run: RunFile }[],
    onEvent: (event: LoadEvent) => void,
    format?: string,
    indexThreshold?: number,
  ): LoadHandle {
    const request = {
      kind: "load-run" as const,
      requestId: this.channel.nextRequestId(),
      name,
      files,
      ...(format === undefined ? {} : { format }),
      ...(indexThreshold === undefined ? {} : { indexThreshold }),
    };
    const w = this.freshWorker();
    if (w === null) this.localIndexed = null;
    return this.dispatch(w, request, onEvent, name, (loaders, cancelled) =>
      loaders.runLoadRun(request, onEvent, cancelled),
    );
  }

  /**
   * Load a run from the view server (the worker reads it by range requests). `again`: the run on
   * screen changed; the same worker reads it again, so files that did not change are not re-read
   * (a first load takes a fresh worker, as every load does).
   */
  startRemoteLoad(
    job: RemoteLoadJob,
    onEvent: (event: LoadEvent) => void,
    again: boolean,
  ): LoadHandle {
    const request = {
      kind: "load-remote" as const,
      requestId: this.channel.nextRequestId(),
      ...job,
    };
    const w = again && this.channel.running ? this.channel.current() : this.freshWorker();
    return this.dispatch(w, request, onEvent, job.name, (loaders, cancelled) =>
      loaders.runLoadRemote(
        request,
        onEvent,
        cancelled,
        (this.fallbackCache ??= loaders.remoteCacheEmpty()),
      ),
    );
  }

  /** Parse one group of the last indexed file. */
  requestGroup(
    groupId: string,
    onReply: (event: Extract<LoadEvent, { kind: "group" | "error" }>) => void,
  ): void {
    const requestId = this.channel.nextRequestId();
    if (!this.channel.running) {
      const state = this.localIndexed;
      if (state === null) {
        onReply({ kind: "group", requestId, groupId, group: null, issues: [] });
        return;
      }
      import("./loadFile.ts")
        .then(({ readWorkerGroup }) => readWorkerGroup(state, groupId))
        .then(({ group, issues }) => onReply({ kind: "group", requestId, groupId, group, issues }))
        .catch((e: unknown) => onReply({ kind: "error", requestId, message: String(e) }));
      return;
    }
    this.channel.send(
      { kind: "group", requestId, groupId },
      {
        reply: (event) => {
          if (event.kind !== "group" && event.kind !== "error") return false;
          onReply(event);
          return true;
        },
        // A crash fails the request; a load that replaced the worker leaves it unanswered, as
        // the group belonged to the file before.
        stopped: (reason, detail) => {
          if (reason === "crashed")
            onReply({
              kind: "error",
              requestId,
              message: `the loader stopped unexpectedly: ${detail}`,
            });
        },
      },
    );
  }

  /** Stop the worker (and the index it holds): the run it read is closed. */
  close(): void {
    this.channel.terminate();
    this.localIndexed = null;
    this.fallbackCache = null;
  }
}

/** The studio's dataset's client. */
const main = new LoadClient();

/** {@link LoadClient.prewarm} of the dataset's client. */
export function prewarmLoadWorker(): void {
  main.prewarm();
}

/** {@link LoadClient.prewarmWhenIdle} of the dataset's client. */
export function prewarmLoadWorkerWhenIdle(): void {
  main.prewarmWhenIdle();
}

/** True once creating a Worker has failed; loads then run on the main thread. */
export function isWorkerUnavailable(): boolean {
  return main.workerUnavailable;
}

/** {@link LoadClient.startLoad} on the dataset's client. */
export function startLoad(
  file: File,
  onEvent: (event: LoadEvent) => void,
  choice: { format?: string; options?: FormatOptions; indexThreshold?: number } = {},
): LoadHandle {
  return main.startLoad(file, onEvent, choice);
}

/** {@link LoadClient.startRunLoad} on the dataset's client. */
export function startRunLoad(
  name: string,
  files: readonly { readonly file: File; readonly run: RunFile }[],
  onEvent: (event: LoadEvent) => void,
  format?: string,
  indexThreshold?: number,
): LoadHandle {
  return main.startRunLoad(name, files, onEvent, format, indexThreshold);
}

/** {@link LoadClient.startRemoteLoad} on the dataset's client. */
export function startRemoteLoad(
  job: RemoteLoadJob,
  onEvent: (event: LoadEvent) => void,
  again: boolean,
): LoadHandle {
  return main.startRemoteLoad(job, onEvent, again);
}

/** Parse one group of the dataset's indexed file. */
export function requestGroup(
  groupId: string,
  onReply: (event: Extract<LoadEvent, { kind: "group" | "error" }>) => void,
): void {
  main.requestGroup(groupId, onReply);
}
