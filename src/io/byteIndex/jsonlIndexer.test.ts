/**
 * Golden cases for the byte-level JSONL indexer. Every case is indexed whole, byte by byte, and at
 * every two-way split, and all of them must agree: chunk boundaries may fall anywhere.
 */
import { describe, expect, it } from "vitest";
import {
  JSONL_DEFAULT_MAX_LINE_BYTES,
  JsonlBadReason,
  JsonlIndexer,
  JsonlTag,
  indexJsonl,
  jsonlBadReasonMessage,
  jsonlSnapshotTransfer,
  type JsonlIndexSnapshot,
  type JsonlIndexerOptions,
} from "./jsonlIndexer.ts";

const enc = new TextEncoder();
const dec = new TextDecoder("utf-8", { ignoreBOM: true });

const KEYS: JsonlIndexerOptions = {
  keys: ["group_id", "id", "reward", { name: "rewards", composite: "parse" }],
};

function chunksOf(bytes: Uint8Array, size: number): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (let i = 0; i < bytes.length; i += size) out.push(bytes.subarray(i, i + size));
  return out;
}

/** Index the bytes whole, one byte at a time and at every two-way split; all must agree. */
function index(input: string | Uint8Array, options: JsonlIndexerOptions = KEYS): JsonlIndexer {
  const bytes = typeof input === "string" ? enc.encode(input) : input;
  const whole = indexJsonl([bytes], options);
  const expected = whole.snapshot();
  expect(indexJsonl(chunksOf(bytes, 1), options).snapshot()).toEqual(expected);
  for (let cut = 1; cut < bytes.length && bytes.length <= 400; cut++) {
    const split = indexJsonl([bytes.subarray(0, cut), bytes.subarray(cut)], options).snapshot();
    expect(split, `split at ${cut}`).toEqual(expected);
  }
  expect(whole.rowCount + whole.blankCount).toBe(whole.lineCount);
  return whole;
}

/** Values of row `row`, by key name, with absent keys left out. */
function values(ix: JsonlIndexer, row: number): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  ix.keys.forEach((k, i) => {
    const v = ix.valueAt(row, i);
    if (v !== undefined) out[k] = v;
  });
  return out;
}

function sliceText(bytes: Uint8Array, ix: JsonlIndexer, row: number): string {
  return dec.decode(bytes.subarray(ix.offsetAt(row), ix.offsetAt(row) + ix.lengthAt(row)));
}

function isJsonObject(line: string): boolean {
  try {
    const v: unknown = JSON.parse(line);
    return typeof v === "object" && v !== null && !Array.isArray(v);
  } catch {
    return false;
  }
}

function fnv1a(bytes: Uint8Array): number {
  let h = 0x811c9dc5;
  for (const b of bytes) h = Math.imul(h ^ b, 0x01000193);
  return h >>> 0;
}

