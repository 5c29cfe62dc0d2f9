/**
 * The main thread's side of the load worker: one worker, request ids, cancel, and a fallback to the
 * main thread when Workers are unavailable (the studio still works, it just blocks while parsing).
 */
import { AmbiguousFormatError, LoadError, loadBytes } from "../io/index.ts";
import type { FormatOptions } from "../io/index.ts";
import type { LoadReply, LoadRequest } from "./protocol.ts";
import { LoadCancelled, readFileBytes } from "./readFile.ts";

export type LoadEvent = LoadReply;

export interface LoadHandle {
  readonly requestId: number;
  cancel(): void;
}

let worker: Worker | null = null;
let workerUnavailable = false;
let nextId = 1;
const listeners = new Map<number, (event: LoadEvent) => void>();

function getWorker(): Worker | null {
  if (workerUnavailable) return null;
  if (worker !== null) return worker;
  try {
    worker = new Worker(new URL("./load.worker.ts", import.meta.url), { type: "module" });
    worker.onmessage = (event: MessageEvent<LoadReply>) => {
      const reply = event.data;
      const listener = listeners.get(reply.requestId);
      if (listener === undefined) return;
      if (reply.kind !== "progress") listeners.delete(reply.requestId);
      listener(reply);
    };
    worker.onerror = (event) => {
      // A crashed worker fails every pending load loudly, and the next load starts a new worker.
      for (const [requestId, listener] of listeners) {
        listener({
          kind: "error",
          requestId,
          message: `the loader stopped unexpectedly: ${event.message}`,
        });
      }
      listeners.clear();
      worker?.terminate();
      worker = null;
    };
    return worker;
  } catch {
    workerUnavailable = true;
    return null;
  }
}

/** True once creating a Worker has failed; loads then run on the main thread. */
export function isWorkerUnavailable(): boolean {
  return workerUnavailable;
}

async function loadOnMainThread(
  requestId: number,
  file: File,
  format: string | undefined,
  options: FormatOptions | undefined,
  isCancelled: () => boolean,
  emit: (event: LoadEvent) => void,
): Promise<void> {
  try {
    const bytes = await readFileBytes(
      file,
      (n) =>
        emit({ kind: "progress", requestId, phase: "reading", bytes: n, totalBytes: file.size }),
      isCancelled,
    );
    const result = await loadBytes(file.name, bytes, {
      ...(format === undefined ? {} : { format }),
      ...(options === undefined ? {} : { options }),
    });
    emit(isCancelled() ? { kind: "cancelled", requestId } : { kind: "done", requestId, result });
  } catch (e) {
    if (e instanceof LoadCancelled) emit({ kind: "cancelled", requestId });
    else if (e instanceof AmbiguousFormatError)
      emit({ kind: "error", requestId, message: e.message, candidates: e.candidates });
    else if (e instanceof LoadError)
      emit({
        kind: "error",
        requestId,
        message: e.message,
        unknownFormat: /no known format/.test(e.message),
      });
    else emit({ kind: "error", requestId, message: e instanceof Error ? e.message : String(e) });
  }
}

/** Start loading a file; events arrive through `onEvent` until done, error or cancelled. */
export function startLoad(
  file: File,
  onEvent: (event: LoadEvent) => void,
  choice: { format?: string; options?: FormatOptions } = {},
): LoadHandle {
  const requestId = nextId++;
  const w = getWorker();
  if (w === null) {
    let cancelled = false;
    loadOnMainThread(
      requestId,
      file,
      choice.format,
      choice.options,
      () => cancelled,
      onEvent,
    ).catch((e: unknown) => {
      onEvent({ kind: "error", requestId, message: `${file.name}: ${String(e)}` });
    });
    return {
      requestId,
      cancel: () => {
        cancelled = true;
      },
    };
  }
  listeners.set(requestId, onEvent);
  const request: LoadRequest = {
    kind: "load",
    requestId,
    file,
    ...(choice.format === undefined ? {} : { format: choice.format }),
    ...(choice.options === undefined ? {} : { options: choice.options }),
  };
  w.postMessage(request);
  return {
    requestId,
    cancel: () => {
      const cancel: LoadRequest = { kind: "cancel", requestId };
      w.postMessage(cancel);
    },
  };
}
