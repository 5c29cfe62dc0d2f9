/**
 * A file on disk as a ByteSource for Node (the index threads of nodeIndexPool, the CLI): its stream
 * is a byte stream whose reads are positioned `FileHandle.read`s straight into the reader's buffer,
 * so a BYOB reader (readBlob.ts `blobChunks`) reads the file through two reused 1 MB buffers. Node's
 * file-backed Blob reads 64 KB pieces through a queue and copies them together into a new
 * ArrayBuffer per read; on a run of small rows that cost about a fifth of the index time, with the
 * garbage it made. Node only: not exported from io's index (the browser bundle never loads it).
 */
import { closeSync, openSync, readSync } from "node:fs";
import { open, stat } from "node:fs/promises";

import type { ByteSource } from "./byteSource.ts";

/** Bytes a default (non-BYOB) reader gets per read. */
const AUTO_CHUNK = 1 << 20;

/**
 * Read [start, end) of `path` into a new buffer (short only if the file shrank). Synchronous: a
 * group's rows are a few KB read one group after another (the CLI's analyze), where each async
 * open and read waited a round trip to libuv's thread pool (a fifth of a small-row analyze idle).
 */
function readRange(path: string, start: number, end: number): ArrayBuffer {
  const out = new Uint8Array(Math.max(0, end - start));
  const fd = openSync(path, "r");
  try {
    let filled = 0;
    while (filled < out.length) {
      const read = readSync(fd, out, filled, out.length - filled, start + filled);
      if (read === 0) break;
      filled += read;
    }
    return filled === out.length ? out.buffer : out.slice(0, filled).buffer;
  } finally {
    closeSync(fd);
  }
}

/**
 * The first `size` bytes of the file at `path` (default: its size now), named `name`. The file is
 * opened by each stream and slice read, and closed when that read ends or is cancelled.
 */
export async function nodeFileSource(
  path: string,
  name: string = path,
  size?: number,
): Promise<ByteSource> {
  const total = size ?? (await stat(path)).size;
  return {
    name,
    size: total,
    readsInPlace: true,
    slice: (start, end) => {
      const from = Math.min(Math.max(0, start), total);
      const to = Math.min(Math.max(from, end), total);
      return { arrayBuffer: () => Promise.resolve().then(() => readRange(path, from, to)) };
    },
    stream: () => {
      let handle: Awaited<ReturnType<typeof open>> | null = null;
      let position = 0;
      const close = async (): Promise<void> => {
        const h = handle;
        handle = null;
        await h?.close();
      };
      return new ReadableStream({
        type: "bytes",
        autoAllocateChunkSize: AUTO_CHUNK,
        async start() {
          handle = await open(path, "r");
        },
        async pull(controller) {
          const request = controller.byobRequest;
          if (handle === null || request?.view == null) return;
          const view = request.view;
          const want = Math.min(view.byteLength, total - position);
          const target = new Uint8Array(view.buffer, view.byteOffset, view.byteLength);
          const { bytesRead } =
            want > 0 ? await handle.read(target, 0, want, position) : { bytesRead: 0 };
          if (bytesRead === 0) {
            // The end (or the file shrank under us): close, then release the pending request.
            await close();
            controller.close();
            request.respond(0);
            return;
          }
          position += bytesRead;
          request.respond(bytesRead);
        },
        async cancel() {
          await close();
        },
      });
    },
  };
}
