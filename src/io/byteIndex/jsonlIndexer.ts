/**
 * Streaming byte-level JSONL indexer (performance.md sections 0, 2, 3 and 11).
 *
 * Owns: turning a file's bytes, pushed chunk by chunk, into a compact row index (byte offset, byte
 * length, 1-based line, and the values of a few top-level keys) without decoding the file or
 * `JSON.parse`-ing any whole line. Called by the indexing worker (browser, BYOB reader with one
 * reused 1 MB buffer) and by Node code that reads files in chunks. Pure TypeScript: no DOM and no
 * Node APIs, only `Uint8Array`, `TextDecoder` and `JSON.parse` of small slices.
 *
 * Why bytes: `JSON.parse` of a 200 MB dump runs at 144-317 MB/s and keeps the whole file as objects
 * (1.06-1.08x the file size on the heap, ~72 KB per long row), while a scanner that jumps over
 * strings (jsonTokens.ts's `findByte`) indexes the same bytes at ~1.4 GB/s in 1 MB chunks and keeps
 * ~100 bytes per row with four keys (bench `index.jsonl.200MB`, `index.memory.perRow`). Rows are
 * decoded and parsed later, lazily, from `offset`/`length`.
 *
 * What it checks: only what it walks. At the top level it validates the object grammar (keys,
 * colons, commas, scalar tokens, nothing after the closing brace); inside skipped nested values it
 * only matches brackets and skips strings. Wanted values are decoded exactly as `JSON.parse` would
 * decode them. Anything else wrong with a line is left to the full parser, which reports details.
 *
 * Three layers, one file each: rowStore.ts (the typed tables and their accessors), rowWalker.ts
 * (one line's object walk into them) and this file (cutting the pushed chunks into lines).
 */

import { CR, findByte, LF } from "./jsonTokens.ts";
import { JsonlBadReason, type JsonlIndexerOptions } from "./jsonlTypes.ts";
import { JsonlRowWalker } from "./rowWalker.ts";

export * from "./jsonlTypes.ts";

/**
 * Incremental JSONL indexer. Push the file's bytes in order with `push` (chunks may split a line,
 * a UTF-8 sequence or the BOM anywhere), then call `finish` once. Every line ends up as exactly one
 * of: a row (status "ok", "bad" or "tooLarge") or a blank line, so `rowCount + blankCount ===
 * lineCount`. Never throws on input bytes; only on misuse (a key listed twice, push after finish).
 *
 * Chunks are never retained: the caller may reuse its buffer as soon as `push` returns (BYOB
 * reader). Only the unfinished tail of a line is copied, into one growable carry buffer; a line
 * over `maxLineBytes` stops being copied and is skipped to its newline.
 *
 * Memory: per row 8 (offset) + 4 (length) + 4 (line) + 1 (reason) bytes, plus 9 per key (tag and
 * a float64 payload), plus the strings themselves, held once per distinct value when interned.
 * With `group_id`, `id` (not interned), `reward` and `rewards` ("parse") that is ~99 bytes per row
 * in total (bench `index.memory.perRow`), against ~72 KB per row as parsed objects.
 */
export class JsonlIndexer extends JsonlRowWalker {
  /** File offset where the unfinished line started, or -1 when the last chunk ended a line. */
  private pendingStart = -1;
  private carry = new Uint8Array(64 * 1024);
  private carryLength = 0;
  /** True while skipping an over-long line to its newline without holding it. */
  private skipping = false;
  /** Last byte seen of a skipped line, to drop the CR of a CRLF split across chunks. */
  private skippedLast = 0;
  /** The file's first bytes, to recognise a BOM at the start of a line that is not held. */
  private readonly head = new Uint8Array(3);
  private headLength = 0;

  private finished = false;

  /** Bytes pushed so far, for progress. */
  get bytesRead(): number {
    return this.base;
  }
  get isFinished(): boolean {
    return this.finished;
  }

