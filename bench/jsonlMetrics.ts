/**
 * The JSONL metrics of `npm run bench`: the studio's full parse (T4), the byte indexer in 1 MB chunks
 * against `JSON.parse` and a bytes-only scan, and the index's retained memory per row.
 */
import { JsonlIndexer, type JsonlIndexerOptions } from "../src/io/byteIndex/jsonlIndexer.ts";
import { loadBytes } from "../src/io/formats/load.ts";
import { fingerprintBytes, generateRolloutJsonl } from "./generate.ts";
import {
  check,
  emit,
  forceGc,
  mbps,
  median,
  round,
  sink,
  timePair,
  timePairAsync,
} from "./timing.ts";

/** Chunk size of the browser's BYOB reader (performance.md section 2b: 1 MB is the sweet spot). */
const CHUNK_BYTES = 1 << 20;

/** The top-level keys the studio's worker indexes (ids are unique, so not interned). */
const INDEX_KEYS: JsonlIndexerOptions = {
  keys: [
    "group_id",
    { name: "id", intern: false },
    "reward",
    { name: "rewards", composite: "parse" },
  ],
};

/**
 * Feed `data` to `consume` the way the worker's BYOB reader does: each 1 MB chunk is first copied
 * into one reused buffer, so the consumer must not keep chunk references.
 */
function eachChunk(
  data: Uint8Array,
  reused: Uint8Array,
  consume: (chunk: Uint8Array) => void,
): void {
  for (let at = 0; at < data.length; at += CHUNK_BYTES) {
    const n = Math.min(CHUNK_BYTES, data.length - at);
    reused.set(data.subarray(at, at + n));
    consume(n === CHUNK_BYTES ? reused : reused.subarray(0, n));
  }
}

function indexChunks(data: Uint8Array, reused: Uint8Array): JsonlIndexer {
  const indexer = new JsonlIndexer(INDEX_KEYS);
  eachChunk(data, reused, (chunk) => indexer.push(chunk));
  indexer.finish();
  return indexer;
}

/** The memchr ceiling: the same chunk copies plus a `Uint8Array.indexOf(10)` newline count. */
function countNewlines(data: Uint8Array, reused: Uint8Array): number {
  let lines = 0;
  eachChunk(data, reused, (chunk) => {
    for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, at + 1)) lines++;
  });
  return lines;
}

/** JS heap plus ArrayBuffer backing stores (the index's typed arrays live off-heap). */
function memoryInUse(): number {
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
}

/**
 * Bytes retained by what `build` returns: full gc() before and after, heap + ArrayBuffers delta.
 * The caller keeps every result alive until all measurements are done, so freeing an earlier one
 * cannot show up as a negative delta in a later one.
 */
function retainedBytes<T>(gc: () => void, build: () => T): { bytes: number; value: T } {
  gc();
  gc();
  const before = memoryInUse();
  const value = build();
  gc();
  gc();
  return { bytes: memoryInUse() - before, value };
}

/**
 * performance.md section 9 T4: the studio's full parse (what it does to a file under the index
 * threshold: `loadBytes`, decode, parse every line, build every rollout and group) against
 * decoding the same bytes as one JSON array and `JSON.parse` of it. Checks every row becomes a
 * rollout.
 */
export async function benchFullParse(): Promise<void> {
  const file = generateRolloutJsonl({ targetBytes: 30e6, seed: 201 });
  const data = file.bytes;
  const size = data.length;
  const fp = fingerprintBytes(data);
  const arrayBytes = new Uint8Array(size + 1);
  arrayBytes[0] = 0x5b;
  arrayBytes.set(data.subarray(0, size - 1), 1);
  for (let at = arrayBytes.indexOf(10); at !== -1; at = arrayBytes.indexOf(10, at + 1))
    arrayBytes[at] = 0x2c;
  arrayBytes[size] = 0x5d;
  const load = () => loadBytes("bench.jsonl", data, { format: "native" });
  const loaded = await load();
  check(
    loaded.stats.rollouts === file.rows && loaded.issues.length === 0,
    `parse.jsonl: ${loaded.stats.rollouts} rollouts and ${loaded.issues.length} issues for ${file.rows} rows`,
  );
  const t = await timePairAsync(
    async () => (await load()).groups.length,
    // eslint-disable-next-line @typescript-eslint/require-await -- the same shape as the subject
    async () => (JSON.parse(new TextDecoder().decode(arrayBytes)) as unknown[]).length,
    7,
  );
  emit(
    "parse.jsonl.30MB",
    t,
    fp,
    `T4: loadBytes (native) ${mbps(size, t.value)} MB/s vs decode + JSON.parse of the whole array ${mbps(size, t.baseline)} MB/s; ${file.rows} rows in ${loaded.groups.length} groups; gate ratio <= 1.0`,
  );
}

