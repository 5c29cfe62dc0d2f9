/** Covers: the RFC 4180 reader's field splitting, record boundaries, line numbers and refusals. */
import { describe, expect, it } from "vitest";
import { LoadError } from "../issues.ts";
import { csvFields, readCsv } from "./csv.ts";

const read = (text: string) => readCsv("t.csv", new TextEncoder().encode(text));

describe("csvFields", () => {
  it.each([
    ["a,b,c", ["a", "b", "c"]],
    ["", [""]],
    ["a,", ["a", ""]],
    [",,", ["", "", ""]],
    ['"a,b",c', ["a,b", "c"]],
    ['"say ""hi""",x', ['say "hi"', "x"]],
    ['""', [""]],
    ['"multi\nline",2', ["multi\nline", "2"]],
    // Python's csv leniency: a quote inside an unquoted field is literal, text after a closing quote
    // is appended.
    ['ab"c,d', ['ab"c', "d"]],
    ['"ab"c,d', ["abc", "d"]],
  ])("%j", (text, fields) => {
    expect(csvFields(text)).toEqual(fields);
  });
});

describe("readCsv", () => {
  it("keys rows by the header and gives each its first line", () => {
    const r = read('id,text\r\n1,"two\r\nlines"\r\n\r\n2,plain\r\n');
    expect(r.records).toEqual([
      { ref: { file: "t.csv", line: 2 }, value: { id: "1", text: "two\r\nlines" } },
      { ref: { file: "t.csv", line: 5 }, value: { id: "2", text: "plain" } },
    ]);
    expect(r).toMatchObject({ seen: 2, blank: 1, lines: 5, issues: [] });
  });

  it("skips a byte-order mark and reads a last row without a newline", () => {
    const bytes = new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode("a,b\n1,2")]);
    const r = readCsv("t.csv", bytes);
    expect(r.records.map((x) => x.value)).toEqual([{ a: "1", b: "2" }]);
  });

  it("turns a row with the wrong number of fields into an issue naming its line", () => {
    const r = read("a,b\n1,2\n1,2,3\n4\n5,6\n");
    expect(r.records.map((x) => x.ref.line)).toEqual([2, 5]);
    expect(r.issues).toEqual([
      { file: "t.csv", line: 3, message: "expected 2 fields (one per header column), got 3" },
      { file: "t.csv", line: 4, message: "expected 2 fields (one per header column), got 1" },
    ]);
    expect(r.seen).toBe(4);
  });

  it("reports a quote that is never closed on the row where it starts", () => {
    const r = read('a,b\n1,2\n3,"open\n4,5\n');
    expect(r.records).toHaveLength(1);
    expect(r.issues).toEqual([
      expect.objectContaining({
        line: 3,
        message: expect.stringMatching(/never closed/) as string,
      }),
    ]);
  });

  it("refuses a file with a repeated column name, or no data row", () => {
    expect(() => read("a,b,a\n1,2,3\n")).toThrow(LoadError);
    expect(() => read("a,b,a\n1,2,3\n")).toThrow(
      /t\.csv: line 1: the CSV header names the column "a" twice \(columns 1 and 3\)/,
    );
    expect(() => read("a,b\n\n")).toThrow(/has a header row but no data rows/);
    expect(() => read('"a,b\n')).toThrow(/line 1: a quoted field .* never closed/);
  });
});
