/**
 * An index pool: where the files of a large run are indexed (issue 14, "indexing a 100-file run of
 * 2 GB"). `runLoadRun` hands it one file at a time and gets back the file's dataset and packed index
 * (io's `indexRunFile`, the one indexing function everywhere). Three kinds, one interface:
 * - `inThreadIndexPool`: in the calling thread, one file after another (where no worker can start);
 * - `portIndexPool` over worker threads that each index whole files at once: Web Workers nested in
 *   the load worker (browserIndexPool.ts, index.worker.ts), or Node's worker_threads
 *   (nodeIndexPool.ts, for the bench and tests);
 * - `indexThread` is the worker's side of the message protocol, shared by both entries.
 */
import {
  indexRunFile,
  LoadCancelled,
  namedSource,
  packedIndexTransfer,
  type ByteSource,
  type PromptHashes,
  type RunFileIndex,
  type RunFileIndexCallbacks,
  type RunFormatHint,
} from "../io/index.ts";

/** One file of a run to index. */
export interface IndexJob {
  /** The file's bytes (a File in the browser). */
  readonly file: ByteSource;
  /** Its path in the run: the name its dataset and issues carry. */
  readonly path: string;
  readonly format?: string;
  /** The run's format, detected on its first file (null: detect each file). */
  readonly hint: RunFormatHint | null;
}

export interface IndexPool {
  /** How many files it indexes at once. */
  readonly size: number;
  /**
   * Index one file; jobs beyond `size` wait their turn, in the order given.
   *
   * @throws LoadCancelled when cancelled; any other error when the file could not be indexed
   *   there (the caller reads it in its own thread instead, which reports the same error)
   */
  index(job: IndexJob, callbacks: RunFileIndexCallbacks): Promise<RunFileIndex>;
  /** Stop its threads; pending jobs fail. */
  close(): void;
}

/** The pool of the calling thread: one file at a time, with one prompt-hash cache. */
export function inThreadIndexPool(): IndexPool {
  const hashes: PromptHashes = new Map();
  let queue: Promise<unknown> = Promise.resolve();
  return {
    size: 1,
    index(job, callbacks) {
      const run = queue.then(() =>
        indexRunFile(namedSource(job.file, job.path), job.format, job.hint, hashes, callbacks),
      );
      queue = run.catch(() => undefined);
      return run;
    },
    close: () => undefined,
  };
}

/** Messages to an index thread. `file` is what the thread opens (a Blob, or a path in Node). */
export type IndexRequest =
  | {
      readonly kind: "index";
      readonly jobId: number;
      readonly file: unknown;
      readonly path: string;
      readonly format?: string;
      readonly hint: RunFormatHint | null;
    }
  | { readonly kind: "cancel"; readonly jobId: number };

export type IndexReply =
  | { readonly kind: "progress"; readonly jobId: number; readonly bytes: number }
  | { readonly kind: "done"; readonly jobId: number; readonly result: RunFileIndex }
  | {
      readonly kind: "failed";
      readonly jobId: number;
      readonly message: string;
      readonly cancelled: boolean;
    };

/** One index thread as the pool sees it (a Web Worker or a worker_threads Worker). */
export interface IndexPort {
  post(request: IndexRequest): void;
  /** Replies, and a thread that failed (could not start, crashed). */
  listen(onReply: (reply: IndexReply) => void, onError: (message: string) => void): void;
  terminate(): void;
}

/**
 * The worker's side: answer index requests, one prompt-hash cache for every file this thread
 * indexes. `open` turns a request's `file` into a source.
 */
export function indexThread(
  open: (file: unknown) => ByteSource | Promise<ByteSource>,
  post: (reply: IndexReply, transfer: ArrayBuffer[]) => void,
): (request: IndexRequest) => void {
  const hashes: PromptHashes = new Map();
  const cancelled = new Set<number>();
  // Jobs run one after another: the pool sends a thread its next job before this one ends
  // (JOBS_PER_THREAD), so the thread goes on without waiting for a round trip.
  let queue: Promise<void> = Promise.resolve();
  return (request) => {
    if (request.kind === "cancel") {
      cancelled.add(request.jobId);
      return;
    }
    queue = queue.then(() => runJob(request));
  };

  function runJob(request: Extract<IndexRequest, { kind: "index" }>): Promise<void> {
    const { jobId } = request;
    let lastReport = 0;
    return Promise.resolve(open(request.file))
      .then((file) =>
        indexRunFile(namedSource(file, request.path), request.format, request.hint, hashes, {
          isCancelled: () => cancelled.has(jobId),
          onProgress: (bytes) => {
            if (bytes - lastReport < PROGRESS_BYTES) return;
            lastReport = bytes;
            post({ kind: "progress", jobId, bytes }, []);
          },
        }),
      )
      .then((result) =>
        post(
          { kind: "done", jobId, result },
          result.kind === "indexed" ? packedIndexTransfer(result.index) : [],
        ),
      )
      .catch((e: unknown) =>
        post(
          {
            kind: "failed",
            jobId,
            message: e instanceof Error ? e.message : String(e),
            cancelled: e instanceof LoadCancelled,
          },
          [],
        ),
      )
      .finally(() => cancelled.delete(jobId));
  }
}