  /**
   * Index the next chunk of the file. Returns how many rows it completed (read them with
   * `rowsSince`). The chunk is not retained, so a reused buffer may be refilled right after.
   */
  push(chunk: Uint8Array): number {
    if (this.finished) throw new Error("jsonl index: push() after finish()");
    const size = chunk.length;
    if (size === 0) return 0;
    const before = this.n;
    this.forgetBuffer();
    for (let i = 0; this.headLength < 3 && i < size; i++) this.head[this.headLength++] = chunk[i]!;
    let pos = 0;
    if (this.pendingStart >= 0) {
      const nl = findByte(chunk, LF, 0, size, this.wordsOf(chunk));
      const stop = nl === -1 ? size : nl;
      if (!this.skipping && this.carryLength + stop > this.maxLineBytes + 4) {
        // Over the limit even after dropping a CR and a BOM: stop holding it.
        this.skipping = true;
        if (this.carryLength > 0) this.skippedLast = this.carry[this.carryLength - 1]!;
        this.carryLength = 0;
        this.releaseCarry();
      }
      if (this.skipping) {
        if (stop > 0) this.skippedLast = chunk[stop - 1]!;
        if (nl === -1) {
          this.base += size;
          return 0;
        }
        this.skippedLine(this.base + nl);
      } else {
        this.appendCarry(chunk, 0, stop);
        if (nl === -1) {
          this.base += size;
          return 0;
        }
        this.line(this.carry, 0, this.carryLength, this.pendingStart);
        this.forgetBuffer();
        this.carryLength = 0;
        this.releaseCarry();
      }
      this.pendingStart = -1;
      pos = nl + 1;
    }
    const words = this.wordsOf(chunk);
    while (pos < size) {
      const nl = findByte(chunk, LF, pos, size, words);
      if (nl === -1) break;
      this.line(chunk, pos, nl, this.base + pos);
      pos = nl + 1;
    }
    if (pos < size) {
      this.pendingStart = this.base + pos;
      if (size - pos > this.maxLineBytes + 4) {
        this.skipping = true;
        this.skippedLast = chunk[size - 1]!;
      } else {
        this.appendCarry(chunk, pos, size);
      }
    }
    this.base += size;
    return this.n - before;
  }

  /**
   * End of file: index a last line that has no final newline, and trim the tables to size. A file
   * ending in a newline has no extra empty line (as `split` + drop-last would say).
   */
  finish(): number {
    if (this.finished) return 0;
    const before = this.n;
    this.forgetBuffer();
    if (this.pendingStart >= 0) {
      if (this.skipping) this.skippedLine(this.base);
      else if (!(this.pendingStart === 0 && this.carryLength === 3 && this.headIsBom())) {
        // A file that is only a BOM has no lines.
        this.line(this.carry, 0, this.carryLength, this.pendingStart);
      }
      this.pendingStart = -1;
    }
    this.finished = true;
    this.carry = new Uint8Array(0);
    this.carryLength = 0;
    this.releaseWalk();
    this.resize(this.n);
    for (const c of this.columns) {
      // Exact-size copies: a grown array keeps up to half its slots spare.
      c.strings = c.strings.slice();
      c.parsed = c.parsed.slice();
    }
    return this.n - before;
  }

  private headIsBom(): boolean {
    return (
      this.headLength === 3 &&
      this.head[0] === 0xef &&
      this.head[1] === 0xbb &&
      this.head[2] === 0xbf
    );
  }

  private appendCarry(chunk: Uint8Array, start: number, end: number): void {
    const need = this.carryLength + (end - start);
    if (need > this.carry.length) {
      // Doubling, but never past the longest line that is still held (maxLineBytes + CR + BOM).
      const grown = new Uint8Array(
        Math.max(need, Math.min(this.carry.length * 2, this.maxLineBytes + 4)),
      );
      grown.set(this.carry.subarray(0, this.carryLength));
      this.carry = grown;
    }
    this.carry.set(chunk.subarray(start, end), this.carryLength);
    this.carryLength = need;
  }

  /** After a very long line, give the big carry buffer back instead of holding it for the file. */
  private releaseCarry(): void {
    if (this.carry.length > 16 * 1024 * 1024) this.carry = new Uint8Array(64 * 1024);
  }

  /** An over-long line that ended at file offset `end` (its LF, or end of file), never held. */
  private skippedLine(end: number): void {
    this.lineNumber++;
    let start = this.pendingStart;
    if (start === 0 && this.headIsBom()) start = 3;
    const stop = this.skippedLast === CR ? end - 1 : end;
    this.addRow(start, stop - start, JsonlBadReason.TooLarge);
    this.tooLarge++;
    this.skipping = false;
    this.skippedLast = 0;
  }
}

/**
 * Index a whole file given as chunks (any iterable of byte arrays, e.g. one `Uint8Array`, or a
 * Node read loop's buffers) and return the finished indexer. For tests and the CLI; the worker
 * drives `JsonlIndexer` itself to report progress between chunks.
 */
export function indexJsonl(
  chunks: Iterable<Uint8Array>,
  options: JsonlIndexerOptions,
): JsonlIndexer {
  const indexer = new JsonlIndexer(options);
  for (const chunk of chunks) indexer.push(chunk);
  indexer.finish();
  return indexer;
}
