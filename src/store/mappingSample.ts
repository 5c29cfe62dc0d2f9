/**
 * The records at the start of a file, for the field-mapping dialog: only the first SAMPLE_BYTES
 * are read (never the whole file), the container is sniffed with src/io's rules, and the records
 * that fit whole in that slice are parsed. The cut-off last record is dropped. `fieldAt` is how
 * the mapped format reads a field path, so the dialog's preview groups as the load will.
 */
import {
  decodeRecord,
  splitJsonArrayBytes,
  splitJsonlBytes,
  type ByteRecord,
} from "../io/containers/bytes.ts";
import { csvSample } from "../io/containers/csv.ts";
import { sniffContainer } from "../io/formats/sniff.ts";
import type { Container } from "../io/formats/spec.ts";

export { fieldAt } from "../io/formats/fields.ts";

/** How much of the file the dialog reads. */
export const SAMPLE_BYTES = 64 * 1024;

export type MappingSample =
  | {
      readonly ok: true;
      readonly container: Container;
      readonly records: readonly unknown[];
      /** True when the file is longer than the slice that was read. */
      readonly partial: boolean;
      /** CSV only: the header's names, so columns show even when no row fits in the sample. */
      readonly header: readonly string[] | null;
    }
  | { readonly ok: false; readonly message: string };

function parseRanges(bytes: Uint8Array, ranges: readonly ByteRecord[]): unknown[] {
  const out: unknown[] = [];
  for (const r of ranges) {
    const decoded = decodeRecord(bytes.subarray(r.start, r.end));
    if (!decoded.ok) continue;
    try {
      out.push(JSON.parse(decoded.text));
    } catch {
      // A line that is not JSON shows up as an issue when the file is loaded; the sample skips it.
    }
  }
  return out;
}

/** Parse a slice of a file (`partial`: the file goes on past it). Never throws. */
export function sampleFromBytes(name: string, bytes: Uint8Array, partial: boolean): MappingSample {
  let container: Container;
  try {
    container = sniffContainer(name, bytes);
  } catch (e) {
    return { ok: false, message: e instanceof Error ? e.message : String(e) };
  }
  switch (container) {
    case "jsonl": {
      const { records } = splitJsonlBytes(bytes);
      const whole = partial ? records.slice(0, -1) : records;
      return { ok: true, container, records: parseRanges(bytes, whole), partial, header: null };
    }
    case "json-array": {
      const { records } = splitJsonArrayBytes(bytes);
      const whole = partial ? records.slice(0, -1) : records;
      return { ok: true, container, records: parseRanges(bytes, whole), partial, header: null };
    }
    case "json-document":
      // A JSONL file whose first line is longer than the slice sniffs as one document.
      return partial
        ? { ok: true, container: "jsonl", records: [], partial, header: null }
        : {
            ok: false,
            message:
              "This file is one JSON document, not a list of records; the field mapping reads JSON lines, JSON arrays, CSV and Parquet.",
          };
    case "csv": {
      const { header, rows } = csvSample(bytes, partial);
      return { ok: true, container, records: rows, partial, header };
    }
    case "parquet":
      // Parquet keeps its schema at the end of the file; the sample cannot show its columns.
      return { ok: true, container, records: [], partial, header: null };
    case "zip":
      return {
        ok: false,
        message:
          "This file is a zip archive; the field mapping reads JSON lines, JSON arrays, CSV and Parquet.",
      };
  }
}

/** Read and parse the start of a file. Never rejects: a failure is a `{ ok: false }` sample. */
export async function readMappingSample(file: File): Promise<MappingSample> {
  try {
    const slice = file.slice(0, SAMPLE_BYTES);
    const bytes = new Uint8Array(await slice.arrayBuffer());
    return sampleFromBytes(file.name, bytes, file.size > bytes.length);
  } catch (e) {
    return {
      ok: false,
      message: `The start of the file could not be read: ${e instanceof Error ? e.message : String(e)}`,
    };
  }
}

const cache = new WeakMap<File, Promise<MappingSample>>();

/** The sample of a file, read once per File object (a stable promise for React's `use`). */
export function mappingSampleFor(file: File): Promise<MappingSample> {
  let promise = cache.get(file);
  if (promise === undefined) {
    promise = readMappingSample(file);
    cache.set(file, promise);
  }
  return promise;
}
