/**
 * The load benchmarks' data: deterministic native JSONL on disk in bench/.data, streamed piece by
 * piece, never whole in memory, with what the studio must count in each file.
 */
import { Buffer } from "node:buffer";
import { closeSync, fsyncSync, openSync, readSync, writeSync } from "node:fs";
import { fileURLToPath } from "node:url";

import { log, MB, mb } from "./browserReport.ts";
import { generateRolloutJsonl } from "./generate.ts";

export const DATA_DIR = fileURLToPath(new URL("./.data/", import.meta.url));

/** The files are built from pieces of `generateRolloutJsonl` with seeds SEED, SEED + 1, ... */
const SEED = 100;
const PIECE_BYTES = 40 * MB;
/** Groups outside this size range (the generator's groups of 4, a piece's cut last group) are dropped. */
const MIN_GROUP = 8;
const MAX_GROUP = 64;

export interface DataFile {
  readonly path: string;
  readonly label: string;
  readonly bytes: number;
  /** Lines written (each a valid native row, so also the rollouts the studio must count). */
  readonly rows: number;
  readonly groups: number;
  readonly firstGroupRows: number;
  readonly firstGroupBytes: number;
  /** FNV-1a over the file's bytes, folded with its length. */
  readonly fingerprint: string;
}

interface GroupSlice {
  readonly id: string;
  readonly start: number;
  end: number;
  rows: number;
}

/** FNV-1a, continued from `h`. */
export function fnv(h: number, bytes: Uint8Array): number {
  for (let i = 0; i < bytes.length; i++) h = Math.imul(h ^ bytes[i]!, 0x01000193);
  return h;
}

export const fnvHex = (h: number, length: number): string =>
  (Math.imul(h ^ (length % 0x7fffffff), 0x01000193) >>> 0).toString(16).padStart(8, "0");

const ID_PREFIX = '{"id":"';

/** The group of the row starting at `start`: `generateRolloutJsonl` writes `id` first, as `<group>/<i>`. */
function rowGroupId(bytes: Buffer, start: number): string {
  if (bytes.toString("latin1", start, start + ID_PREFIX.length) !== ID_PREFIX)
    throw new Error(`row at byte ${start} does not start with ${ID_PREFIX}`);
  const close = bytes.indexOf(0x22, start + ID_PREFIX.length);
  const id = bytes.toString("latin1", start + ID_PREFIX.length, close);
  return id.slice(0, id.lastIndexOf("/"));
}

/** Contiguous runs of rows with the same group; every line must end in LF. */
export function splitGroups(bytes: Buffer): GroupSlice[] {
  const groups: GroupSlice[] = [];
  let current: GroupSlice | null = null;
  for (let start = 0; start < bytes.length;) {
    const end = bytes.indexOf(10, start);
    if (end === -1) throw new Error(`the last line (byte ${start}) has no newline`);
    const id = rowGroupId(bytes, start);
    if (current !== null && current.id === id) {
      current.end = end + 1;
      current.rows++;
    } else {
      current = { id, start, end: end + 1, rows: 1 };
      groups.push(current);
    }
    start = end + 1;
  }
  return groups;
}

const STEP_KEY = '"step":';
const ITER_KEY = '"iter":';

/**
 * Rename every row's `"step":` key to `"iter":` in place (same length). With `step`, the 30% of rows
 * that hold `prompt` + `completion` also match TRL's logged-completions format as well as native
 * (both score 2 in src/io/formats), so the studio asks which format the file is instead of loading
 * it, and T1/T2 could only be timed from the answer, with a warm worker. Inside JSON strings every
 * quote is escaped, so `"step":` only occurs as a key.
 */
function renameStepKey(data: Buffer): void {
  let at = data.indexOf(STEP_KEY);
  while (at !== -1) {
    data.write(ITER_KEY, at, "latin1");
    at = data.indexOf(STEP_KEY, at + STEP_KEY.length);
  }
}

function writeAll(fd: number, bytes: Uint8Array): void {
  for (let at = 0; at < bytes.length;) at += writeSync(fd, bytes, at, bytes.length - at);
}

/** Write a whole file and flush it to disk before a benchmark loads it. */
export function writeDurably(path: string, bytes: Uint8Array): void {
  const fd = openSync(path, "w");
  try {
    writeAll(fd, bytes);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * A native JSONL file of at least `targetBytes` (it ends after the group that crosses it), in the
 * "long rows" shape: rows of 10-200 KB, groups contiguous with 8-64 rows each, `step` renamed to
 * `iter` (renameStepKey). Each piece is a separate `generateRolloutJsonl` call, so the 100 MB file
 * is a prefix of the 1 GB one, and only one piece is in memory at a time.
 */
export function writeRolloutFile(name: string, targetBytes: number): DataFile {
  const started = performance.now();
  const path = `${DATA_DIR}${name}`;
  const fd = openSync(path, "w");
  let h = 0x811c9dc5;
  let bytes = 0;
  let rows = 0;
  let groups = 0;
  let first: GroupSlice | null = null;
  try {
    for (let piece = 0; bytes < targetBytes; piece++) {
      const generated = generateRolloutJsonl({ targetBytes: PIECE_BYTES, seed: SEED + piece });
      const data = Buffer.from(
        generated.bytes.buffer,
        generated.bytes.byteOffset,
        generated.bytes.length,
      );
      renameStepKey(data);
      for (const g of splitGroups(data)) {
        if (g.rows < MIN_GROUP || g.rows > MAX_GROUP) continue;
        const slice = data.subarray(g.start, g.end);
        writeAll(fd, slice);
        h = fnv(h, slice);
        first ??= g;
        bytes += slice.length;
        rows += g.rows;
        groups++;
        if (bytes >= targetBytes) break;
      }
      if (targetBytes > 200 * MB && piece % 5 === 4) log(`  ${name}: ${mb(bytes)} written`);
    }
    // Flushed before anything is timed: write-back of a just-written 1 GB competes with the reads.
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  const file: DataFile = {
    path,
    label: name,
    bytes,
    rows,
    groups,
    firstGroupRows: first!.rows,
    firstGroupBytes: first!.end - first!.start,
    fingerprint: fnvHex(h, bytes),
  };
  log(
    `${name}: ${mb(bytes)}, ${rows} rows in ${groups} groups (first group ${file.firstGroupRows} rows, ${mb(file.firstGroupBytes)}), generated in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  return file;
}

/** The first `maxBytes` of `source`, cut after the last whole line. */
export function writePrefix(source: DataFile, name: string, maxBytes: number): DataFile {
  const head = Buffer.alloc(maxBytes);
  const fd = openSync(source.path, "r");
  let read = 0;
  try {
    while (read < maxBytes) {
      const n = readSync(fd, head, read, maxBytes - read, read);
      if (n === 0) break;
      read += n;
    }
  } finally {
    closeSync(fd);
  }
  const bytes = head.subarray(0, head.subarray(0, read).lastIndexOf(10) + 1);
  const path = `${DATA_DIR}${name}`;
  writeDurably(path, bytes);
  const groups = splitGroups(bytes);
  const file: DataFile = {
    path,
    label: name,
    bytes: bytes.length,
    rows: groups.reduce((sum, g) => sum + g.rows, 0),
    groups: groups.length,
    firstGroupRows: groups[0]!.rows,
    firstGroupBytes: groups[0]!.end - groups[0]!.start,
    fingerprint: fnvHex(fnv(0x811c9dc5, bytes), bytes.length),
  };
  log(`${name}: ${mb(file.bytes)}, ${file.rows} rows in ${file.groups} groups`);
  return file;
}
