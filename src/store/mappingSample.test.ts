import { csvSample } from "../io/index.ts";
import { describe, expect, it } from "vitest";
import {
  mappingSampleFor,
  readMappingSample,
  SAMPLE_BYTES,
  sampleFromBytes,
} from "./mappingSample.ts";

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);

describe("csvSample (src/io) on a sample", () => {
  it("keys rows by the header, with quotes, commas, newlines, CRLF and a BOM", () => {
    const text = '\uFEFFq,a\r\n"x, ""y""","multi\nline"\r\n\r\nz,\n';
    expect(csvSample(new TextEncoder().encode(text), false)).toEqual({
      header: ["q", "a"],
      rows: [
        { q: 'x, "y"', a: "multi\nline" },
        { q: "z", a: "" },
      ],
    });
  });

  it("keeps a last row without a newline, and fills missing cells", () => {
    expect(csvSample(new TextEncoder().encode("a,b\n1"), false).rows).toEqual([{ a: "1", b: "" }]);
  });

  it("drops the row the sample cut, and a row left inside an open quote", () => {
    expect(csvSample(new TextEncoder().encode("a,b\n1,2\n3,4"), true).rows).toEqual([
      { a: "1", b: "2" },
    ]);
    expect(csvSample(new TextEncoder().encode('a,b\n1,2\n3,"open'), false).rows).toEqual([
      { a: "1", b: "2" },
    ]);
  });

  it("has a header and no rows for a header alone", () => {
    expect(csvSample(new TextEncoder().encode("a,b\n"), false)).toEqual({
      header: ["a", "b"],
      rows: [],
    });
  });
});

describe("sampleFromBytes", () => {
  it("reads JSONL and drops the cut last line", () => {
    const sample = sampleFromBytes("x.jsonl", bytes('{"a":1}\n{"a":2}\n{"a":'), true);
    expect(sample).toEqual({
      ok: true,
      container: "jsonl",
      records: [{ a: 1 }, { a: 2 }],
      partial: true,
      header: null,
    });
  });

  it("skips JSONL lines that are not JSON", () => {
    const sample = sampleFromBytes("x.jsonl", bytes('{"a":1}\nnope\n{"a":2}\n'), false);
    expect(sample.ok && sample.records).toEqual([{ a: 1 }, { a: 2 }]);
  });

  it("reads a JSON array, whole or cut", () => {
    const whole = sampleFromBytes("x.json", bytes('[{"a":1},{"a":2}]'), false);
    expect(whole.ok && whole.container).toBe("json-array");
    expect(whole.ok && whole.records).toEqual([{ a: 1 }, { a: 2 }]);
    const cut = sampleFromBytes("x.json", bytes('[{"a":1},{"a":2},{"a":3'), true);
    expect(cut.ok && cut.records).toEqual([{ a: 1 }, { a: 2 }]);
  });

  it("reads CSV with its header", () => {
    const sample = sampleFromBytes("x.csv", bytes("question,score\nq,1\n"), false);
    expect(sample).toEqual({
      ok: true,
      container: "csv",
      records: [{ question: "q", score: "1" }],
      partial: false,
      header: ["question", "score"],
    });
  });

  it("treats a first record longer than the sample as JSONL without records", () => {
    const sample = sampleFromBytes("x.jsonl", bytes('{"a":"long'), true);
    expect(sample).toMatchObject({ ok: true, container: "jsonl", records: [] });
  });

  it("explains files the mapping cannot read", () => {
    expect(sampleFromBytes("x.json", bytes('{\n"a": 1\n}'), false)).toMatchObject({
      ok: false,
      message: expect.stringContaining("one JSON document") as string,
    });
    expect(sampleFromBytes("x.zip", Uint8Array.of(0x50, 0x4b, 0x03, 0x04, 0), false)).toMatchObject(
      { ok: false, message: expect.stringContaining("zip") as string },
    );
    expect(sampleFromBytes("x.csv", new Uint8Array(0), false)).toMatchObject({
      ok: false,
      message: "x.csv: the file is empty",
    });
  });

  it("lets Parquet through with no records (its schema is at the end)", () => {
    const sample = sampleFromBytes("x.parquet", bytes("PAR1...."), true);
    expect(sample).toMatchObject({ ok: true, container: "parquet", records: [] });
  });
});

describe("readMappingSample", () => {
  it("reads only the first SAMPLE_BYTES of a large file", async () => {
    const row = '{"group_id":"g","completion":"c","reward":1}\n';
    const file = new File([row.repeat(Math.ceil((2 * SAMPLE_BYTES) / row.length))], "big.jsonl");
    const sample = await readMappingSample(file);
    expect(sample.ok && sample.partial).toBe(true);
    expect(sample.ok && sample.records.length).toBe(Math.floor(SAMPLE_BYTES / row.length));
  });

  it("reads a small file whole, and caches the promise per File", async () => {
    const file = new File(["a,b\n1,2\n"], "small.csv");
    expect(mappingSampleFor(file)).toBe(mappingSampleFor(file));
    const sample = await mappingSampleFor(file);
    expect(sample).toMatchObject({ ok: true, partial: false, records: [{ a: "1", b: "2" }] });
  });
});
