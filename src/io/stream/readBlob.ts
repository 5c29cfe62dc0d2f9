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

/**
 * A stream's stall watch: `race(read)` settles with the read, or with "stalled" once that read has
 * been pending `ms`. One interval timer per watch (checking every `ms / 4`), not a timer per read:
 * in a Chromium worker a `setTimeout` and `clearTimeout` per 1 MB read cost about 0.1 ms each, a
 * tenth of a second per GB. `stop()` clears it.
 */
function stallWatch(ms: number): {
  race<T>(pending: Promise<T>): Promise<T | "stalled">;
  stop(): void;
} {
  let startedAt = 0;
  let waiting: ((value: "stalled") => void) | null = null;
  let timer: ReturnType<typeof setInterval> | null = null;
  const check = () => {
    if (waiting !== null && performance.now() - startedAt >= ms) {
      waiting("stalled");
      waiting = null;
    }
  };
  return {
    race<T>(pending: Promise<T>): Promise<T | "stalled"> {
      if (timer === null) {
        timer = setInterval(check, Math.max(1, ms / 4));
        // Node: a watch left running by an abandoned read must not keep the process alive.
        (timer as { unref?: () => void }).unref?.();
      }
      startedAt = performance.now();
      const stalled = new Promise<"stalled">((resolve) => {
        waiting = resolve;
      });
      return Promise.race([pending, stalled]).finally(() => {
        waiting = null;
      });
    },
    stop() {
      if (timer !== null) clearInterval(timer);
      timer = null;
      waiting = null;
    },
  };
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
    const watch = stallWatch(stallMs);
    try {
      while (pending !== null) {
        if (isCancelled()) {
          // Caught before cancelling: cancel settles the pending read, with a detached buffer.
          const settled = pending.catch(() => undefined);
          await reader.cancel();
          await settled;
          throw new LoadCancelled();
        }
        const next: { view: Uint8Array; done: boolean } | "stalled" = canResume
          ? await watch.race(pending)
          : await pending;
        if (next === "stalled") {
          pending.catch(() => undefined);
          reader.cancel().catch(() => undefined);
          watch.stop();
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
    } finally {
      watch.stop();
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
