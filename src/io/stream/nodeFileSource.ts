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

/** How long a slice reader keeps its file open (and its read-ahead) after its last read. */
const SLICE_IDLE_MS = 100;
/** Bytes read ahead for a run of small slices, each starting at or just after the last one's end. */
const READ_AHEAD = 1 << 20;
/** A slice at most this long, starting at most this far after the last one's end, is sequential. */
const SEQUENTIAL = 64 << 10;

/**
 * Reads [start, end) of `path` into a new buffer (short only if the file shrank). Synchronous: a
 * group's rows are a few KB read one group after another (the CLI's analyze), where each async
 * open and read waited a round trip to libuv's thread pool (a fifth of a small-row analyze idle).
 *
 * The file stays open between reads and is closed once no read came for {@link SLICE_IDLE_MS}
 * (opening it for each group cost a sixth of `analyze` on a file of 100,000 small groups), and
 * small slices read in file order are served from a {@link READ_AHEAD} window, one system call per
 * megabyte instead of one per group. Slices out of order (interleaved groups) are read on their
 * own. The window goes when the file closes; a file renamed over within that time is read as it
 * was.
 */
export function sliceReader(path: string): (start: number, end: number) => ArrayBuffer {
  let fd: number | null = null;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let window: Uint8Array | null = null;
  let windowStart = 0;
  let windowLength = 0;
  let lastEnd = -1;
  const close = (): void => {
    if (fd !== null) closeSync(fd);
    fd = null;
    window = null;
    windowLength = 0;
    lastEnd = -1;
  };
  const readAt = (into: Uint8Array, length: number, position: number): number => {
    let filled = 0;
    while (filled < length) {
      const read = readSync(fd!, into, filled, length - filled, position + filled);
      if (read === 0) break;
      filled += read;
    }
    return filled;
  };
  return (start, end) => {
    const length = Math.max(0, end - start);
    if (fd === null) fd = openSync(path, "r");
    if (timer === null) {
      timer = setTimeout(close, SLICE_IDLE_MS);
      // A pending close never keeps the process alive.
      timer.unref?.();
    } else timer.refresh();
    try {
      const sequential =
        length <= SEQUENTIAL && lastEnd >= 0 && start >= lastEnd && start - lastEnd <= SEQUENTIAL;
      lastEnd = start + length;
      const inWindow =
        window !== null && start >= windowStart && start + length <= windowStart + windowLength;
      const refill = !inWindow && sequential;
      if (refill) {
        window ??= new Uint8Array(READ_AHEAD);
        windowStart = start;
        windowLength = readAt(window, READ_AHEAD, start);
      }
      if (window !== null && (inWindow || refill)) {
        const from = start - windowStart;
        // Short only where the file ends inside the window.
        return window.slice(from, Math.min(from + length, windowLength)).buffer;
      }
      const out = new Uint8Array(length);
      const filled = readAt(out, length, start);
      return filled === out.length ? out.buffer : out.slice(0, filled).buffer;
    } catch (e) {
      close();
      throw e;
    }
  };
}

/**
 * The first `size` bytes of the file at `path` (default: its size now), named `name`. The file is
 * opened by each stream, and closed when its read ends or is cancelled; slices share one open
 * file, closed when idle.
 */
export async function nodeFileSource(
  path: string,
  name: string = path,
  size?: number,
): Promise<ByteSource> {
  const total = size ?? (await stat(path)).size;
  const readRange = sliceReader(path);
  return {
    name,
    size: total,
    slice: (start, end) => {
      const from = Math.min(Math.max(0, start), total);
      const to = Math.min(Math.max(from, end), total);
      return { arrayBuffer: () => Promise.resolve().then(() => readRange(from, to)) };
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
