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
 * The bytes of a Blob in order, read with a BYOB reader into one reused 1 MB buffer where the
 * platform supports it (each chunk is valid only until the next is requested), else with the
 * default reader. Stops with LoadCancelled when asked.
 */
export async function* blobChunks(
  blob: Pick<ByteSource, "stream">,
  isCancelled: () => boolean,
): AsyncGenerator<Uint8Array> {
  const stream = blob.stream();
  let reader: ReadableStreamBYOBReader | null = null;
  try {
    reader = stream.getReader({ mode: "byob" });
  } catch {
    reader = null;
  }
  if (reader !== null) {
    let buffer = new ArrayBuffer(CHUNK);
    for (;;) {
      if (isCancelled()) {
        await reader.cancel();
        throw new LoadCancelled();
      }
      const { value, done } = await reader.read(new Uint8Array(buffer, 0, CHUNK));
      if (done || value === undefined) return;
      yield value;
      buffer = value.buffer;
    }
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
