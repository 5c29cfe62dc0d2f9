/**
 * `npm run bench`: every benchmark, one JSON line per metric on stdout (performance.md sections 9
 * and 10). Each metric is timed against a baseline measured in the same process on the same data,
 * with subject and baseline runs interleaved, so CI can gate on `ratio` rather than on absolute
 * milliseconds. Progress goes to stderr. The exit code is non-zero only if a correctness check
 * fails, never because of timing.
 */
import v8 from "node:v8";
import vm from "node:vm";

import {
  ANALYSIS_DEFAULTS,
  analysisAdvantages,
  analyzeGroup,
  garFromHumanRanking,
  ngramCluster,
  rankTierMidpoints,
  winRateFromPairs,
  winRatePairsFromTiers,
  type ClusterResult,
  type GarHumanResult,
  type Rollout,
} from "../src/core/index.ts";
import { JsonlIndexer, type JsonlIndexerOptions } from "../src/io/byteIndex/jsonlIndexer.ts";
import { loadBytes } from "../src/io/formats/load.ts";
import {
  fingerprint,
  fingerprintBytes,
  generateAnnotatedGroup,
  generateRolloutJsonl,
  generateTextGroup,
} from "./generate.ts";

interface MetricLine {
  readonly metric: string;
  /** Median ms of the measured code (or bytes per row, for a memory metric). */
  readonly value: number;
  /** Median of the baseline, measured in the same run on the same data. */
  readonly baseline: number;
  readonly ratio: number;
  readonly unit: "ms" | "bytes/row";
  /** Timed runs of each side (after warm-up). */
  readonly runs: number;
  /** Calls per timed run (value and baseline are per call); 1 unless the call is sub-millisecond. */
  readonly reps: readonly [number, number];
  /** FNV-1a fingerprint of the generated input, to spot a changed generator between runs. */
  readonly data: string;
  readonly note?: string;
}

const failures: string[] = [];

function check(condition: boolean, message: string): void {
  if (!condition) {
    failures.push(message);
    console.error(`CHECK FAILED: ${message}`);
  }
}

/**
 * A real full `gc()`, used only by the after-GC metric; null when V8 refuses the flag. Enabling it
 * changes nothing else: the other metrics never call it.
 */
const forceGc: (() => void) | null = (() => {
  try {
    v8.setFlagsFromString("--expose-gc");
    return vm.runInNewContext("gc") as () => void;
  } catch {
    return null;
  }
})();

/** Results are folded in here so no timed call can be optimised away. */
let sink = 0;

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/**
 * Milliseconds per call over `reps` back-to-back calls. Deliberately no forced `gc()` between runs:
 * on Node 20 a forced full GC lazily deoptimises the exact n-gram code (its hot loop ran 3-9x slower
 * right after one), which measures the GC, not the code. Interleaving plus the median absorbs the
 * ordinary collections instead.
 */
function timeRun(fn: () => number, reps: number): number {
  const start = performance.now();
  for (let r = 0; r < reps; r++) sink += fn();
  return (performance.now() - start) / reps;
}

/** Calls per run so that one run lasts at least `targetMs` (1 for calls already that slow). */
function calibrate(fn: () => number, targetMs: number): number {
  let reps = 1;
  for (;;) {
    const ms = timeRun(fn, reps) * reps;
    if (ms >= targetMs) return reps;
    reps = Math.min(reps * 10, Math.ceil((reps * targetMs * 1.2) / Math.max(ms, 1e-3)));
  }
}

interface PairOptions {
  readonly warmup: number;
  readonly runs: number;
  /** Minimum length of one timed run; sub-millisecond calls are looped to reach it. */
  readonly minRunMs: number;
}

/** Median ms per call of subject and baseline, warm-up first, then runs interleaved (ABBA order). */
function timePair(
  subject: () => number,
  baseline: () => number,
  options: PairOptions,
): { value: number; baseline: number; runs: number; reps: [number, number] } {
  for (let w = 0; w < options.warmup; w++) {
    timeRun(subject, 1);
    timeRun(baseline, 1);
  }
  const repsS = calibrate(subject, options.minRunMs);
  const repsB = calibrate(baseline, options.minRunMs);
  const s: number[] = [];
  const b: number[] = [];
  for (let r = 0; r < options.runs; r++) {
    if (r % 2 === 0) {
      s.push(timeRun(subject, repsS));
      b.push(timeRun(baseline, repsB));
    } else {
      b.push(timeRun(baseline, repsB));
      s.push(timeRun(subject, repsS));
    }
  }
  return { value: median(s), baseline: median(b), runs: options.runs, reps: [repsS, repsB] };
}

