/**
 * View model of a huge text (issue 16, point 3): a completion or tool result of tens of megabytes
 * is never rendered whole. It is cut into pieces of PIECE_CHARS characters, a piece into rows of
 * at most ROW_CHARS characters (at its line breaks, and within a long line every ROW_CHARS), and
 * the HugeText component renders the visible rows of one piece. Search and the byte count run
 * over slices of SLICE_CHARS characters, so the component can yield between them. Pure.
 */

/** A text longer than this many characters is "huge": folded with its size, read in pieces. */
export const HUGE_TEXT_CHARS = 256 * 1024;
/** Characters of one piece: the rows of a piece are indexed when it is shown (about 2 ms). */
export const PIECE_CHARS = 1_000_000;
/** Characters of one row at most: a longer line wraps onto the next row. */
export const ROW_CHARS = 160;
/** Characters one step of the byte count or of the search reads before yielding. */
export const SLICE_CHARS = 1_000_000;
/** Matches the search collects at most ("1,000+ matches"). */
export const MAX_MATCHES = 1000;

const isHigh = (code: number): boolean => code >= 0xd800 && code <= 0xdbff;

/**
 * Where each piece starts, and the text's length last: `[0, ~1e6, ~2e6, ..., length]`. A boundary
 * never falls inside a surrogate pair (it moves one code unit on).
 */
export function hugePieces(text: string, pieceChars = PIECE_CHARS): number[] {
  const starts = [0];
  for (let at = pieceChars; at < text.length; at += pieceChars) {
    const start = isHigh(text.charCodeAt(at - 1)) ? at + 1 : at;
    if (start < text.length && start > starts[starts.length - 1]!) starts.push(start);
  }
  starts.push(text.length);
  return starts;
}

/** The piece that holds the character at `offset` (the last piece for the text's end). */
export function hugePieceOf(pieces: readonly number[], offset: number): number {
  let lo = 0;
  let hi = pieces.length - 2;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (pieces[mid]! <= offset) lo = mid;
    else hi = mid - 1;
  }
  return Math.max(0, lo);
}

/**
 * Where each row of `text[from, to)` starts, as offsets into the whole text: a row ends at a line
 * break (which it does not show) or after `rowChars` characters, whichever comes first, never
 * inside a surrogate pair. An empty range has one empty row.
 */
export function hugeRows(text: string, from: number, to: number, rowChars = ROW_CHARS): Int32Array {
  const out: number[] = [];
  let at = from;
  while (at < to || out.length === 0) {
    out.push(at);
    if (at >= to) break;
    const nl = text.indexOf("\n", at);
    const lineEnd = nl === -1 || nl >= to ? to : nl;
    if (lineEnd - at <= rowChars) {
      at = lineEnd === to ? to : lineEnd + 1;
    } else {
      const end = at + rowChars;
      at = isHigh(text.charCodeAt(end - 1)) ? end + 1 : end;
    }
  }
  return Int32Array.from(out);
}

/** The text of row `i` (without its line break). */
export function hugeRowText(text: string, rows: Int32Array, i: number, to: number): string {
  const start = rows[i]!;
  const end = i + 1 < rows.length ? rows[i + 1]! : to;
  let stop = end;
  if (stop > start && text.charCodeAt(stop - 1) === 10) {
    stop--;
    if (stop > start && text.charCodeAt(stop - 1) === 13) stop--;
  }
  return text.slice(start, stop);
}

/** The row of `rows` that holds `offset` (rows ascending). */
export function hugeRowOf(rows: Int32Array, offset: number): number {
  let lo = 0;
  let hi = rows.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (rows[mid]! <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** UTF-8 bytes of `text[from, to)` (a lone surrogate counts 3, as TextEncoder writes U+FFFD). */
export function utf8Bytes(text: string, from = 0, to = text.length): number {
  let bytes = 0;
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (isHigh(c) && i + 1 < text.length) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        bytes += 4;
        i++;
      } else bytes += 3;
    } else bytes += 3;
  }
  return bytes;
}

/** "50.0 MB", "812.4 KB", "999 bytes" (decimal units, as the file sizes the studio shows). */
export function formatBytes(bytes: number): string {
  if (bytes < 1000) return `${bytes} byte${bytes === 1 ? "" : "s"}`;
  if (bytes < 1e6) return `${(bytes / 1e3).toFixed(1)} KB`;
  if (bytes < 1e9) return `${(bytes / 1e6).toFixed(1)} MB`;
  return `${(bytes / 1e9).toFixed(2)} GB`;
}

/**
 * The folded label: "50.0 MB text, shown in pieces (50,000,000 characters)"; while the bytes are
 * being counted, the characters alone.
 */
export function hugeLabel(chars: number, bytes: number | null): string {
  const count = `${chars.toLocaleString("en-US")} characters`;
  return bytes === null
    ? `${count} of text, shown in pieces (counting bytes…)`
    : `${formatBytes(bytes)} text, shown in pieces (${count})`;
}

/**
 * Offsets of the matches of `query` that start in `text[from, to)`, case-insensitive, at most
 * `limit`. A match may run past `to` (the slice read is `query.length - 1` longer), so searching
 * consecutive ranges finds every match once. Where lower-casing changes a slice's length (a few
 * characters such as "İ" do), that slice is searched case-sensitively, so offsets stay true.
 */
export function hugeFind(
  text: string,
  query: string,
  from: number,
  to: number,
  limit = MAX_MATCHES,
): number[] {
  if (query === "" || limit <= 0) return [];
  const slice = text.slice(from, Math.min(text.length, to + query.length - 1));
  const lower = slice.toLowerCase();
  const folded = lower.length === slice.length;
  const hay = folded ? lower : slice;
  const needle = folded ? query.toLowerCase() : query;
  const out: number[] = [];
  const end = to - from;
  for (let at = hay.indexOf(needle); at !== -1 && at < end; at = hay.indexOf(needle, at + 1)) {
    out.push(from + at);
    if (out.length >= limit) break;
  }
  return out;
}

/** The index of the first match at or after `offset`, wrapping to 0; -1 when there are none. */
export function hugeNextMatch(matches: readonly number[], offset: number): number {
  if (matches.length === 0) return -1;
  const i = matches.findIndex((m) => m >= offset);
  return i === -1 ? 0 : i;
}

/** Where a search of a huge text stands, for its status line. */
export interface HugeSearchProgress {
  readonly query: string;
  /** Matches found so far (at most MAX_MATCHES). */
  readonly matches: number;
  /** Characters searched so far, of `chars`. */
  readonly scanned: number;
  readonly chars: number;
  readonly done: boolean;
  /** The current match's place among them. */
  readonly index: number;
}

/** The search's status line: "" without a query, the progress until a match, then "3 of 12". */
export function hugeSearchStatus(p: HugeSearchProgress): string {
  if (p.query === "") return "";
  if (p.matches === 0)
    return p.done
      ? "no match"
      : `searching… ${Math.round((100 * p.scanned) / Math.max(1, p.chars))}%`;
  return `${(p.index + 1).toLocaleString("en-US")} of ${p.matches.toLocaleString("en-US")}${
    p.matches >= MAX_MATCHES ? "+" : ""
  }${p.done ? "" : " so far"}`;
}
