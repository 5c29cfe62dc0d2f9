/**
 * The benchmark matrix's data (issue 16, point 1; bench/matrix.ts): six shapes of native Rollout
 * Studio JSONL, each deterministic (mulberry32, a fixed seed per shape; generate.ts's Zipf
 * vocabulary, prose and code blocks) and streamed to disk line by line, so a 1 GB file never sits
 * in memory. Files live in bench/.data/matrix (never committed) and are written once: a manifest
 * beside each (generator version, target size, counts, fingerprint) lets the next run reuse it.
 *
 * This module is their public face: shapeCatalog.ts holds the names, seeds and arguments,
 * shapeRows.ts each shape's lines, shapeFiles.ts the files and their manifests.
 *
 * | shape          | rows                                   | groups                                  |
 * | -------------- | -------------------------------------- | --------------------------------------- |
 * | `small`        | 1.4-2.0 KB, prompt + completion        | 8, contiguous; one line in 997 malformed |
 * | `agent`        | 20-60 KB `messages` with tool calls    | 4-16, contiguous                         |
 * | `huge`         | the small rows, and one 50 MB completion | 8, contiguous; the huge row's group at 10% |
 * | `large-groups` | 1.5-4 KB                               | 64-512, contiguous                       |
 * | `interleaved`  | the small rows                         | 8, each spread over the whole file       |
 * | `many-groups`  | 90-150 bytes                           | 2-6, and at least 100,000 of them        |
 */
export {
  HUGE_COMPLETION_CHARS,
  isShapeName,
  MALFORMED_EVERY,
  MANY_GROUPS_MIN,
  matrixArgs,
  SHAPE_INFO,
  SHAPE_NAMES,
  type ShapeLine,
  type ShapeName,
  type ShapeOptions,
} from "./shapeCatalog.ts";
export { shapeLines } from "./shapeRows.ts";
export {
  MATRIX_DATA_DIR,
  shapeFile,
  SHAPES_GENERATOR,
  writeShapeFile,
  type ShapeFile,
} from "./shapeFiles.ts";
