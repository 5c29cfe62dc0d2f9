/**
 * Which format a large file is indexed as, without reading it all: detection on its head by a
 * whole-file load's rules (sampleHead), or a run's format (runFormatHint) confirmed on a file's
 * first record (confirmsHint).
 */
import { bomLength, decodeRecord, splitJsonlBytes, utf16Bom } from "../containers/bytes.ts";
import { parseJsonLenient } from "../containers/pythonJson.ts";
import { chooseFormat, type FormatCandidate } from "../formats/load.ts";
import {
  SAMPLE_LINES,
  SAMPLE_WINDOW_BYTES,
  sniffMagic,
  sniffText,
  type TextSniff,
} from "../formats/sniff.ts";
import { formatIndexFor, type PromptHashes } from "../byteIndex/formatIndex.ts";
import { LoadError } from "../issues.ts";
import type { ByteSource } from "./byteSource.ts";
import { CHUNK } from "./indexedState.ts";

/**
 * The head's first read: enough for the sample's 50 records when rows are short. Longer rows grow
 * it to what the lines read so far say the sample needs, up to the 4 MB window, reading only the
 * new bytes (a file of 40 KB rows read 256 KB, then the whole 4 MB again, and parsed both).
 */
const FIRST_HEAD_BYTES = 256 << 10;

/** Whether `bytes` hold a byte other than a BOM's, space, tab, CR or LF. */
function hasText(bytes: Uint8Array): boolean {
  for (let i = bomLength(bytes); i < bytes.length; i++) {
    const b = bytes[i]!;
    if (b !== 0x0a && b !== 0x20 && b !== 0x09 && b !== 0x0d) return true;
  }
  return false;
}

/**
 * Where a file's text starts (the line of its first non-space byte; see textLineStart), read 1 MB
 * at a time so a file that starts with megabytes of whitespace is judged by its text, as a
 * whole-file load judges it; -1 when the file is all whitespace.
 */
async function textStart(file: ByteSource, first: Uint8Array): Promise<number> {
  let lineStart = 0;
  for (let at = 0; at < file.size; at += CHUNK) {
    // The first bytes are in hand: a file whose text starts in them needs no read of 1 MB.
    const chunk =
      at === 0 && first.length > 0 && hasText(first)
        ? first
        : new Uint8Array(await file.slice(at, Math.min(file.size, at + CHUNK)).arrayBuffer());
    const from = at === 0 ? bomLength(chunk) : 0;
    if (at === 0) lineStart = from;
    for (let i = from; i < chunk.length; i++) {
      const b = chunk[i]!;
      if (b === 0x0a) lineStart = at + i + 1;
      else if (b !== 0x20 && b !== 0x09 && b !== 0x0d) return lineStart;
    }
  }
  return -1;
}

/**
 * Detection for a large file without reading it all, by the rules of a whole-file load
 * (sniffText in load.ts) on its head: the first 50 non-blank lines within 4 MB of where its text
 * starts. The head grows from FIRST_HEAD_BYTES until it holds them (the head's bytes are read
 * again by the index after). Null when the file is not JSONL or its head
 * cannot tell (a UTF-16 file, a first value longer than the head): it is then loaded whole.
 *
 * @throws LoadError for an empty or binary file, as a whole-file load would
 */
export async function sampleHead(
  file: ByteSource,
  forced: string | undefined,
): Promise<unknown[] | null> {
  const first = new Uint8Array(await file.slice(0, Math.min(file.size, 4096)).arrayBuffer());
  if (sniffMagic(file.name, first) !== null || utf16Bom(first) !== null) return null;
  const start = await textStart(file, first);
  if (start === -1) throw new LoadError(file.name, "the file is empty");
  let sniffed: TextSniff | null = null;
  let head = new Uint8Array(0);
  for (let size = FIRST_HEAD_BYTES; ;) {
    const end = Math.min(file.size, start + size);
    // Only the bytes past the head read so far.
    const more = new Uint8Array(await file.slice(start + head.length, end).arrayBuffer());
    const grown = new Uint8Array(head.length + more.length);
    grown.set(head);
    grown.set(more, head.length);
    head = grown;
    const last = end === file.size || size >= SAMPLE_WINDOW_BYTES;
    // The sample's lines counted, not parsed: the last one may be cut.
    const lines = splitJsonlBytes(head, false).records.length - 1;
    if (last || lines >= SAMPLE_LINES) {
      sniffed = sniffText(file.name, head, end === file.size, forced);
      // Enough when the head holds the sample's lines whole (or is the whole file).
      if (last || sniffed?.sample !== undefined) break;
    }
    // Grow to what the sample needs at this head's bytes per line (a quarter more), at least twice.
    const perLine = head.length / Math.max(1, lines);
    size = Math.min(
      SAMPLE_WINDOW_BYTES,
      Math.max(size * 2, Math.ceil(perLine * (SAMPLE_LINES + 1) * 1.25)),
    );
  }
  return sniffed?.container === "jsonl" ? [...(sniffed.sample ?? [])] : null;
}

/**
 * A run's format as detected on its first file (`runFormatHint`): the run's other files are
 * checked against it on their first record instead of a 50-record sample each.
 */
export interface RunFormatHint {
  /** The file it was detected on (its name as a source). */
  readonly file: string;
  readonly format: string;
  readonly candidates: readonly FormatCandidate[];
}

/** What indexing the files of one run shares: the run's format, and the prompt hashes. */
export interface RunIndexShared {
  readonly hint?: RunFormatHint | null;
  readonly hashes?: PromptHashes;
}

/** Bytes read to find a file's first record when the run's format is only confirmed. */
const CONFIRM_BYTES = 64 << 10;

/**
 * A run's format from its first file, when that file is JSONL in a format that can be indexed;
 * null otherwise (each file is then detected on its own, as a single file is).
 *
 * @throws LoadError / AmbiguousFormatError from detection, as a whole-file load would
 */
export async function runFormatHint(
  file: ByteSource,
  format: string | undefined,
): Promise<RunFormatHint | null> {
  const sample = await sampleHead(file, format);
  if (sample === null) return null;
  const { spec, candidates } = chooseFormat(file.name, "jsonl", sample, undefined, format);
  if (formatIndexFor(spec.id) === undefined) return null;
  return { file: file.name, format: spec.id, candidates };
}

/**
 * Whether a file of a run is in the run's format: it is JSONL, and its first record alone picks
 * the same format (one record parsed instead of fifty; a file whose first record does not, or
 * that has no complete record in its first 64 KB, is detected in full).
 */
export async function confirmsHint(
  file: ByteSource,
  format: string | undefined,
  hint: RunFormatHint,
): Promise<boolean> {
  const head = new Uint8Array(
    await file.slice(0, Math.min(file.size, CONFIRM_BYTES)).arrayBuffer(),
  );
  if (sniffMagic(file.name, head) !== null || utf16Bom(head) !== null) return false;
  const { records } = splitJsonlBytes(head);
  // The last line of a cut head may be incomplete.
  const whole = file.size > head.length ? records.slice(0, -1) : records;
  for (const r of whole) {
    const decoded = decodeRecord(head.subarray(r.start, r.end));
    if (!decoded.ok) return false;
    const parsed = parseJsonLenient(decoded.text);
    if (!parsed.ok) return false;
    try {
      return (
        chooseFormat(file.name, "jsonl", [parsed.value], undefined, format).spec.id === hint.format
      );
    } catch {
      return false;
    }
  }
  return false;
}
