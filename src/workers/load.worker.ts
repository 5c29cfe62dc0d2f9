/// <reference lib="webworker" />
/**
 * The load worker: reads the chosen file off the main thread and runs the same loaders as the CLI.
 * A thin switch over the protocol; all logic lives in src/io.
 */
import { AmbiguousFormatError, LoadError, loadBytes } from "../io/index.ts";
import type { LoadReply, LoadRequest } from "./protocol.ts";
import { LoadCancelled, readFileBytes } from "./readFile.ts";

declare const self: DedicatedWorkerGlobalScope;

const cancelled = new Set<number>();
const PROGRESS_EVERY_BYTES = 8 << 20;

function post(reply: LoadReply): void {
  self.postMessage(reply);
}

async function load(request: Extract<LoadRequest, { kind: "load" }>): Promise<void> {
  const { requestId, file } = request;
  const isCancelled = () => cancelled.has(requestId);
  let lastReported = -Infinity;
  try {
    post({ kind: "progress", requestId, phase: "reading", bytes: 0, totalBytes: file.size });
    const bytes = await readFileBytes(
      file,
      (n) => {
        if (n - lastReported < PROGRESS_EVERY_BYTES && n < file.size) return;
        lastReported = n;
        post({ kind: "progress", requestId, phase: "reading", bytes: n, totalBytes: file.size });
      },
      isCancelled,
    );
    post({
      kind: "progress",
      requestId,
      phase: "parsing",
      bytes: bytes.length,
      totalBytes: file.size,
    });
    const result = await loadBytes(file.name, bytes, {
      ...(request.format === undefined ? {} : { format: request.format }),
      ...(request.options === undefined ? {} : { options: request.options }),
    });
    if (isCancelled()) throw new LoadCancelled();
    post({ kind: "done", requestId, result });
  } catch (e) {
    if (e instanceof LoadCancelled) post({ kind: "cancelled", requestId });
    else if (e instanceof AmbiguousFormatError) {
      post({ kind: "error", requestId, message: e.message, candidates: e.candidates });
    } else if (e instanceof LoadError) {
      post({
        kind: "error",
        requestId,
        message: e.message,
        unknownFormat: /no known format/.test(e.message),
      });
    } else
      post({
        kind: "error",
        requestId,
        message: `${file.name}: ${e instanceof Error ? e.message : String(e)}`,
      });
  } finally {
    cancelled.delete(requestId);
  }
}

self.onmessage = (event: MessageEvent<LoadRequest>) => {
  const request = event.data;
  if (request.kind === "cancel") cancelled.add(request.requestId);
  else
    load(request).catch((e: unknown) => {
      post({
        kind: "error",
        requestId: request.requestId,
        message: `${request.file.name}: ${String(e)}`,
      });
    });
};
