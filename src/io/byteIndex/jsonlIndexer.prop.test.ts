/**
 * Properties of the byte-level JSONL indexer against JSON.parse and an independent line split:
 * values of top-level keys equal JSON.parse's, offsets and lengths slice back to each line, every
 * line is accounted for, and chunk boundaries never change the result. Golden cases live in
 * jsonlIndexer.test.ts.
 */
import { fc, test } from "@fast-check/vitest";
import { describe, expect } from "vitest";
import { findByte, wordsOver } from "./jsonTokens.ts";
import {
  JsonlBadReason,
  JsonlIndexer,
  JsonlTag,
  type JsonlFieldValue,
  type JsonlIndexerOptions,
} from "./jsonlIndexer.ts";

const enc = new TextEncoder();
const dec = new TextDecoder("utf-8", { ignoreBOM: true });
const BOM = [0xef, 0xbb, 0xbf];

function fnv1a(bytes: Uint8Array): number {
  let h = 0x811c9dc5;
  for (const b of bytes) h = Math.imul(h ^ b, 0x01000193);
  return h >>> 0;
}

/**
 * Push `bytes` cut at `cuts` (positions, any order, duplicates allowed) into a fresh indexer.
 * Every other chunk is a copy (its bytes start 4-aligned, so `findByte` scans it by words); the
 * others are views at any offset (`indexOf`).
 */
function indexAt(
  bytes: Uint8Array,
  cuts: readonly number[],
  options: JsonlIndexerOptions,
): JsonlIndexer {
  const ix = new JsonlIndexer(options);
  const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  let at = 0;
  let copy = false;
  for (const p of [...points, bytes.length]) {
    if (p > at) ix.push(copy ? bytes.slice(at, p) : bytes.subarray(at, p));
    copy = !copy;
    at = Math.max(at, p);
  }
  ix.finish();
  return ix;
}

/** What a key's value should look like, given how its key is configured. */
function expectedValue(value: unknown, mode: "hash" | "raw" | "parse"): JsonlFieldValue {
  if (value === undefined) return undefined;
  if (typeof value !== "object" || value === null) return value as string | number | boolean | null;
  const json = JSON.stringify(value);
  if (mode === "parse") return { kind: "parsed", value };
  if (mode === "raw") return { kind: "raw", json };
  return { kind: "hash", hash: fnv1a(enc.encode(json)) };
}

const WANTED = ["group_id", "id", "reward", "rewards", "meta", "h"] as const;
const OPTIONS: JsonlIndexerOptions = {
  keys: [
    "group_id",
    { name: "id", intern: false },
    "reward",
    { name: "rewards", composite: "parse" },
    { name: "meta", composite: "raw" },
    { name: "h", composite: "hash" },
  ],
  maxParseBytes: Infinity,
};
const MODES = ["hash", "hash", "hash", "parse", "raw", "hash"] as const;

const key = fc.oneof(
  fc.constantFrom(...WANTED),
  fc.string({ unit: "binary", maxLength: 6 }),
  fc.string({ maxLength: 6 }),
);
/** Values, including nested objects whose own keys are wanted names (they must not be picked up). */
const value = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.dictionary(key, fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 }),
  fc.string({ unit: "binary" }),
  fc.constantFrom("NaN", "}", '"', "\\", '{"id":1}', "é😀"),
);
const row = fc.dictionary(key, value, { maxKeys: 8 });

interface Piece {
  readonly text: string;
  readonly object: boolean;
  readonly eol: string;
}
const piece: fc.Arbitrary<Piece> = fc
  .oneof(
    {
      weight: 4,
      arbitrary: row.map((o) => JSON.stringify(o)).map((text) => ({ text, object: true })),
    },
    {
      weight: 1,
      arbitrary: fc.constantFrom("", " ", "\t", " \t ").map((text) => ({ text, object: false })),
    },
  )
  .chain((p) => fc.constantFrom("\n", "\r\n").map((eol) => ({ ...p, eol })));

const file = fc.record({
  pieces: fc.array(piece, { maxLength: 12 }),
  bom: fc.boolean(),
  finalNewline: fc.boolean(),
  cuts: fc.array(fc.nat(), { maxLength: 24 }),
});

