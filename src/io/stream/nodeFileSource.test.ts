import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";

import fc from "fast-check";

import { nodeFileSource, sliceReader } from "./nodeFileSource.ts";
import { blobChunks, LoadCancelled, readFileBytes } from "./readBlob.ts";

const dir = mkdtempSync(join(tmpdir(), "node-file-source-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Whether two byte arrays hold the same bytes (vitest's deep equality is slow on megabytes). */
const same = (a: Uint8Array, b: Uint8Array): boolean => Buffer.compare(a, b) === 0;

/** Bytes that differ at every offset mod 251, so a misplaced piece shows. */
function pattern(length: number): Uint8Array {
  const out = new Uint8Array(length);
  for (let i = 0; i < length; i++) out[i] = (i * 7 + (i >> 11)) % 251;
  return out;
}

describe("nodeFileSource", () => {
  const bytes = pattern(2.5 * (1 << 20) + 12345);
  const path = join(dir, "data.bin");
  writeFileSync(path, bytes);

  it("streams the file in order through a BYOB reader, in 1 MB chunks", async () => {
    const source = await nodeFileSource(path, "data.bin");
    expect(source).toMatchObject({ name: "data.bin", size: bytes.length });
    const sizes: number[] = [];
    const got = new Uint8Array(bytes.length);
    let at = 0;
    for await (const chunk of blobChunks(source, () => false)) {
      sizes.push(chunk.length);
      got.set(chunk, at);
      at += chunk.length;
    }
    expect(at).toBe(bytes.length);
    expect(sizes.slice(0, 2)).toEqual([1 << 20, 1 << 20]);
    expect(same(got, bytes)).toBe(true);
    // Twice in a row from one source, as a thread reads file after file.
    const again = await readFileBytes(
      source,
      () => undefined,
      () => false,
    );
    expect(same(again, bytes)).toBe(true);
  });

  it("reads with a default reader too", async () => {
    const source = await nodeFileSource(path);
    const reader = source.stream().getReader();
    let total = 0;
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      expect(same(value, bytes.subarray(total, total + value.length))).toBe(true);
      total += value.length;
    }
    expect(total).toBe(bytes.length);
  });

  it("reads no further than the size it was given, and slices within it", async () => {
    const source = await nodeFileSource(path, "part", 1_500_000);
    const read = await readFileBytes(
      source,
      () => undefined,
      () => false,
    );
    expect(same(read, bytes.subarray(0, 1_500_000))).toBe(true);
    const slice = new Uint8Array(await source.slice(1_000_000, 2_000_000).arrayBuffer());
    expect(same(slice, bytes.subarray(1_000_000, 1_500_000))).toBe(true);
    expect((await source.slice(10, 5).arrayBuffer()).byteLength).toBe(0);
  });

  it("stops when cancelled", async () => {
    const source = await nodeFileSource(path);
    let chunks = 0;
    await expect(
      (async () => {
        for await (const chunk of blobChunks(source, () => chunks > 0))
          chunks += chunk.length > 0 ? 1 : 0;
      })(),
    ).rejects.toBeInstanceOf(LoadCancelled);
    expect(chunks).toBe(1);
  });
});

describe("sliceReader", () => {
  const bytes = pattern(3 * (1 << 20) + 777);
  const path = join(dir, "slices.bin");
  writeFileSync(path, bytes);

  it("gives each slice's bytes whatever the order: in file order (read ahead), backwards, overlapping, past the end", () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            // Small steps forward, as a CLI reads contiguous groups.
            fc.record({ step: fc.nat(70_000), length: fc.nat(70_000) }),
            // Anywhere, any length.
            fc.record({ at: fc.nat(bytes.length + 2000), length: fc.nat(1_500_000) }),
          ),
          { maxLength: 40 },
        ),
        (reads) => {
          const read = sliceReader(path);
          let at = 0;
          for (const r of reads) {
            const start = "at" in r ? r.at : at + r.step;
            const end = start + r.length;
            at = end;
            const got = new Uint8Array(read(start, end));
            const want = bytes.subarray(Math.min(start, bytes.length), Math.min(end, bytes.length));
            if (!same(got, want)) return false;
          }
          return true;
        },
      ),
      { numRuns: 60 },
    );
  });

  it("reads what the file holds now once the read-ahead is dropped (a file that grows)", async () => {
    const grow = join(dir, "grow.bin");
    writeFileSync(grow, bytes.subarray(0, 1000));
    const read = sliceReader(grow);
    expect(new Uint8Array(read(0, 100)).length).toBe(100);
    expect(new Uint8Array(read(100, 2000)).length).toBe(900);
    writeFileSync(grow, bytes.subarray(0, 3000));
    // Within the idle time the window may still be the old one; after it, the new bytes show.
    await new Promise((r) => setTimeout(r, 250));
    expect(same(new Uint8Array(read(1000, 3000)), bytes.subarray(1000, 3000))).toBe(true);
  });
});
