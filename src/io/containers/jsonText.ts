/**
 * The JSON containers: JSON lines, a JSON array and one JSON document, read from their bytes.
 * Each record is decoded and parsed on its own (Python's bare NaN and Infinity read as strings,
 * pythonJson.ts), so a bad one becomes an issue naming its line and never takes the others down.
 */
import type { RecordRef } from "../formats/spec.ts";
import { LoadError, type ParseIssue } from "../issues.ts";
import {
  bomLength,
  countLines,
  decodeRecord,
  splitJsonArrayBytes,
  splitJsonlBytes,
  type ByteRecord,
} from "./bytes.ts";
import { parseJsonLenient } from "./pythonJson.ts";
import type { ContainerRead, RawRecord } from "./types.ts";

function preview(text: string): string {
  const t = text.trim();
  return t.length > 60 ? `${t.slice(0, 60)}…` : t;
}

/**
 * Where each array element is: its line, and its JSON path ("[3]") when another element starts on
 * the same line (a minified array puts them all on line 1, where the line alone finds none).
 */
function elementRefs(file: string, ranges: readonly ByteRecord[]): RecordRef[] {
  const perLine = new Map<number, number>();
  for (const r of ranges) perLine.set(r.line, (perLine.get(r.line) ?? 0) + 1);
  return ranges.map((r, i) =>
    perLine.get(r.line)! > 1 ? { file, line: r.line, member: `[${i}]` } : { file, line: r.line },
  );
}

/** Why a record holding a raw NUL byte is rejected (JSON text never holds one). */
export function nulMessage(raw: Uint8Array, at: number): string {
  const column = new TextDecoder().decode(raw.subarray(0, at)).length + 1;
  return `holds a raw NUL byte at column ${column} (binary data in a text file), so it is not valid JSON`;
}

/** Decode and parse byte-range records, turning failures into issues. */
function parseByteRecords(
  bytes: Uint8Array,
  ranges: readonly ByteRecord[],
  refs: readonly RecordRef[],
  issues: ParseIssue[],
): RawRecord[] {
  const out: RawRecord[] = [];
  ranges.forEach((r, i) => {
    const ref = refs[i]!;
    const raw = bytes.subarray(r.start, r.end);
    const nul = raw.indexOf(0);
    if (nul !== -1) {
      issues.push({ ...ref, message: nulMessage(raw, nul) });
      return;
    }
    const decoded = decodeRecord(raw);
    if (!decoded.ok) {
      issues.push({ ...ref, message: decoded.message });
      return;
    }
    const parsed = parseJsonLenient(decoded.text);
    if (parsed.ok) out.push({ ref, value: parsed.value });
    else
      issues.push({
        ...ref,
        message: `not valid JSON (${parsed.message}): ${preview(decoded.text)}`,
      });
  });
  return out;
}

/** JSON lines: one record per non-blank line, each a rollout or an issue. */
export function readJsonl(file: string, bytes: Uint8Array): ContainerRead {
  const issues: ParseIssue[] = [];
  const { records, blank, lines } = splitJsonlBytes(bytes);
  return {
    records: parseByteRecords(
      bytes,
      records,
      records.map((r) => ({ file, line: r.line })),
      issues,
    ),
    issues,
    seen: records.length,
    lines,
    blank,
  };
}

/** A JSON array: one record per element, a broken array's readable elements kept. */
export function readJsonArray(file: string, bytes: Uint8Array): ContainerRead {
  const issues: ParseIssue[] = [];
  const split = splitJsonArrayBytes(bytes);
  if (split.error) issues.push({ file, line: split.error.line, message: split.error.message });
  return {
    records: parseByteRecords(bytes, split.records, elementRefs(file, split.records), issues),
    issues,
    seen: split.records.length,
    lines: countLines(bytes),
    blank: 0,
  };
}

/**
 * One JSON document, parsed whole (a format's `explode` makes its records).
 *
 * @throws LoadError when it is not valid JSON
 */
export function readJsonDocument(
  file: string,
  bytes: Uint8Array,
): ContainerRead & { document: unknown } {
  const decoded = decodeRecord(bytes.subarray(bomLength(bytes)));
  if (!decoded.ok) throw new LoadError(file, decoded.message);
  const parsed = parseJsonLenient(decoded.text);
  if (!parsed.ok)
    throw new LoadError(
      file,
      `is not JSON lines, and not one valid JSON document either (${parsed.message})`,
    );
  return {
    records: [],
    issues: [],
    seen: 0,
    lines: countLines(bytes),
    blank: 0,
    document: parsed.value,
  };
}
