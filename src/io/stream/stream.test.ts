/**
 * Covers: reading a Blob in chunks with cancel, and indexing a file-backed Blob as the worker and
 * the CLI do (first group early, summaries, counts).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { formatById } from "../formats/registry.ts";
import { NATIVE_INDEX } from "../byteIndex/formatIndex.ts";
import { indexJsonlFile, readIndexedGroup } from "./indexedFile.ts";
import { blobChunks, LoadCancelled, readFileBytes } from "./readBlob.ts";

const rows = (n: number) =>
  Array.from({ length: n }, (_, i) =>
    JSON.stringify({
      group_id: `g${Math.floor(i / 4)}`,
      completion: `text ${i} ${"x".repeat(200)}`,
      reward: i % 2,
    }),
  ).join("\n");

describe("readBlob", () => {
  it("reads every byte, in order", async () => {
    const text = rows(5000);
    const bytes = await readFileBytes(
      new Blob([text]),
      () => undefined,
      () => false,
    );
    expect(new TextDecoder().decode(bytes)).toBe(text);
  });
  it("gives 1 MB chunks, though a Node Blob answers each read with 64 KB", async () => {
    const text = rows(20000);
    const sizes: number[] = [];
    for await (const chunk of blobChunks(new Blob([text]), () => false)) sizes.push(chunk.length);
    const size = new TextEncoder().encode(text).length;
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(size);
    expect(sizes.slice(0, -1).every((n) => n === 1 << 20)).toBe(true);
    expect(sizes).toHaveLength(Math.ceil(size / (1 << 20)));
  });
  it("reads the rest by slices when a BYOB read stalls: every byte once, in order (property)", async () => {
    /** A byte stream that serves `bytes` 64 KB at a time and, from `stallAt` on, never answers. */
    const stalling = (bytes: Uint8Array<ArrayBuffer>, stallAt: number) => ({
      size: bytes.length,
      slice: (start: number, end: number) => new Blob([bytes.subarray(start, end)]),
      stream: () => {
        let at = 0;
        return new ReadableStream({
          type: "bytes",
          pull(controller) {
            if (at >= stallAt && at < bytes.length) return new Promise<void>(() => undefined);
            if (at >= bytes.length) {
              controller.close();
              return;
            }
            const end = Math.min(bytes.length, at + (64 << 10));
            controller.enqueue(bytes.slice(at, end));
            at = end;
          },
        });
      },
    });
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 3 * (1 << 20) }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        async (size, stallShare) => {
          const bytes = new Uint8Array(size);
          for (let i = 0; i < size; i++) bytes[i] = (i * 7 + (i >> 11)) & 0xff;
          const source = stalling(bytes, Math.floor(size * stallShare));
          const got: Uint8Array[] = [];
          for await (const chunk of blobChunks(source, () => false, 20)) got.push(chunk.slice());
          expect(Buffer.compare(Buffer.concat(got), bytes)).toBe(0);
        },
      ),
      { numRuns: 25 },
    );
  });
  it("stops with LoadCancelled when cancelled", async () => {
    let chunks = 0;
    const read = async () => {
      for await (const chunk of blobChunks(new Blob([rows(20000)]), () => chunks > 0))
        chunks += chunk.length > 0 ? 1 : 0;
    };
    await expect(read()).rejects.toBeInstanceOf(LoadCancelled);
    expect(chunks).toBe(1);
  });
});

describe("indexJsonlFile", () => {
  it("indexes, posts the first group early, and parses groups on demand", async () => {
    const file = new File([rows(4000)], "big.jsonl");
    const first: string[] = [];
    const { dataset, state } = await indexJsonlFile(file, formatById("native")!, NATIVE_INDEX, [], {
      isCancelled: () => false,
      onProgress: () => undefined,
      onFirstGroup: (g) => first.push(g.id),
    });
    expect(first).toEqual(["g0"]);
    expect(dataset.summaries).toHaveLength(1000);
    expect(dataset.stats).toMatchObject({ records: 4000, rollouts: 4000, rejected: 0 });
    expect(dataset.indexed).toBe(true);
    const { group, issues } = await readIndexedGroup(state, "g999");
    expect(group?.rollouts.map((r) => r.id)).toEqual(["g999/0", "g999/1", "g999/2", "g999/3"]);
    expect(issues).toEqual([]);
  });
  it("gives an id to a later row when the full parser rejects its first claimant (found by fuzzing)", async () => {
    const file = new File(
      [
        [
          '{"group_id":"g1","id":"x","completion":5,"reward":1}',
          '{"group_id":"g1","id":"y","completion":"ok","reward":1}',
          '{"group_id":"g2","id":"x","completion":"retry","reward":0}',
          '{"group_id":"g3","id":"x","completion":"again","reward":0}',
        ].join("\n"),
      ],
      "dup.jsonl",
    );
    const { dataset, state } = await indexJsonlFile(file, formatById("native")!, NATIVE_INDEX, [], {
      isCancelled: () => false,
      onProgress: () => undefined,
      onFirstGroup: () => undefined,
    });
    // Line 3 owns "x" (line 1's completion is not text); line 4 is its duplicate.
    expect(dataset.summaries.map((s) => [s.id, s.rewards])).toEqual([
      ["g1", [1]],
      ["g2", [0]],
    ]);
    expect(dataset.issues.map((i) => [i.line, i.field, i.message])).toEqual([
      [1, "completion", expect.any(String) as string],
      [4, "id", 'duplicate rollout id "x" (first at line 3); this row is skipped'],
    ]);
    expect((await readIndexedGroup(state, "g2")).group?.rollouts.map((r) => r.id)).toEqual(["x"]);
  });
  it("checks a defaulted id against a later row's own id, as before any row had one", async () => {
    const file = new File(
      [
        [
          '{"group_id":"g","completion":"a","reward":1}',
          '{"group_id":"g","completion":"b","reward":0}',
          '{"group_id":"h","id":"g/1","completion":"c","reward":1}',
          '{"group_id":"h","id":"k","completion":"d","reward":0}',
        ].join("\n"),
      ],
      "ids.jsonl",
    );
    const { dataset, state } = await indexJsonlFile(file, formatById("native")!, NATIVE_INDEX, [], {
      isCancelled: () => false,
      onProgress: () => undefined,
      onFirstGroup: () => undefined,
    });
    expect(dataset.issues.map((i) => [i.line, i.message])).toEqual([
      [3, 'duplicate rollout id "g/1" (first at line 2); this row is skipped'],
    ]);
    expect((await readIndexedGroup(state, "g")).group?.rollouts.map((r) => r.id)).toEqual([
      "g/0",
      "g/1",
    ]);
    expect((await readIndexedGroup(state, "h")).group?.rollouts.map((r) => r.id)).toEqual(["k"]);
  });
  it("can be cancelled", async () => {
    const file = new File([rows(20000)], "big.jsonl");
    await expect(
      indexJsonlFile(file, formatById("native")!, NATIVE_INDEX, [], {
        isCancelled: () => true,
        onProgress: () => undefined,
        onFirstGroup: () => undefined,
      }),
    ).rejects.toBeInstanceOf(LoadCancelled);
  });
});