/**
 * performance.md sections 2 and 3 on a generated 200 MB "long rows" file: index it in 1 MB chunks
 * against `JSON.parse` of the same bytes as one array and against a bytes-only newline scan, then
 * the index's retained memory per row against the parsed objects'.
 */
export function benchJsonlIndex(): void {
  const started = performance.now();
  const small = { targetBytes: 2e6, seed: 7 };
  check(
    fingerprintBytes(generateRolloutJsonl(small).bytes) ===
      fingerprintBytes(generateRolloutJsonl(small).bytes),
    "JSONL generator is not deterministic",
  );
  const file = generateRolloutJsonl({ targetBytes: 200e6, seed: 200 });
  const data = file.bytes;
  const size = data.length;
  const fp = fingerprintBytes(data);
  console.error(
    `index.jsonl.200MB: ${(size / 1e6).toFixed(1)} MB, ${file.rows} rows in ${file.groups} groups, ${file.nonAsciiRows} non-ASCII, generated in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );

  // The baseline's input: the same bytes as one JSON array (newlines become commas), decoded once.
  const arrayBytes = new Uint8Array(size + 1);
  arrayBytes[0] = 0x5b;
  arrayBytes.set(data.subarray(0, size - 1), 1);
  for (let at = arrayBytes.indexOf(10); at !== -1; at = arrayBytes.indexOf(10, at + 1))
    arrayBytes[at] = 0x2c;
  arrayBytes[size] = 0x5d;
  const arrayText = new TextDecoder().decode(arrayBytes);

  const reused = new Uint8Array(CHUNK_BYTES);
  const newlines = countNewlines(data, reused);
  const index = indexChunks(data, reused);
  const parsed = JSON.parse(arrayText) as Record<string, unknown>[];
  check(
    index.rowCount === newlines && index.lineCount === newlines && newlines === file.rows,
    `index.jsonl: ${index.rowCount} rows and ${index.lineCount} lines, but ${newlines} newlines and ${file.rows} rows generated`,
  );
  check(
    index.okCount === parsed.length,
    `index.jsonl: ${index.okCount} ok rows of ${parsed.length}`,
  );
  let mismatches = 0;
  parsed.forEach((row, r) => {
    const [groupId, id, reward, rewards] = index.row(r).values;
    const same =
      groupId === row.group_id &&
      id === row.id &&
      reward === row.reward &&
      typeof rewards === "object" &&
      rewards?.kind === "parsed" &&
      JSON.stringify(rewards.value) === JSON.stringify(row.rewards);
    if (!same) mismatches++;
  });
  const last = parsed.length - 1;
  const lastLine = new TextDecoder().decode(
    data.subarray(index.offsetAt(last), index.offsetAt(last) + index.lengthAt(last)),
  );
  check(
    mismatches === 0 && (JSON.parse(lastLine) as { id: unknown }).id === parsed[last]!.id,
    `index.jsonl: ${mismatches} rows differ from JSON.parse, or the last row's slice is wrong`,
  );

  const vsParse = timePair(
    () => indexChunks(data, reused).rowCount,
    () => (JSON.parse(arrayText) as unknown[]).length,
    { warmup: 1, runs: 5, minRunMs: 0 },
  );
  emit(
    "index.jsonl.200MB",
    vsParse,
    fp,
    `index in 1 MB chunks via a reused buffer: ${mbps(size, vsParse.value)} MB/s vs JSON.parse of the whole array ${mbps(size, vsParse.baseline)} MB/s (${round(vsParse.baseline / vsParse.value)}x); ${file.rows} rows, keys group_id, id, reward, rewards`,
  );
  const vsBytes = timePair(
    () => indexChunks(data, reused).rowCount,
    () => countNewlines(data, reused),
    { warmup: 2, runs: 9, minRunMs: 0 },
  );
  emit(
    "index.jsonl.200MB.vsBytesOnly",
    vsBytes,
    fp,
    `index ${mbps(size, vsBytes.value)} MB/s vs chunk copy + indexOf(10) newline scan ${mbps(size, vsBytes.baseline)} MB/s, same chunks`,
  );

  if (forceGc === null) {
    console.error("index.memory.perRow: skipped, gc() unavailable");
    return;
  }
  const gc = forceGc;
  const indexes = [0, 1, 2].map(() => retainedBytes(gc, () => indexChunks(data, reused)));
  const indexBytes = indexes.map((m) => m.bytes);
  const objects = retainedBytes(gc, () => JSON.parse(arrayText) as unknown[]);
  sink.total += objects.value.length + indexes.reduce((sum, m) => sum + m.value.rowCount, 0);
  const perRow = median(indexBytes) / file.rows;
  emit(
    "index.memory.perRow",
    { value: perRow, baseline: objects.bytes / file.rows, runs: 3, reps: [1, 1] },
    fp,
    `retained heap + ArrayBuffers after gc(), index vs the parsed objects; index / file size ${round(median(indexBytes) / size)} (T7 budget 0.15)`,
    "bytes/row",
  );
}