describe("values of top-level keys", () => {
  it('decodes escapes in keys and values: \\" \\\\ \\/ \\u00e9 and surrogate pairs', () => {
    const line = String.raw`{"i\u0064":"a\"b\\c\/d\n\t","group_id":"\u00e9\ud83d\ude00 é😀","reward":1}`;
    const ix = index(line);
    expect(values(ix, 0)).toEqual(
      (({ id, group_id, reward }) => ({ id, group_id, reward }))(
        JSON.parse(line) as { id: string; group_id: string; reward: number },
      ),
    );
    expect(ix.stringAt(0, ix.keyIndex("group_id"))).toBe("é😀 é😀");
  });

  it("keeps lone surrogates and U+FEFF at the start of a value, as JSON.parse does", () => {
    const line = '{"id":"\\ud800x","group_id":"\uFEFFg"}';
    const ix = index(line);
    expect(values(ix, 0)).toEqual(JSON.parse(line));
  });

  it("matches wanted keys that need escaping, or are non-ASCII, only by their decoded name", () => {
    const options = { keys: ['we"ird', "é", "back\\slash"] };
    const line = String.raw`{"we\"ird":1,"é":2,"back\\slash":3}`;
    const ix = index(line, options);
    expect(values(ix, 0)).toEqual({ 'we"ird': 1, é: 2, "back\\slash": 3 });
    // The raw bytes we\" must not match a wanted name spelled we\" (which JSON writes "we\\\"").
    const tricky = index(String.raw`{"we\"":1}`, { keys: ['we\\"'] });
    expect(values(tricky, 0)).toEqual({});
  });

  it("skips nested values whose strings hold braces, brackets and escaped quotes", () => {
    const line = String.raw`{"meta":{"s":"}{\"][","t":["\\",{"u":"\\\""}]},"id":"x","arr":[[],{},"]"]}`;
    const ix = index(line);
    expect(ix.statusAt(0)).toBe("ok");
    expect(values(ix, 0)).toEqual({ id: "x" });
  });

  it("never picks up wanted keys inside nested objects or arrays", () => {
    const line =
      '{"meta":{"id":"inner","group_id":"g"},"messages":[{"id":"m","reward":9}],"text":"\\"id\\":\\"s\\""}';
    const ix = index(line);
    expect(values(ix, 0)).toEqual({});
    expect(ix.tagAt(0, ix.keyIndex("id"))).toBe(JsonlTag.Missing);
  });

  it("takes the last of duplicate top-level keys, like JSON.parse", () => {
    const line = '{"id":"first","reward":1,"id":"second","reward":{"a":1},"reward":2.5}';
    const ix = index(line);
    expect(values(ix, 0)).toEqual({ id: "second", reward: 2.5 });
    expect(JSON.parse(line)).toMatchObject({ id: "second", reward: 2.5 });
  });

  it("parses numbers exactly as JSON.parse: exponents, -0, long integers, overflow", () => {
    const numbers = [
      "0",
      "-0",
      "7",
      "-12",
      "1e3",
      "1E+3",
      "-2.5E-3",
      "0.1",
      "123456789012345",
      "1234567890123456789",
      "9007199254740993",
      "1e400",
      "-1e-400",
      "3.141592653589793238",
    ];
    const text = numbers.map((n) => `{"reward":${n}}`).join("\n");
    const ix = index(text);
    numbers.forEach((n, row) => {
      expect(Object.is(ix.numberAt(row, ix.keyIndex("reward")), JSON.parse(n)), n).toBe(true);
    });
  });

  it("decodes literals, keeps 'NaN' as a string, and reports tags", () => {
    const ix = index(
      '{"group_id":null,"id":true,"reward":"NaN"}\n{"id":false,"reward":null,"group_id":"g"}',
    );
    expect(values(ix, 0)).toEqual({ group_id: null, id: true, reward: "NaN" });
    expect(values(ix, 1)).toEqual({ id: false, reward: null, group_id: "g" });
    const r = ix.keyIndex("reward");
    expect([ix.tagAt(0, r), ix.tagAt(1, r)]).toEqual([JsonlTag.String, JsonlTag.Null]);
    expect(Number.isNaN(ix.numberAt(0, r))).toBe(true);
  });

  it("allows JSON whitespace everywhere, including tabs and lone CRs", () => {
    const line = ' \t{ \r"id" \t:\r "a" , "reward"\t:\t-1 , "rewards" : [ 1 , 2 ] }\t \r';
    const ix = index(line);
    expect(ix.statusAt(0)).toBe("ok");
    expect(values(ix, 0)).toEqual({
      id: "a",
      reward: -1,
      rewards: { kind: "parsed", value: [1, 2] },
    });
    expect(index("{ }").statusAt(0)).toBe("ok");
  });
});