describe("JsonlIndexer on JSON.stringify output", () => {
  test.prop([file], { numRuns: 300 })(
    "values equal JSON.parse's, slices give back each line, every line is counted",
    ({ pieces, bom, finalNewline, cuts }) => {
      const last = pieces.length - 1;
      const text =
        (bom ? "\uFEFF" : "") +
        pieces.map((p, i) => p.text + (i < last || finalNewline ? p.eol : "")).join("");
      const bytes = enc.encode(text);
      const ix = indexAt(bytes, cuts, OPTIONS);

      // A last line with no bytes and no newline is not a line (split on LF, drop the last "").
      const lines = last >= 0 && pieces[last]!.text === "" && !finalNewline ? last : pieces.length;
      const objects = pieces.filter((p) => p.object);
      expect(ix.lineCount).toBe(lines);
      expect(ix.rowCount).toBe(objects.length);
      expect(ix.rowCount + ix.blankCount).toBe(ix.lineCount);
      expect(ix.badCount + ix.tooLargeCount).toBe(0);

      let r = 0;
      pieces.forEach((p, i) => {
        if (!p.object) return;
        expect(ix.lineAt(r)).toBe(i + 1);
        const start = ix.offsetAt(r);
        expect(dec.decode(bytes.subarray(start, start + ix.lengthAt(r)))).toBe(p.text);
        const parsed = JSON.parse(p.text) as Record<string, unknown>;
        WANTED.forEach((k, col) => {
          const expected = expectedValue(
            Object.hasOwn(parsed, k) ? parsed[k] : undefined,
            MODES[col]!,
          );
          expect(ix.valueAt(r, col), `line ${i + 1} key ${k}`).toEqual(expected);
          if (expected === undefined) expect(ix.tagAt(r, col)).toBe(JsonlTag.Missing);
        });
        r++;
      });
    },
  );
});

/** Fragments that make garbage look like JSONL often enough to reach every scanner state. */
const FRAGMENTS = [
  "{",
  "}",
  "[",
  "]",
  '"',
  "\\",
  ":",
  ",",
  '"id"',
  '"a"',
  '"a":',
  '"id":',
  "1",
  "-",
  "0",
  ".5",
  "e3",
  "true",
  "false",
  "null",
  " ",
  "\t",
  "\r",
  "\n",
  "\r\n",
  "\u0000",
  "é",
  "😀",
  "\\u00e9",
  '\\"',
  "\\\\",
  "\uFEFF",
  '{"id":"x"}',
  '{"a":[1,{"b":"}"}]}',
  "x",
];
const garbage = fc.oneof(
  fc.array(fc.constantFrom(...FRAGMENTS), { maxLength: 60 }).map((f) => enc.encode(f.join(""))),
  fc.uint8Array({ maxLength: 300 }),
  fc
    .array(
      fc.oneof(
        fc.constantFrom(...FRAGMENTS).map((f) => [...enc.encode(f)]),
        fc.array(fc.integer({ min: 0, max: 255 }), { maxLength: 3 }),
      ),
      { maxLength: 60 },
    )
    .map((parts) => Uint8Array.from(parts.flat())),
);
const garbageFile = fc.record({
  body: garbage,
  bom: fc.boolean(),
  cuts: fc.array(fc.nat(), { maxLength: 24 }),
  maxLineBytes: fc.option(fc.integer({ min: 0, max: 24 }), { nil: undefined }),
});

const isSpace = (b: number): boolean => b === 0x20 || b === 0x09 || b === 0x0d;

interface ModelLine {
  readonly line: number;
  readonly start: number;
  readonly end: number;
}

/** An independent split: lines on LF, a CR before LF dropped, a BOM skipped at offset 0. */
function modelLines(bytes: Uint8Array): ModelLine[] {
  const out: ModelLine[] = [];
  let start = bytes.length >= 3 && BOM.every((b, i) => bytes[i] === b) ? 3 : 0;
  let line = 0;
  while (start < bytes.length) {
    const nl = bytes.indexOf(0x0a, start);
    const stop = nl === -1 ? bytes.length : nl;
    line++;
    out.push({ line, start, end: stop > start && bytes[stop - 1] === 0x0d ? stop - 1 : stop });
    start = stop + 1;
  }
  return out;
}

function parseObject(text: string): Record<string, unknown> | "notObject" | "invalid" {
  try {
    const v: unknown = JSON.parse(text);
    return typeof v === "object" && v !== null && !Array.isArray(v)
      ? (v as Record<string, unknown>)
      : "notObject";
  } catch {
    return "invalid";
  }
}