const round = (x: number): number => Number(x.toPrecision(4));

function emit(
  metric: string,
  t: ReturnType<typeof timePair>,
  data: string,
  note?: string,
  unit: MetricLine["unit"] = "ms",
): MetricLine {
  const line: MetricLine = {
    metric,
    value: round(t.value),
    baseline: round(t.baseline),
    ratio: round(t.value / t.baseline),
    unit,
    runs: t.runs,
    reps: t.reps,
    data,
    ...(note === undefined ? {} : { note }),
  };
  process.stdout.write(`${JSON.stringify(line)}\n`);
  console.error(
    `  ${metric}: ${line.value} ${unit} vs baseline ${line.baseline} ${unit}, ratio ${line.ratio}`,
  );
  return line;
}

function sameArray<T>(a: readonly T[], b: readonly T[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

function sameClusters(a: ClusterResult, b: ClusterResult): boolean {
  return (
    a.nClusters === b.nClusters &&
    sameArray(a.clusterIds, b.clusterIds) &&
    sameArray(a.clusterIndex, b.clusterIndex) &&
    sameArray(a.divisors, b.divisors) &&
    sameArray(a.labels, b.labels)
  );
}

const CLUSTER_TIMING: PairOptions = { warmup: 1, runs: 9, minRunMs: 0 };
const GROUP_TIMING: PairOptions = { warmup: 3, runs: 15, minRunMs: 25 };

/** Exact vs naive n-gram clustering of one group; checks the matrices are identical, entry by entry. */
function benchCluster(metric: string, texts: readonly string[], n: number): void {
  console.error(`${metric}: ${texts.length} texts, n=${n}`);
  const config = { n, threshold: 0.5 };
  const exact = ngramCluster(texts, config, "exact");
  const naive = ngramCluster(texts, config, "naive");
  const k = texts.length;
  let mismatches = 0;
  let first = -1;
  for (let i = 0; i < k * k; i++) {
    if (exact.similarity[i] !== naive.similarity[i]) {
      mismatches++;
      if (first < 0) first = i;
    }
  }
  check(
    exact.similarity.length === k * k && naive.similarity.length === k * k && mismatches === 0,
    `${metric}: ${mismatches} similarity entries differ from naive` +
      (first < 0
        ? ""
        : ` (first [${Math.floor(first / k)}][${first % k}]: ${exact.similarity[first]} vs ${naive.similarity[first]})`),
  );
  check(sameClusters(exact, naive), `${metric}: clusters differ from naive`);
  let lo = 1;
  let hi = 0;
  for (let i = 0; i < k; i++)
    for (let j = i + 1; j < k; j++) {
      lo = Math.min(lo, exact.similarity[i * k + j]!);
      hi = Math.max(hi, exact.similarity[i * k + j]!);
    }
  const t = timePair(
    () => ngramCluster(texts, config, "exact").nClusters,
    () => ngramCluster(texts, config, "naive").nClusters,
    CLUSTER_TIMING,
  );
  emit(
    metric,
    t,
    fingerprint(texts),
    `exact vs naive; ${exact.nClusters} clusters, Jaccard ${lo.toFixed(2)}-${hi.toFixed(2)}`,
  );
}

/** performance.md section 6's baseline: mean, sample std and (r - mean) / (std + 1e-4) over objects. */
function plainGrpo(rollouts: readonly Rollout[], out: number[]): number {
  let sum = 0;
  for (const r of rollouts) sum += r.reward!;
  const mean = sum / rollouts.length;
  let ss = 0;
  for (const r of rollouts) ss += (r.reward! - mean) * (r.reward! - mean);
  const std = Math.sqrt(ss / (rollouts.length - 1));
  for (let i = 0; i < rollouts.length; i++) out[i] = (rollouts[i]!.reward! - mean) / (std + 1e-4);
  return out[0]!;
}

function benchGroup(): void {
  const k = 64;
  const { group, rewards, annotation } = generateAnnotatedGroup(k, 2000, 64064);
  const data = fingerprint(group.rollouts.map((r) => r.completion ?? ""));
  const settings = ANALYSIS_DEFAULTS;
  const passes = rewards.filter((r) => r === 1).length;
  console.error(`group.stats.${k}: ${passes} passes of ${k}, ${annotation.ranking.length} tiers`);
  const baselineAdvantages = new Array<number>(k).fill(0);

  // Correctness: the analysis agrees with the baseline and GAR ran.
  const analysis = analyzeGroup(
    group,
    settings,
    analysisAdvantages([group], settings)[0]!,
    annotation,
  );
  plainGrpo(group.rollouts, baselineAdvantages);
  check(analysis.n === k && analysis.mixed, "group.stats: group is not a mixed group of 64");
  check(analysis.gar.kind === "applied", `group.stats: GAR not applied (${analysis.gar.kind})`);
  check(analysis.issues.length === 0, `group.stats: ${analysis.issues.length} annotation issues`);
  check(
    analysis.rollouts.every((r, i) => Math.abs(r.advantage - baselineAdvantages[i]!) <= 1e-12),
    "group.stats: advantages differ from the plain GRPO loop",
  );
  check(
    analysis.rollouts.filter((r) => r.hack).length === 1,
    "group.stats: expected exactly one hack",
  );

  emit(
    `group.stats.${k}`,
    timePair(
      () => {
        const advantages = analysisAdvantages([group], settings)[0]!;
        return analyzeGroup(group, settings, advantages, annotation).nClusters;
      },
      () => plainGrpo(group.rollouts, baselineAdvantages),
      GROUP_TIMING,
    ),
    data,
    `analyzeGroup + analysisAdvantages (n-gram n=${settings.ngram}, GAR, win rates) vs plain GRPO over objects`,
  );

  // Re-rank: swap two ranked passes in different tiers, then recompute what depends on the ranking.
  const a = annotation.ranking[0]![0]!;
  const b = annotation.ranking[annotation.ranking.length - 2]![0]!;
  const swap = (tiers: readonly (readonly number[])[]): number[][] =>
    tiers.map((tier) => tier.map((i) => (i === a ? b : i === b ? a : i)));
  const rerank = (
    tiers: readonly (readonly number[])[],
  ): { gar: GarHumanResult; mid: (number | null)[]; win: number[] } => ({
    gar: garFromHumanRanking(rewards, { ranking: tiers, hacks: annotation.hacks }, settings),
    mid: rankTierMidpoints(tiers, k),
    win: winRateFromPairs(k, winRatePairsFromTiers(tiers, k), settings.tieCredit),
  });
  const before = rerank(annotation.ranking);
  const after = rerank(swap(annotation.ranking));
  const factors = (r: GarHumanResult): ReadonlyMap<number, number> =>
    r.kind === "applied" ? r.outcome.factors : new Map<number, number>();
  check(
    before.gar.kind === "applied" && after.gar.kind === "applied",
    "group.rerank: GAR not applied",
  );
  check(
    after.mid[a] === before.mid[b] && after.mid[b] === before.mid[a] && before.mid[a] !== null,
    "group.rerank: tier midpoints of the swapped pair did not exchange",
  );
  check(
    factors(after.gar).get(a) === factors(before.gar).get(b) &&
      factors(after.gar).get(b) === factors(before.gar).get(a) &&
      factors(before.gar).get(a) !== factors(before.gar).get(b),
    "group.rerank: GAR factors of the swapped pair did not exchange",
  );
  check(
    after.win[a] === before.win[b] && after.win[b] === before.win[a],
    "group.rerank: win rates of the swapped pair did not exchange",
  );

  let tiers: readonly (readonly number[])[] = annotation.ranking;
  emit(
    `group.rerank.${k}`,
    timePair(
      () => {
        tiers = swap(tiers);
        const r = rerank(tiers);
        return r.win[a]! + (r.mid[b] ?? 0);
      },
      () => plainGrpo(group.rollouts, baselineAdvantages),
      GROUP_TIMING,
    ),
    data,
    "swap two passes, garFromHumanRanking + rankTierMidpoints + winRateFromPairs(winRatePairsFromTiers) vs plain GRPO over objects",
  );
}

/**
 * Clustering right after a full GC, as in a worker whose heap is churning: one call per run, each
 * preceded by an untimed gc(). Tracks a known cost (bench/README.md): a full GC deoptimises the
 * exact path's hot code, so the first call after it runs unoptimised.
 */
function benchClusterAfterGc(metric: string, texts: readonly string[], n: number): void {
  if (forceGc === null) {
    console.error(`${metric}: skipped, gc() unavailable`);
    return;
  }
  const gc = forceGc;
  console.error(`${metric}: ${texts.length} texts, n=${n}, gc() before every call`);
  const config = { n, threshold: 0.5 };
  check(
    sameClusters(ngramCluster(texts, config, "exact"), ngramCluster(texts, config, "naive")),
    `${metric}: clusters differ from naive`,
  );
  const exact = (): number => ngramCluster(texts, config, "exact").nClusters;
  const naive = (): number => ngramCluster(texts, config, "naive").nClusters;
  const warm = timePair(exact, naive, { warmup: 2, runs: 9, minRunMs: 25 });
  const afterGc = (fn: () => number, out: number[]): void => {
    gc();
    const start = performance.now();
    sink += fn();
    out.push(performance.now() - start);
  };
  const runs = 15;
  const s: number[] = [];
  const b: number[] = [];
  for (let r = 0; r < runs; r++) {
    if (r % 2 === 0) {
      afterGc(exact, s);
      afterGc(naive, b);
    } else {
      afterGc(naive, b);
      afterGc(exact, s);
    }
  }
  emit(
    metric,
    { value: median(s), baseline: median(b), runs, reps: [1, 1] },
    fingerprint(texts),
    `exact vs naive, each call right after a full gc() (not timed); warm, the same calls take ${round(warm.value)} vs ${round(warm.baseline)} ms`,
  );
}

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

const mbps = (bytes: number, ms: number): number => Math.round(bytes / 1e6 / (ms / 1000));

/** Like timePair, for async calls: interleaved AB BA runs of one call each, medians. */
async function timePairAsync(
  subject: () => Promise<unknown>,
  baseline: () => Promise<unknown>,
  runs: number,
): Promise<ReturnType<typeof timePair>> {
  const once = async (f: () => Promise<unknown>): Promise<number> => {
    const t = performance.now();
    sink += Number(Boolean(await f()));
    return performance.now() - t;
  };
  await subject();
  await baseline();
  const s: number[] = [];
  const b: number[] = [];
  for (let r = 0; r < runs; r++) {
    if (r % 2 === 0) {
      s.push(await once(subject));
      b.push(await once(baseline));
    } else {
      b.push(await once(baseline));
      s.push(await once(subject));
    }
  }
  return { value: median(s), baseline: median(b), runs, reps: [1, 1] };
}

/**
 * performance.md section 9 T4: the studio's full parse (what it does to a file under the index
 * threshold: `loadBytes`, decode, parse every line, build every rollout and group) against
 * decoding the same bytes as one JSON array and `JSON.parse` of it. Checks every row becomes a
 * rollout.
 */
async function benchFullParse(): Promise<void> {
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
function benchJsonlIndex(): void {
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
  sink += objects.value.length + indexes.reduce((sum, m) => sum + m.value.rowCount, 0);
  const perRow = median(indexBytes) / file.rows;
  emit(
    "index.memory.perRow",
    { value: perRow, baseline: objects.bytes / file.rows, runs: 3, reps: [1, 1] },
    fp,
    `retained heap + ArrayBuffers after gc(), index vs the parsed objects; index / file size ${round(median(indexBytes) / size)} (T7 budget 0.15)`,
    "bytes/row",
  );
}

async function main(): Promise<void> {
  const started = performance.now();
  const modes = generateTextGroup({ k: 64, chars: 20000, modes: 4, seed: 20000 });
  const independent = generateTextGroup({ k: 64, chars: 20000, modes: 0, seed: 20001 });
  check(
    fingerprint(modes) ===
      fingerprint(generateTextGroup({ k: 64, chars: 20000, modes: 4, seed: 20000 })),
    "generator is not deterministic",
  );
  benchCluster("ngram.cluster.exact5.64x20KB", modes, 5);
  benchCluster("ngram.cluster.exact3.64x20KB", modes, 3);
  benchCluster("ngram.cluster.exact5.64independent", independent, 5);
  benchCluster("ngram.cluster.exact3.64independent", independent, 3);
  benchGroup();
  benchClusterAfterGc(
    "ngram.cluster.exact3.64x2KB.afterGC",
    generateTextGroup({ k: 64, chars: 2000, modes: 4, seed: 2000 }),
    3,
  );
  await benchFullParse();
  benchJsonlIndex();
  console.error(`done in ${((performance.now() - started) / 1000).toFixed(1)} s (sink ${sink})`);
  if (failures.length > 0) {
    console.error(`${failures.length} correctness check(s) failed`);
    process.exitCode = 1;
  }
}

await main();