describe("lines, offsets and lengths", () => {
  it("handles a BOM, CRLF, blank lines and a last line without a newline", () => {
    const text = '\uFEFF{"id":"a"}\r\n\r\n   \n\t\r\n{"id":"é"}\n\n{"id":"c"}';
    const bytes = enc.encode(text);
    const ix = index(bytes);
    expect([ix.lineCount, ix.rowCount, ix.blankCount, ix.badCount]).toEqual([7, 3, 4, 0]);
    expect([0, 1, 2].map((r) => ix.lineAt(r))).toEqual([1, 5, 7]);
    expect(ix.offsetAt(0)).toBe(3);
    expect([0, 1, 2].map((r) => sliceText(bytes, ix, r))).toEqual([
      '{"id":"a"}',
      '{"id":"é"}',
      '{"id":"c"}',
    ]);
    expect(ix.lengthAt(1)).toBe(11);
  });

  it("counts lines like a split on LF that drops the empty piece after a final newline", () => {
    const count = (s: string): number[] => {
      const ix = index(s);
      return [ix.lineCount, ix.rowCount, ix.blankCount];
    };
    expect(count("")).toEqual([0, 0, 0]);
    expect(count("\uFEFF")).toEqual([0, 0, 0]);
    expect(count("\uFEFF\n")).toEqual([1, 0, 1]);
    expect(count("\n")).toEqual([1, 0, 1]);
    expect(count("\r")).toEqual([1, 0, 1]);
    expect(count("{}")).toEqual([1, 1, 0]);
    expect(count("{}\n")).toEqual([1, 1, 0]);
    expect(count("{}\n ")).toEqual([2, 1, 1]);
    expect(count("\n\n{}\n\n")).toEqual([4, 1, 3]);
  });

  it("strips a BOM only at the very start of the file", () => {
    const bytes = enc.encode('{"id":1}\n\uFEFF{"id":2}');
    const ix = index(bytes);
    expect(ix.statusAt(1)).toBe("bad");
    expect(ix.reasonAt(1)).toBe(JsonlBadReason.NotObject);
    expect(ix.offsetAt(1)).toBe(9);
  });

  it("reports push progress and serves rows incrementally with rowsSince", () => {
    const bytes = enc.encode('{"id":"a"}\n{"id":"b"}\n{"id":"c"}');
    const ix = new JsonlIndexer(KEYS);
    const seen: unknown[] = [];
    let done = 0;
    const counts = [
      ix.push(bytes.subarray(0, 15)),
      ix.push(bytes.subarray(15, 30)),
      ix.push(bytes.subarray(30)),
      ix.finish(),
    ];
    expect(counts).toEqual([1, 1, 0, 1]);
    for (const r of ix.rowsSince(done)) seen.push(r.values[1]);
    done = ix.rowCount;
    expect(seen).toEqual(["a", "b", "c"]);
    expect(ix.rowsSince(done)).toEqual([]);
    expect(ix.rowsSince(1, 2).map((r) => r.line)).toEqual([2]);
    expect(ix.bytesRead).toBe(bytes.length);
    expect(ix.isFinished).toBe(true);
  });

  it("never retains a chunk: a reused buffer overwritten after each push gives the same index", () => {
    const text = Array.from(
      { length: 40 },
      (_, i) => `{"group_id":"g${i % 3}","id":"r${i}","reward":${i / 8},"rewards":{"a":${i}}}`,
    ).join("\r\n");
    const bytes = enc.encode(text);
    const expected = indexJsonl([bytes], KEYS).snapshot();
    for (const size of [1, 7, 64, 1000]) {
      const reused = new Uint8Array(size);
      const ix = new JsonlIndexer(KEYS);
      for (let at = 0; at < bytes.length; at += size) {
        const n = Math.min(size, bytes.length - at);
        reused.set(bytes.subarray(at, at + n));
        ix.push(reused.subarray(0, n));
        reused.fill(0x7b);
      }
      ix.finish();
      expect(ix.snapshot()).toEqual(expected);
    }
  });
});

describe("Python's bare NaN and infinities", () => {
  // The full parser reads them as text (containers/pythonJson.ts); the index must not call such a
  // row bad, or the large-file path would reject rows a whole-file load accepts (found by fuzzing).
  it("are kept as the strings the full parser makes of them, wanted or skipped", () => {
    const ix = index(
      '{"group_id":"g","reward":NaN,"id":-Infinity,"skip":Infinity}\n{"reward":Infinity,"x":[NaN]}',
    );
    expect(ix.badCount).toBe(0);
    expect(values(ix, 0)).toMatchObject({ group_id: "g", reward: "NaN", id: "-Infinity" });
    expect(values(ix, 1)).toMatchObject({ reward: "Infinity" });
  });
});

