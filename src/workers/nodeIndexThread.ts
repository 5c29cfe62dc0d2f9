/**
 * An index thread in Node (worker_threads): nodeIndexPool.ts's counterpart of index.worker.ts. A
 * file arrives as a path (a file-backed Blob cannot cross threads in Node 20: it aborts the
 * process), read with positioned reads into reused buffers (io's nodeFileSource), or as an
 * in-memory Blob.
 */
import { parentPort } from "node:worker_threads";

import type { ByteSource } from "../io/index.ts";
import { nodeFileSource } from "../io/stream/nodeFileSource.ts";
import { indexThread, type IndexRequest } from "./indexPool.ts";

/** A file named by its path, opened in the thread. */
export interface NodeFileRef {
  readonly path: string;
  /** The bytes to read (the size the run was listed with; a file may have grown since). */
  readonly size?: number;
}

const isPathRef = (file: unknown): file is NodeFileRef =>
  typeof file === "object" && file !== null && typeof (file as NodeFileRef).path === "string";

function blobSource(blob: Blob): ByteSource {
  return {
    name: "",
    size: blob.size,
    stream: () => blob.stream(),
    slice: (start, end) => blob.slice(start, end),
  };
}

const port = parentPort;
if (port !== null) {
  const handle = indexThread(
    (file) =>
      isPathRef(file) ? nodeFileSource(file.path, file.path, file.size) : blobSource(file as Blob),
    (reply, transfer) => port.postMessage(reply, transfer),
  );
  port.on("message", (request: IndexRequest) => handle(request));
  // Every module is loaded: the pool may time its first job from here (nodeIndexPool's `ready`).
  port.postMessage({ kind: "ready" });
}
