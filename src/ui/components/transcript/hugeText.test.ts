import { describe, expect, it } from "vitest";
import {
  formatBytes,
  hugeFind,
  hugeLabel,
  hugeNextMatch,
  hugePieceOf,
  hugePieces,
  hugeRowOf,
  hugeRows,
  hugeRowText,
  hugeSearchStatus,
  MAX_MATCHES,
  utf8Bytes,
} from "./hugeText.ts";

const rowsOf = (text: string, from: number, to: number, n: number): string[] => {
  const rows = hugeRows(text, from, to, n);
  return Array.from(rows, (_, i) => hugeRowText(text, rows, i, to));
};

describe("hugePieces", () => {
  it("cuts the text every pieceChars characters, the length last", () => {
    expect(hugePieces("abcdefghij", 4)).toEqual([0, 4, 8, 10]);
    expect(hugePieces("abcd", 4)).toEqual([0, 4]);
    expect(hugePieces("", 4)).toEqual([0, 0]);
  });
  it("never starts a piece inside a surrogate pair", () => {
    // "abc😀d": the emoji's two code units are at 3 and 4.
    expect(hugePieces("abc😀d", 4)).toEqual([0, 5, 6]);
  });
  it("finds the piece of an offset", () => {
    const p = [0, 4, 8, 10];
    expect([0, 3, 4, 7, 8, 9, 10].map((o) => hugePieceOf(p, o))).toEqual([0, 0, 1, 1, 2, 2, 2]);
  });
});

describe("hugeRows", () => {
  it("ends a row at each line break, which it does not show", () => {
    expect(rowsOf("ab\ncd\n\nef", 0, 9, 10)).toEqual(["ab", "cd", "", "ef"]);
    expect(rowsOf("ab\r\ncd", 0, 6, 10)).toEqual(["ab", "cd"]);
  });
  it("wraps a long line every rowChars characters", () => {
    expect(rowsOf("abcdefg\nhi", 0, 10, 3)).toEqual(["abc", "def", "g", "hi"]);
  });
  it("reads one piece, with offsets into the whole text", () => {
    const text = "aaaa\nbbbb\ncccc";
    const rows = hugeRows(text, 5, 10, 10);
    expect(Array.from(rows)).toEqual([5]);
    expect(hugeRowText(text, rows, 0, 10)).toBe("bbbb");
    expect(hugeRowOf(hugeRows(text, 0, 14, 10), 11)).toBe(2);
  });
  it("gives an empty range one empty row", () => {
    expect(rowsOf("", 0, 0, 10)).toEqual([""]);
  });
  it("joins back to the text, line breaks aside, and never splits a surrogate pair", () => {
    const text = "😀😀😀\nx😀y😀z\n" + "q".repeat(25);
    const rows = rowsOf(text, 0, text.length, 3);
    expect(rows.join("")).toBe(text.replaceAll("\n", ""));
    for (const r of rows) expect(r).not.toMatch(/^[\udc00-\udfff]|[\ud800-\udbff]$/);
  });
});

describe("utf8Bytes and the label", () => {
  it("counts UTF-8 bytes as TextEncoder does", () => {
    for (const text of ["", "abc", "é", "→", "😀", "a😀é→\n", "\ud800x"]) {
      expect(utf8Bytes(text)).toBe(new TextEncoder().encode(text).length);
    }
    expect(utf8Bytes("abcé", 2, 4)).toBe(3);
  });
  it("says the size in bytes and characters", () => {
    expect(formatBytes(1)).toBe("1 byte");
    expect(formatBytes(999)).toBe("999 bytes");
    expect(formatBytes(12_345)).toBe("12.3 KB");
    expect(formatBytes(50_000_000)).toBe("50.0 MB");
    expect(formatBytes(2_500_000_000)).toBe("2.50 GB");
    expect(hugeLabel(50_000_000, 50_000_000)).toBe(
      "50.0 MB text, shown in pieces (50,000,000 characters)",
    );
    expect(hugeLabel(300_000, null)).toBe(
      "300,000 characters of text, shown in pieces (counting bytes…)",
    );
  });
});

describe("hugeFind", () => {
  it("finds every match in consecutive ranges once, one across a boundary too", () => {
    const text = "xxNEEDLExxneedlexNEED" + "LE";
    const all = [0, 8, 16].flatMap((from) =>
      hugeFind(text, "needle", from, Math.min(from + 8, text.length)),
    );
    expect(all).toEqual([2, 10, 17]);
  });
  it("is case-insensitive and stops at the limit", () => {
    expect(hugeFind("aAaA", "a", 0, 4)).toEqual([0, 1, 2, 3]);
    expect(hugeFind("aAaA", "a", 0, 4, 2)).toEqual([0, 1]);
    expect(hugeFind("abc", "", 0, 3)).toEqual([]);
  });
  it("keeps offsets true where lower-casing changes the length", () => {
    // "İ".toLowerCase() is two code units: that slice is searched as written.
    expect(hugeFind("İ needle", "needle", 0, 8)).toEqual([2]);
  });
  it("picks the next match, wrapping", () => {
    expect(hugeNextMatch([3, 9], 4)).toBe(1);
    expect(hugeNextMatch([3, 9], 10)).toBe(0);
    expect(hugeNextMatch([], 0)).toBe(-1);
  });
});

describe("hugeSearchStatus", () => {
  const at = { query: "needle", matches: 0, scanned: 0, chars: 2_000_000, done: false, index: 0 };

  it("is empty without a query, and the progress until the first match", () => {
    expect(hugeSearchStatus({ ...at, query: "" })).toBe("");
    expect(hugeSearchStatus({ ...at, scanned: 1_000_000 })).toBe("searching… 50%");
    expect(hugeSearchStatus({ ...at, scanned: 2_000_000, done: true })).toBe("no match");
  });

  it("counts the matches, says while it is still searching, and when it stopped at the cap", () => {
    expect(hugeSearchStatus({ ...at, matches: 1200, index: 2 })).toBe("3 of 1,200+ so far");
    expect(hugeSearchStatus({ ...at, matches: 12, index: 0, done: true })).toBe("1 of 12");
    expect(hugeSearchStatus({ ...at, matches: MAX_MATCHES, index: 0, done: true })).toBe(
      "1 of 1,000+",
    );
  });
});