describe("bad and too-large lines", () => {
  const cases: [string, JsonlBadReason][] = [
    ["[1,2]", JsonlBadReason.NotObject],
    ['"text"', JsonlBadReason.NotObject],
    ["not json", JsonlBadReason.NotObject],
    ["{", JsonlBadReason.Truncated],
    ['{"id":', JsonlBadReason.Truncated],
    ['{"id":"abc', JsonlBadReason.Truncated],
    ['{"meta":{"a":[1,2', JsonlBadReason.Truncated],
    ['{"id":1', JsonlBadReason.Truncated],
    ['{"id":1,', JsonlBadReason.Truncated],
    ["{id:1}", JsonlBadReason.ExpectedKey],
    ['{"a":1,}', JsonlBadReason.ExpectedKey],
    ['{"id" 1}', JsonlBadReason.ExpectedColon],
    ['{"a":1 "b":2}', JsonlBadReason.ExpectedSeparator],
    ['{"a":01}', JsonlBadReason.ExpectedSeparator],
    ['{"a":truex}', JsonlBadReason.ExpectedSeparator],
    ['{"a":tru}', JsonlBadReason.InvalidValue],
    ['{"a":-}', JsonlBadReason.InvalidValue],
    ['{"a":1.}', JsonlBadReason.InvalidValue],
    ['{"a":1e}', JsonlBadReason.InvalidValue],
    ['{"a":Nan}', JsonlBadReason.InvalidValue],
    ['{"a":NaNx}', JsonlBadReason.ExpectedSeparator],
    ['{"a":-Inf}', JsonlBadReason.InvalidValue],
    ['{"a":[1}]}', JsonlBadReason.MismatchedBracket],
    ['{"a":1} x', JsonlBadReason.TrailingText],
    ['{"a":1}}', JsonlBadReason.TrailingText],
    ['{"id":"bad \\q"}', JsonlBadReason.InvalidString],
    ['{"id":"bad \\u12"}', JsonlBadReason.InvalidString],
    ['{"id":"tab\there"}', JsonlBadReason.InvalidString],
    ['{"i\\x":1}', JsonlBadReason.InvalidString],
    ['{"rewards":[1,,2]}', JsonlBadReason.InvalidComposite],
    // A raw NUL spoils its line wherever it is, even inside a nested value the scan skips.
    ['{"id":"a\u0000b"}', JsonlBadReason.NulByte],
    ["\u0000\u0000", JsonlBadReason.NulByte],
    ['{"meta":{"x":"a\u0000b"}}', JsonlBadReason.NulByte],
  ];
  it.each(cases)("%j is bad: reason %i", (line, reason) => {
    expect(isJsonObject(line), "JSON.parse agrees the line is not an object").toBe(false);
    const ix = index(`{"id":"before"}\n${line}\n{"id":"after"}`);
    expect(ix.rowCount).toBe(3);
    expect(ix.badCount).toBe(1);
    expect(ix.reasonAt(1)).toBe(reason);
    expect(ix.statusAt(1)).toBe("bad");
    expect(ix.row(1).values.every((v) => v === undefined)).toBe(true);
    expect(ix.stringAt(2, ix.keyIndex("id"))).toBe("after");
    expect(jsonlBadReasonMessage(reason)).not.toBe("");
  });

  it("skips what it does not walk: bad JSON inside unwanted nested values is the full parser's job", () => {
    const ix = index('{"meta":[1,,2],"other":{"x":}}');
    expect(ix.statusAt(0)).toBe("ok");
  });

  it("drops values a bad line had already extracted, without leaking non-interned strings", () => {
    const options: JsonlIndexerOptions = {
      keys: [
        { name: "id", intern: false },
        { name: "rewards", composite: "parse", intern: false },
      ],
    };
    const ix = index('{"id":"x","rewards":{"a":1},"z":?}\n{"id":"y","rewards":[2]}', options);
    expect(ix.statusAt(0)).toBe("bad");
    expect(ix.stringsOf(0)).toEqual(["y"]);
    expect(ix.snapshot().keys[1]!.parsed).toEqual([[2]]);
    expect(values(ix, 1)).toEqual({ id: "y", rewards: { kind: "parsed", value: [2] } });
  });

  it("survives deep nesting and huge garbage without recursion or throwing", () => {
    const deep = `{"meta":${"[".repeat(200_000)}${"]".repeat(200_000)},"id":"ok"}`;
    const ix = indexJsonl(chunksOf(enc.encode(`${deep}\n{"a":${"{".repeat(100_000)}`), 4096), KEYS);
    expect(ix.statusAt(0)).toBe("ok");
    expect(ix.stringAt(0, ix.keyIndex("id"))).toBe("ok");
    expect(ix.reasonAt(1)).toBe(JsonlBadReason.Truncated);
  });

  it("flags a line over maxLineBytes without holding it, wherever the chunks split it", () => {
    const long = `{"id":"${"x".repeat(40)}"}`;
    const text = `\uFEFF${long}\r\n{"id":"short"}\r\n${long}\r\n${long}`;
    const bytes = enc.encode(text);
    const options = { ...KEYS, maxLineBytes: 20 };
    const ix = index(bytes, options);
    expect(ix.rowCount).toBe(4);
    expect(ix.tooLargeCount).toBe(3);
    expect([0, 1, 2, 3].map((r) => ix.statusAt(r))).toEqual([
      "tooLarge",
      "ok",
      "tooLarge",
      "tooLarge",
    ]);
    expect([0, 1, 2, 3].map((r) => sliceText(bytes, ix, r))).toEqual([
      long,
      '{"id":"short"}',
      long,
      long,
    ]);
    expect(ix.offsetAt(0)).toBe(3);
    expect(ix.reasonAt(0)).toBe(JsonlBadReason.TooLarge);
    expect(ix.row(2).values.every((v) => v === undefined)).toBe(true);
    // Exactly at the limit is fine; one byte over is not.
    const at = index(`{"id":"${"x".repeat(11)}"}\n{"id":"${"x".repeat(12)}"}`, options);
    expect([at.statusAt(0), at.statusAt(1)]).toEqual(["ok", "tooLarge"]);
  });

  it("keeps the default line limit at 256 MiB and rejects misuse", () => {
    expect(JSONL_DEFAULT_MAX_LINE_BYTES).toBe(256 * 1024 * 1024);
    const ix = indexJsonl([], KEYS);
    expect(() => ix.push(enc.encode("{}"))).toThrow(/after finish/);
    expect(ix.finish()).toBe(0);
    expect(() => new JsonlIndexer({ keys: ["id", "id"] })).toThrow(/twice/);
  });
});

