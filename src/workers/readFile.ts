/**
 * Read a File's bytes in 1 MB steps with a BYOB reader into one preallocated buffer, reporting
 * progress and stopping on cancel. Never File.text(): Chromium returns "" past 512 Mi characters and
 * crashes the renderer on 1.2 GB (performance.md section 4).
 */

const CHUNK = 1 << 20;

export class LoadCancelled extends Error {
  override name = "LoadCancelled";
}

export async function readFileBytes(
  file: Blob,
  onProgress: (bytes: number) => void,
  isCancelled: () => boolean,
): Promise<Uint8Array> {
  const out = new Uint8Array(file.size);
  const stream = file.stream();
  let offset = 0;
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
      if (done || value === undefined) break;
      out.set(value, offset);
      offset += value.byteLength;
      buffer = value.buffer;
      onProgress(offset);
    }
  } else {
    const plain = stream.getReader();
    for (;;) {
      if (isCancelled()) {
        await plain.cancel();
        throw new LoadCancelled();
      }
      const { value, done } = await plain.read();
      if (done) break;
      out.set(value, offset);
      offset += value.byteLength;
      onProgress(offset);
    }
  }
  return out.subarray(0, offset);
}
