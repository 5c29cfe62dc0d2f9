/**
 * Parquet tables through hyparquet: each row is one record, referenced as "row N" (1-based, in file
 * order). Row groups are read one at a time, so a damaged row group costs its rows, not the file.
 * hyparquet decodes Snappy itself and Gzip goes through fflate (already a dependency for zip); every
 * other codec Parquet writers use (ZSTD, Brotli, LZ4, LZ4_RAW) goes through hyparquet-compressors,
 * loaded only when a file uses one (its decoders are most of its size). LZO, which no current writer
 * uses, is refused with a message saying how to re-save the file. Called by extra.ts.
 */
import { gunzipSync } from "fflate";
import {
  parquetMetadata,
  parquetReadObjects,
  parquetSchema,
  type CompressionCodec,
  type Compressors,
  type FileMetaData,
} from "hyparquet";
import { decodeUtf8 } from "../byteIndex/utf8.ts";
import { LoadError, type ParseIssue } from "../issues.ts";
import type { ContainerRead, RawRecord } from "./types.ts";

/**
 * Text cells decoded by `decodeUtf8` rather than hyparquet's `TextDecoder` (in Chromium each
 * `decode` of a new string costs microseconds, most of a short cell's cost), with the same leading
 * BOM dropped that `TextDecoder` drops by default.
 */
function textOf(bytes: Uint8Array | null | undefined): string | null | undefined {
  if (bytes === null || bytes === undefined) return bytes;
  const bom = bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  return decodeUtf8(bytes, bom ? 3 : 0, bytes.length);
}
const PARSERS = {
  stringFromBytes: textOf,
  jsonFromBytes: (bytes: Uint8Array | null | undefined): unknown => {
    const text = textOf(bytes);
    return typeof text === "string" ? JSON.parse(text) : text;
  },
};

/** What hyparquet and fflate read without the extra decoders. */
const BUILT_IN: Compressors = { GZIP: (input) => gunzipSync(input) };
const BUILT_IN_CODECS = new Set<CompressionCodec>(["UNCOMPRESSED", "SNAPPY", "GZIP"]);
/** What hyparquet-compressors adds. */
const EXTRA_CODECS = new Set<CompressionCodec>(["ZSTD", "BROTLI", "LZ4", "LZ4_RAW"]);

let extra: Promise<Compressors> | null = null;

/** hyparquet-compressors' decoders, imported once, on first need (a chunk of its own). */
function extraCompressors(): Promise<Compressors> {
  extra ??= import("hyparquet-compressors").then((m) => ({ ...BUILT_IN, ...m.compressors }));
  return extra;
}

const message = (e: unknown): string => (e instanceof Error ? e.message : String(e));

/**
 * A Parquet value as plain JSON-friendly data: an INT64 arrives as a BigInt and becomes a number when
 * it fits exactly, else its decimal text; a timestamp becomes ISO text. Binary stays a Uint8Array.
 */
export function parquetPlain(value: unknown): unknown {
  if (typeof value === "bigint") {
    const n = Number(value);
    return Number.isSafeInteger(n) ? n : value.toString();
  }
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString();
  if (value instanceof Uint8Array || value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) return value.map(parquetPlain);
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = parquetPlain(v);
  return out;
}

/** The codecs the file's column chunks use. */
function codecsOf(metadata: FileMetaData): Set<CompressionCodec> {
  const codecs = new Set<CompressionCodec>();
  for (const group of metadata.row_groups)
    for (const column of group.columns) {
      const codec = column.meta_data?.codec;
      if (codec !== undefined) codecs.add(codec);
    }
  return codecs;
}

/**
 * Why the footer's column chunks do not match its schema, or null when they do: every chunk must
 * belong to a top-level field, and a flat field has one chunk per row group. A damaged field name
 * breaks this, and hyparquet then reads a chunk it never awaits (its failure would escape as an
 * unhandled rejection), so such a footer is refused up front.
 */