describe("JsonlIndexer on garbage", () => {
  const options = (maxLineBytes: number | undefined): JsonlIndexerOptions => ({
    keys: [{ name: "a", composite: "parse" }, "id"],
    maxParseBytes: Infinity,
    ...(maxLineBytes === undefined ? {} : { maxLineBytes }),
  });

  test.prop([garbageFile], { numRuns: 500 })(
    "never throws, accounts for every line, agrees with JSON.parse where it can",
    ({ body, bom, cuts, maxLineBytes }) => {
      const bytes = bom ? Uint8Array.from([...BOM, ...body]) : body;
      const opts = options(maxLineBytes);
      const ix = indexAt(bytes, cuts, opts);
      const whole = indexAt(bytes, [], opts);
      expect(ix.snapshot()).toEqual(whole.snapshot());

      const model = modelLines(bytes);
      const limit = maxLineBytes ?? Infinity;
      const rows = model.filter(
        (l) => l.end - l.start > limit || !bytes.subarray(l.start, l.end).every(isSpace),
      );
      expect(ix.lineCount).toBe(model.length);
      expect(ix.rowCount).toBe(rows.length);
      expect(ix.blankCount).toBe(model.length - rows.length);
      expect(ix.okCount + ix.badCount + ix.tooLargeCount + ix.blankCount).toBe(ix.lineCount);

      rows.forEach((l, r) => {
        expect([ix.lineAt(r), ix.offsetAt(r), ix.lengthAt(r)]).toEqual([
          l.line,
          l.start,
          l.end - l.start,
        ]);
        if (l.end - l.start > limit) {
          expect(ix.statusAt(r)).toBe("tooLarge");
          return;
        }
        // A NUL anywhere in the line is its reason, however many lines of the chunk hold one.
        if (bytes.subarray(l.start, l.end).includes(0))
          expect(ix.reasonAt(r), `line ${l.line}`).toBe(JsonlBadReason.NulByte);
        else expect(ix.reasonAt(r), `line ${l.line}`).not.toBe(JsonlBadReason.NulByte);
        const parsed = parseObject(dec.decode(bytes.subarray(l.start, l.end)));
        if (parsed === "notObject") expect(ix.statusAt(r)).toBe("bad");
        if (typeof parsed === "object") {
          // Everything JSON.parse accepts as an object is indexed, with the same values.
          expect(ix.statusAt(r), `line ${l.line}`).toBe("ok");
          const a = Object.hasOwn(parsed, "a") ? parsed.a : undefined;
          const id = Object.hasOwn(parsed, "id") ? parsed.id : undefined;
          expect(ix.valueAt(r, 0)).toEqual(expectedValue(a, "parse"));
          expect(ix.valueAt(r, 1)).toEqual(expectedValue(id, "hash"));
        }
        if (ix.statusAt(r) !== "ok")
          expect(ix.row(r).values.every((v) => v === undefined)).toBe(true);
      });
    },
  );
});

/**
 * String values that repeat from row to row, as a group's id and prompt do, short (unescaped in
 * JS, up to 32 bytes) and long (past 32 bytes, unescaped by JSON.parse): a repeat is recognised by
 * its bytes, so values must still equal JSON.parse's, with escapes, non-ASCII and invalid escapes
 * (a bad line, never the last good value) at any chunk cut.
 */