const PROGRESS_BYTES = 8 << 20;
/**
 * Jobs a thread holds at once: the one it runs and the next, so it never idles for the round trip
 * to the load worker (which may be busy merging a finished file) between two files.
 */
const JOBS_PER_THREAD = 2;
/** How often a running job's `isCancelled` is asked (the load worker's flag is a plain Set). */
const CANCEL_POLL_MS = 50;

interface Pending {
  readonly jobId: number;
  readonly job: IndexJob;
  readonly callbacks: RunFileIndexCallbacks;
  readonly resolve: (result: RunFileIndex) => void;
  readonly reject: (error: Error) => void;
  port: IndexPort | null;
}

/**
 * A pool over index threads: each job goes to a free thread, in the order given. `fileRef` turns a
 * job's source into what a thread can open (the File itself in the browser).
 */
export function portIndexPool(
  ports: readonly IndexPort[],
  fileRef: (file: ByteSource) => unknown = (file) => file,
): IndexPool {
  let nextJob = 1;
  /** Free job slots: each thread holds up to JOBS_PER_THREAD jobs (it runs them in turn). */
  const idle: IndexPort[] = ports.flatMap((port) => Array<IndexPort>(JOBS_PER_THREAD).fill(port));
  const live = new Set(ports);
  const waiting: Pending[] = [];
  const running = new Map<number, Pending>();
  let poll: ReturnType<typeof setInterval> | null = null;
  /** Cancelled jobs whose thread has not answered the cancel yet. */
  const cancelling = new Map<number, IndexPort>();

  const settle = (p: Pending): void => {
    running.delete(p.jobId);
    if (p.port !== null && live.has(p.port)) idle.push(p.port);
    p.port = null;
    pump();
  };

  function pump(): void {
    while (idle.length > 0 && waiting.length > 0) {
      const p = waiting.shift()!;
      if (p.callbacks.isCancelled()) {
        p.reject(new LoadCancelled());
        continue;
      }
      const port = idle.shift()!;
      p.port = port;
      running.set(p.jobId, p);
      const { job } = p;
      port.post({
        kind: "index",
        jobId: p.jobId,
        file: fileRef(job.file),
        path: job.path,
        ...(job.format === undefined ? {} : { format: job.format }),
        hint: job.hint,
      });
    }
    if (live.size === 0)
      for (const p of waiting.splice(0)) p.reject(new Error("no index thread is running"));
    if (running.size === 0 && waiting.length === 0 && poll !== null) {
      clearInterval(poll);
      poll = null;
    } else if (poll === null && (running.size > 0 || waiting.length > 0)) {
      poll = setInterval(checkCancelled, CANCEL_POLL_MS);
    }
  }

  /** A cancelled job fails at once; its thread is free again when it has stopped reading. */
  function checkCancelled(): void {
    for (const p of [...waiting, ...running.values()]) {
      if (!p.callbacks.isCancelled()) continue;
      if (p.port === null) {
        waiting.splice(waiting.indexOf(p), 1);
      } else {
        p.port.post({ kind: "cancel", jobId: p.jobId });
        running.delete(p.jobId);
        // The thread answers the cancel with "failed"; it is idle from then on.
        cancelling.set(p.jobId, p.port);
      }
      p.reject(new LoadCancelled());
    }
    pump();
  }

  for (const port of ports) {
    port.listen(
      (reply) => {
        const stopped = cancelling.get(reply.jobId);
        if (stopped !== undefined) {
          if (reply.kind === "progress") return;
          cancelling.delete(reply.jobId);
          if (live.has(stopped)) idle.push(stopped);
          pump();
          return;
        }
        const p = running.get(reply.jobId);
        if (p === undefined) return;
        if (reply.kind === "progress") p.callbacks.onProgress(reply.bytes);
        else if (reply.kind === "done") {
          settle(p);
          p.resolve(reply.result);
        } else {
          settle(p);
          p.reject(reply.cancelled ? new LoadCancelled() : new Error(reply.message));
        }
      },
      (message) => {
        // A thread that failed is dropped; its job fails (read in the caller's thread instead).
        live.delete(port);
        for (let at = idle.indexOf(port); at !== -1; at = idle.indexOf(port)) idle.splice(at, 1);
        for (const p of [...running.values()])
          if (p.port === port) {
            settle(p);
            p.reject(new Error(`an index thread failed: ${message}`));
          }
        port.terminate();
        pump();
      },
    );
  }

  return {
    size: ports.length,
    index(job, callbacks) {
      return new Promise<RunFileIndex>((resolve, reject) => {
        waiting.push({ jobId: nextJob++, job, callbacks, resolve, reject, port: null });
        pump();
      });
    },
    close() {
      for (const port of ports) port.terminate();
      live.clear();
      idle.length = 0;
      if (poll !== null) clearInterval(poll);
      poll = null;
      for (const p of [...waiting.splice(0), ...running.values()])
        p.reject(new Error("the index pool was closed"));
      running.clear();
    },
  };
}