export function schemaMismatch(metadata: FileMetaData): string | null {
  let children;
  try {
    children = parquetSchema(metadata).children;
  } catch (e) {
    return message(e);
  }
  const flat = new Map(children.map((c) => [c.element.name, c.children.length === 0]));
  for (const [g, group] of metadata.row_groups.entries()) {
    const seen = new Set<string>();
    for (const column of group.columns) {
      const top = column.meta_data?.path_in_schema[0];
      if (top === undefined) continue;
      const isFlat = flat.get(top);
      if (isFlat === undefined)
        return `row group ${g + 1} has a column "${top}" that its schema does not declare`;
      if (isFlat && seen.has(top)) return `row group ${g + 1} has the column "${top}" twice`;
      seen.add(top);
    }
  }
  return null;
}

/**
 * Read every row of a Parquet file.
 *
 * @throws LoadError when the footer cannot be read (truncated or not Parquet), a column uses a codec
 *   the studio cannot decompress, or no row group can be read
 */
export async function readParquet(file: string, bytes: Uint8Array): Promise<ContainerRead> {
  // hyparquet reads an ArrayBuffer; copy only when the bytes are a view into a larger or shared one.
  // (`new Uint8Array(view)` copies; a Node Buffer's `slice` would not.)
  const backing = bytes.buffer;
  const buffer: ArrayBuffer =
    backing instanceof ArrayBuffer &&
    bytes.byteOffset === 0 &&
    bytes.byteLength === backing.byteLength
      ? backing
      : new Uint8Array(bytes).buffer;
  let metadata: FileMetaData;
  try {
    metadata = parquetMetadata(buffer);
  } catch (e) {
    throw new LoadError(
      file,
      `is not a readable Parquet file: its footer cannot be read, so it is truncated or corrupt (${message(e)})`,
    );
  }
  const mismatch = schemaMismatch(metadata);
  if (mismatch !== null) {
    throw new LoadError(
      file,
      `is not a readable Parquet file: its footer is corrupt (${mismatch}), so its columns cannot be matched to fields`,
    );
  }
  const codecs = codecsOf(metadata);
  const unreadable = [...codecs].filter((c) => !BUILT_IN_CODECS.has(c) && !EXTRA_CODECS.has(c));
  if (unreadable.length > 0) {
    throw new LoadError(
      file,
      `uses the ${unreadable.join(", ")} compression codec, which the studio cannot read (it reads uncompressed, Snappy, Gzip, ZSTD, Brotli, LZ4 and LZ4_RAW Parquet); ` +
        `re-save it with Snappy or ZSTD, e.g. pandas df.to_parquet(path, compression="zstd")`,
    );
  }
  const compressors = [...codecs].some((c) => EXTRA_CODECS.has(c))
    ? await extraCompressors()
    : BUILT_IN;
  const records: RawRecord[] = [];
  const issues: ParseIssue[] = [];
  let rowStart = 0;
  const failures: string[] = [];
  for (const [g, group] of metadata.row_groups.entries()) {
    const rows = Number(group.num_rows);
    const rowEnd = rowStart + rows;
    try {
      const objects = await parquetReadObjects({
        file: buffer,
        metadata,
        rowStart,
        rowEnd,
        compressors,
        parsers: PARSERS,
      });
      objects.forEach((row, i) => {
        records.push({
          ref: { file, line: 0, member: `row ${rowStart + i + 1}` },
          value: parquetPlain(row),
        });
      });
    } catch (e) {
      failures.push(message(e));
      issues.push({
        file,
        line: 0,
        member: rows === 1 ? `row ${rowStart + 1}` : `rows ${rowStart + 1}-${rowEnd}`,
        message: `row group ${g + 1} could not be read, so its ${rows} row(s) are skipped (${message(e)})`,
      });
    }
    rowStart = rowEnd;
  }
  if (records.length === 0 && failures.length > 0) {
    throw new LoadError(file, `no row of the Parquet file could be read (${failures[0]})`);
  }
  return { records, issues, seen: rowStart, lines: 0, blank: 0 };
}