describe("composite values and the snapshot", () => {
  it("hashes, keeps raw JSON, or parses small object/array values per key", () => {
    const value = '{"a":[1,{"b":"}"}],"c":"é"}';
    const line = `{"h":${value},"r":${value},"p":${value},"big":[${"1,".repeat(50)}1]}`;
    const options: JsonlIndexerOptions = {
      keys: [
        "h",
        { name: "r", composite: "raw" },
        { name: "p", composite: "parse" },
        { name: "big", composite: "parse" },
      ],
      maxParseBytes: 64,
    };
    const ix = index(line, options);
    expect(ix.valueAt(0, 0)).toEqual({ kind: "hash", hash: fnv1a(enc.encode(value)) });
    expect(ix.numberAt(0, 0)).toBe(fnv1a(enc.encode(value)));
    expect(ix.valueAt(0, 1)).toEqual({ kind: "raw", json: value });
    expect(ix.valueAt(0, 2)).toEqual({ kind: "parsed", value: JSON.parse(value) as unknown });
    expect(ix.tagAt(0, 3)).toBe(JsonlTag.Hash);
  });

  it("shares one parsed value between rows with the same JSON text, unless intern is off", () => {
    const text = '{"rewards":{"a":1}}\n{"rewards":{"a":2}}\n{"rewards":{"a":1}}';
    const parsedAt = (ix: JsonlIndexer, row: number): unknown => {
      const v = ix.valueAt(row, ix.keyIndex("rewards"));
      return typeof v === "object" && v !== null && v.kind === "parsed" ? v.value : undefined;
    };
    const shared = index(text);
    expect([0, 1, 2].map((r) => parsedAt(shared, r))).toEqual([{ a: 1 }, { a: 2 }, { a: 1 }]);
    expect(parsedAt(shared, 0)).toBe(parsedAt(shared, 2));
    expect(shared.snapshot().keys[3]!.parsed).toHaveLength(2);
    const separate = index(text, {
      keys: [{ name: "rewards", composite: "parse", intern: false }],
    });
    expect(separate.snapshot().keys[0]!.parsed).toEqual([{ a: 1 }, { a: 2 }, { a: 1 }]);
    expect(parsedAt(separate, 0)).not.toBe(parsedAt(separate, 2));
  });

  it("interns repeated strings to small ids shared across rows", () => {
    const text = ["g1", "g2", "g1", "g1", "g2"]
      .map((g, i) => `{"group_id":"${g}","id":${i}}`)
      .join("\n");
    const ix = index(text);
    const g = ix.keyIndex("group_id");
    expect([0, 1, 2, 3, 4].map((r) => ix.stringIdAt(r, g))).toEqual([0, 1, 0, 0, 1]);
    expect(ix.stringsOf(g)).toEqual(["g1", "g2"]);
    expect(ix.stringIdAt(0, ix.keyIndex("id"))).toBe(-1);
    expect(ix.stringAt(0, ix.keyIndex("id"))).toBeUndefined();
  });

  it("snapshots into plain, trimmed, transferable arrays", () => {
    const ix = index('{"group_id":"g","id":"a","reward":1}\nbad\n\n{"id":"b"}');
    const s: JsonlIndexSnapshot = ix.snapshot();
    expect(s).toMatchObject({
      rowCount: 3,
      lineCount: 4,
      blankCount: 1,
      badCount: 1,
      tooLargeCount: 0,
    });
    expect([...s.lines]).toEqual([1, 2, 4]);
    expect([...s.reasons]).toEqual([0, JsonlBadReason.NotObject, 0]);
    expect(s.keys.map((k) => k.tags.length)).toEqual([3, 3, 3, 3]);
    expect(jsonlSnapshotTransfer(s)).toHaveLength(4 + 2 * 4);
    expect(structuredClone(s)).toEqual(s);
  });
});
