/**
 * Read a File's bytes in 1 MB steps with a BYOB reader into one preallocated buffer, reporting
 * progress and stopping on cancel. Never File.text(): Chromium returns "" past 512 Mi characters and
 * crashes the renderer on 1.2 GB (performance.md section 4).
 */

import type { ByteSource } from "./byteSource.ts";

const CHUNK = 1 << 20;

export class LoadCancelled extends Error {
  override name = "LoadCancelled";
}

export async function readFileBytes(
  file: Pick<ByteSource, "size" | "stream">,
  onProgress: (bytes: number) => void,
  isCancelled: () => boolean,
): Promise<Uint8Array> {
  const out = new Uint8Array(file.size);
  let offset = 0;
  for await (const chunk of blobChunks(file, isCancelled)) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
    onProgress(offset);
  }
  return out.subarray(0, offset);
}

/**
 * Fill `buffer` (given to the reader, so it comes back as another ArrayBuffer) from a BYOB
 * reader: Node's Blob streams, for one, answer a 1 MB read with 64 KB.
 */
async function fill(
  reader: ReadableStreamBYOBReader,
  buffer: ArrayBuffer,
): Promise<{ view: Uint8Array; done: boolean }> {
  let filled = 0;
  let current = buffer;
  for (;;) {
    const { value, done } = await reader.read(new Uint8Array(current, filled, CHUNK - filled));
    if (value !== undefined) {
      current = value.buffer;
      filled += value.byteLength;
    }
    if (done || value === undefined)
      return { view: new Uint8Array(current, 0, filled), done: true };
    if (filled === CHUNK) return { view: new Uint8Array(current, 0, filled), done: false };
  }
}

/**
 * How long a BYOB read may wait before it counts as stalled. Chromium 156 sometimes never settles
 * a BYOB read of a File (bench/README.md, browser benchmark, "Problems found" 3): a load then never
 * ended. A 1 MB read takes milliseconds; this allows for a busy 2-core machine many times over.
 */
export const STALL_MS = 8000;

/** A pending read's result, or "stalled" once it has waited `ms`. */
function orStalled<T>(pending: Promise<T>, ms: number): Promise<T | "stalled"> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const stalled = new Promise<"stalled">((resolve) => {
    timer = setTimeout(() => resolve("stalled"), ms);
  });
  return Promise.race([pending, stalled]).finally(() => clearTimeout(timer));
}

/**
 * The bytes of a Blob in order, in chunks of 1 MB (the last one shorter), read with a BYOB reader
 * into two reused buffers where the platform supports it, else with the default reader. The next
 * chunk is read while the caller handles one; each chunk is valid only until the next is
 * requested. Stops with LoadCancelled when asked.
 *
 * A BYOB read that has not settled after `stallMs` is given up (its reader cancelled, not awaited)
 * and the rest of the source, from the first byte not yet yielded, is read by slices, when the
 * source can be sliced: the bytes are the same, in the same order, once each.
 */
export async function* blobChunks(
  blob: Pick<ByteSource, "stream"> & Partial<Pick<ByteSource, "slice" | "size">>,
  isCancelled: () => boolean,
  stallMs: number = STALL_MS,
): AsyncGenerator<Uint8Array> {
  const stream = blob.stream();
  let reader: ReadableStreamBYOBReader | null = null;
  try {
    reader = stream.getReader({ mode: "byob" });
  } catch {
    reader = null;
  }
  if (reader !== null) {
    const canResume = blob.slice !== undefined && blob.size !== undefined;
    let spare = new ArrayBuffer(CHUNK);
    let yielded = 0;
    let pending: Promise<{ view: Uint8Array; done: boolean }> | null = fill(
      reader,
      new ArrayBuffer(CHUNK),
    );
    while (pending !== null) {
      if (isCancelled()) {
        // Caught before cancelling: cancel settles the pending read, with a detached buffer.
        const settled = pending.catch(() => undefined);
        await reader.cancel();
        await settled;
        throw new LoadCancelled();
      }
      const next: { view: Uint8Array; done: boolean } | "stalled" = canResume
        ? await orStalled(pending, stallMs)
        : await pending;
      if (next === "stalled") {
        pending.catch(() => undefined);
        reader.cancel().catch(() => undefined);
        yield* slicedChunks(blob as Pick<ByteSource, "slice" | "size">, yielded, isCancelled);
        return;
      }
      const view: Uint8Array = next.view;
      pending = next.done ? null : fill(reader, spare);
      if (view.byteLength > 0) {
        yielded += view.byteLength;
        yield view;
      }
      spare = view.buffer as ArrayBuffer;
    }
    return;
  }
  const plain = stream.getReader();
  for (;;) {
    if (isCancelled()) {
      await plain.cancel();
      throw new LoadCancelled();
    }
    const { value, done } = await plain.read();
    if (done) return;
    yield value;
  }
}

/** The bytes of `source` from `from` to its end, in chunks of 1 MB read by slices. */
async function* slicedChunks(
  source: Pick<ByteSource, "slice" | "size">,
  from: number,
  isCancelled: () => boolean,
): AsyncGenerator<Uint8Array> {
  for (let at = from; at < source.size;) {
    if (isCancelled()) throw new LoadCancelled();
    const end = Math.min(source.size, at + CHUNK);
    const bytes = new Uint8Array(await source.slice(at, end).arrayBuffer());
    if (bytes.byteLength === 0) return;
    at += bytes.byteLength;
    yield bytes;
  }
}

/** Chunks a sliced source reads ahead of the one being handled. */
const SLICES_AHEAD = 2;
/**
 * Bytes per slice read. Each `slice().arrayBuffer()` of a File is a round trip to Chromium's
 * browser process, so the size sets the speed: reading 20 files of 20 MB in a worker (Chromium
 * 156, two ahead, load average 7) ran at 53 MB/s by 1 MB, 84 by 4 MB, 112 by 8 MB and 120 by
 * 16 MB, against 167-257 MB/s for a BYOB stream of the same files.
 */
export const SLICE_BYTES = 8 << 20;

/**
 * The same source, streamed by slice reads (`slice().arrayBuffer()`, 8 MB by default, two read ahead) instead
 * of its own stream: a thread that reads many files one after another (a run's index worker) must
 * not use BYOB streams, since in Chromium 156 a worker's second BYOB stream read can stall for good
 * (bench/README.md, browser benchmark, "Problems found" 3).
 */
export function slicedSource(source: ByteSource, sliceBytes: number = SLICE_BYTES): ByteSource {
  return {
    name: source.name,
    size: source.size,
    slice: (start, end) => source.slice(start, end),
    stream: () => {
      let at = 0;
      return new ReadableStream<Uint8Array>(
        {
          async pull(controller) {
            if (at >= source.size) {
              controller.close();
              return;
            }
            const end = Math.min(source.size, at + sliceBytes);
            const start = at;
            at = end;
            controller.enqueue(new Uint8Array(await source.slice(start, end).arrayBuffer()));
          },
        },
        new CountQueuingStrategy({ highWaterMark: SLICES_AHEAD }),
      );
    },
  };
}
