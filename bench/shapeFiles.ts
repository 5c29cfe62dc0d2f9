/**
 * A shape's file on disk: streamed in 8 MB chunks with its counts and fingerprint, and reused from
 * bench/.data/matrix while its manifest matches.
 */
import {
  closeSync,
  existsSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  statSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import { join } from "node:path";

import type { ShapeName, ShapeOptions } from "./shapeCatalog.ts";
import { shapeLines } from "./shapeRows.ts";

/** What a written (or reused) file holds: what the studio must count, and what to open. */
export interface ShapeFile {
  readonly shape: ShapeName;
  readonly path: string;
  readonly targetBytes: number;
  readonly bytes: number;
  readonly lines: number;
  /** Valid rows: the rollouts the studio must count. */
  readonly rows: number;
  /** Malformed lines: the records it must reject. */
  readonly malformed: number;
  readonly groups: number;
  readonly firstGroupId: string;
  /** The longest line: its group (opened for the tab switch) and size. */
  readonly largestGroupId: string;
  readonly largestRowBytes: number;
  /** FNV-1a over the file's bytes, folded with its length (generate.ts fingerprintBytes). */
  readonly fingerprint: string;
  readonly generator: string;
}

/** Bump when a shape's output changes: manifests of another version are written again. */
export const SHAPES_GENERATOR = "bench/shapes.ts/1";

/** Every line's bytes pass through this FNV-1a (continued across chunks). */
function fnv(h: number, bytes: Uint8Array): number {
  for (let i = 0; i < bytes.length; i++) h = Math.imul(h ^ bytes[i]!, 0x01000193);
  return h;
}

const fnvFinish = (h: number, length: number): string =>
  (Math.imul(h ^ (length % 0x7fffffff), 0x01000193) >>> 0).toString(16).padStart(8, "0");

const CHUNK_BYTES = 8 << 20;

/**
 * Stream `shape` to `path` (through `path.tmp`, renamed when complete and flushed), holding at
 * most one 8 MB chunk of lines besides the generator's own state.
 */
export function writeShapeFile(
  shape: ShapeName,
  targetBytes: number,
  path: string,
  options: ShapeOptions = {},
): ShapeFile {
  const tmp = `${path}.tmp`;
  const fd = openSync(tmp, "w");
  let h = 0x811c9dc5;
  let bytes = 0;
  let lines = 0;
  let rows = 0;
  let malformed = 0;
  const groups = new Set<string>();
  let firstGroupId = "";
  let largestGroupId = "";
  let largestRowBytes = 0;
  let pending: string[] = [];
  let pendingBytes = 0;
  const flush = (): void => {
    if (pending.length === 0) return;
    const chunk = Buffer.from(pending.join(""), "utf8");
    h = fnv(h, chunk);
    for (let at = 0; at < chunk.length;) at += writeSync(fd, chunk, at, chunk.length - at);
    pending = [];
    pendingBytes = 0;
  };
  try {
    for (const l of shapeLines(shape, targetBytes, options)) {
      lines++;
      bytes += l.bytes;
      if (l.valid) {
        rows++;
        groups.add(l.groupId);
        if (firstGroupId === "") firstGroupId = l.groupId;
        if (l.bytes > largestRowBytes) {
          largestRowBytes = l.bytes;
          largestGroupId = l.groupId;
        }
      } else malformed++;
      pending.push(l.text, "\n");
      pendingBytes += l.bytes;
      if (pendingBytes >= CHUNK_BYTES) flush();
    }
    flush();
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, path);
  return {
    shape,
    path,
    targetBytes,
    bytes,
    lines,
    rows,
    malformed,
    groups: groups.size,
    firstGroupId,
    largestGroupId,
    largestRowBytes,
    fingerprint: fnvFinish(h, bytes),
    generator: SHAPES_GENERATOR,
  };
}

export const MATRIX_DATA_DIR = join(import.meta.dirname, ".data", "matrix");

/**
 * The file of `shape` at `sizeMB` megabytes (10^6 bytes) in bench/.data/matrix: reused when its
 * manifest matches (generator, shape, target) and the file has the manifest's size, else written.
 */
export function shapeFile(
  shape: ShapeName,
  sizeMB: number,
  log: (message: string) => void = () => undefined,
): ShapeFile {
  mkdirSync(MATRIX_DATA_DIR, { recursive: true });
  const path = join(MATRIX_DATA_DIR, `${shape}-${sizeMB}MB.jsonl`);
  const manifestPath = `${path}.manifest.json`;
  const targetBytes = sizeMB * 1e6;
  if (existsSync(manifestPath) && existsSync(path)) {
    const m = JSON.parse(readFileSync(manifestPath, "utf8")) as ShapeFile;
    if (
      m.generator === SHAPES_GENERATOR &&
      m.shape === shape &&
      m.targetBytes === targetBytes &&
      m.path === path &&
      statSync(path).size === m.bytes
    )
      return m;
  }
  const started = performance.now();
  log(`  writing ${path}`);
  const file = writeShapeFile(shape, targetBytes, path);
  writeFileSync(manifestPath, JSON.stringify(file));
  log(
    `  ${shape} ${sizeMB} MB: ${(file.bytes / 1e6).toFixed(1)} MB, ${file.rows} rows (${file.malformed} malformed) in ${file.groups} groups, written in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  return file;
}