describe("JsonlIndexer on repeated strings", () => {
  // Equal lengths often (ASCII of one length), so only the bytes tell two texts apart.
  const sameLength = fc.string({ unit: "grapheme-ascii", minLength: 40, maxLength: 40 });
  const anyText = fc
    .tuple(
      fc.string({ unit: "binary", minLength: 20, maxLength: 80 }),
      fc.constantFrom("", "\n", '"', "\\", "é😀", "\u0001"),
    )
    .map(([a, b]) => a + b + a);
  // Short ones: group ids of one length that differ in one byte, and short texts with escapes.
  const sameShort = fc
    .tuple(fc.constantFrom("s-000000", "s-000001"), fc.constantFrom("0", "1", "2"))
    .map(([a, b]) => a + b);
  const anyShort = fc
    .tuple(
      fc.string({ unit: "binary", maxLength: 12 }),
      fc.constantFrom("", "\n", '"', "\\", "é", "\u0001"),
    )
    .map(([a, b]) => a + b);
  const longText = fc.oneof(sameLength, anyText, sameShort, anyShort);
  /** A row's `g` is one of a few texts, or a near copy of one with a broken escape. */
  const line = fc.oneof(
    { weight: 6, arbitrary: fc.nat(2).map((k) => ({ k, broken: false })) },
    { weight: 1, arbitrary: fc.nat(2).map((k) => ({ k, broken: true })) },
  );
  test.prop(
    [
      fc.array(longText, { minLength: 3, maxLength: 3 }),
      fc.array(line, { maxLength: 14 }),
      fc.array(fc.nat(), { maxLength: 12 }),
      fc.boolean(),
    ],
    { numRuns: 300 },
  )("values equal JSON.parse's; a broken copy is a bad line", (texts, lines, cuts, intern) => {
    const rows = lines.map(({ k, broken }) => {
      const json = JSON.stringify({ g: texts[k], n: 1 });
      // The same bytes as a good row with one escape broken: "\q" is not JSON.
      return broken ? json.replace(/^\{"g":"/, '{"g":"\\q') : json;
    });
    const bytes = enc.encode(rows.join("\n"));
    const ix = indexAt(bytes, cuts, { keys: [{ name: "g", intern }] });
    expect(ix.rowCount).toBe(rows.length);
    lines.forEach(({ k, broken }, r) => {
      if (broken) {
        expect(ix.statusAt(r), `row ${r}`).toBe("bad");
        expect(ix.valueAt(r, 0)).toBeUndefined();
      } else {
        expect(ix.statusAt(r), `row ${r}`).toBe("ok");
        expect(ix.valueAt(r, 0), `row ${r}`).toBe(texts[k]);
      }
    });
  });
});

describe("findByte", () => {
  // Bytes that never equal the searched one (values one bit away from it kept, where a borrow
  // could fool the word test), then the byte put at up to three places, so the first one lies in
  // the byte-wise head, the word loop or the tail; the range's end is often placed just around
  // the first of them.
  const caseArb = fc
    .record({
      raw: fc.uint8Array({ minLength: 0, maxLength: 400, size: "max" }),
      byte: fc.constantFrom(0x00, 0x0a, 0x22, 0x5c, 0x80, 0xff, 0x01, 0x21, 0x23),
      places: fc.array(fc.integer({ min: 0, max: 399 }), { maxLength: 3 }),
      from: fc.integer({ min: 0, max: 400 }),
      end: fc.oneof(
        fc.integer({ min: 0, max: 400 }).map((n) => ({ near: false, n })),
        fc.integer({ min: -4, max: 4 }).map((n) => ({ near: true, n })),
      ),
      shift: fc.constantFrom(0, 0, 1, 2, 3),
    })
    .map(({ raw, byte, places, from, end, shift }) => {
      const bytes = raw.map((b) => (b === byte ? byte ^ 2 : b));
      const length = bytes.length;
      for (const p of places) if (length > 0) bytes[p % length] = byte;
      const first =
        places.length > 0 && length > 0 ? Math.min(...places.map((p) => p % length)) : 0;
      // The search starts up to 400 bytes before the first placed byte (or anywhere without one).
      const start = places.length > 0 ? Math.max(0, first - from) : from % (length + 1);
      const stop = end.near
        ? Math.min(length, Math.max(start, first + end.n))
        : start + (end.n % (length - start + 1));
      return { bytes, byte, start, stop, shift };
    });

  test.prop([caseArb], { numRuns: 1000 })(
    "finds what a plain loop finds, by words on an aligned view and by indexOf on any other",
    ({ bytes, byte, start, stop, shift }) => {
      // The same bytes at offset `shift` of a fresh buffer: aligned when shift is 0.
      const backing = new Uint8Array(bytes.length + shift);
      backing.set(bytes, shift);
      const buf = backing.subarray(shift);
      let want = -1;
      for (let i = start; i < stop; i++)
        if (bytes[i] === byte) {
          want = i;
          break;
        }
      const words = wordsOver(buf);
      expect(words === null).toBe(shift !== 0);
      expect(findByte(buf, byte, start, stop, words)).toBe(want);
      expect(findByte(buf, byte, start, stop, null)).toBe(want);
    },
  );
});
