import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import { fileChanges, fileChangeKind, type FileSnapshot } from "./fileChanges.ts";

const snap = (id: string, text: string, mtimeMs = 1): FileSnapshot => {
  const bytes = new TextEncoder().encode(text);
  return { id, size: bytes.length, mtimeMs, head: bytes.slice(0, 4096) };
};

describe("fileChangeKind", () => {
  it.each([
    ["a line appended", snap("f", '{"a":1}\n'), snap("f", '{"a":1}\n{"a":2}\n', 2), "grown"],
    ["truncated", snap("f", '{"a":1}\n{"a":2}\n'), snap("f", '{"a":1}\n', 2), "shrunk"],
    [
      "longer, other start",
      snap("f", '{"a":1}\n'),
      snap("f", '{"b":1}\n{"a":2}\n', 2),
      "rewritten",
    ],
    ["same size, new time", snap("f", '{"a":1}\n', 1), snap("f", '{"a":1}\n', 2), "rewritten"],
    ["same size, other bytes", snap("f", '{"a":1}\n', 1), snap("f", '{"a":2}\n', 1), "rewritten"],
    ["untouched", snap("f", '{"a":1}\n', 1), snap("f", '{"a":1}\n', 1), null],
  ] as const)("%s: %s", (_name, before, after, kind) => {
    expect(fileChangeKind(before, after)).toBe(kind);
  });
});

describe("fileChanges", () => {
  it("names added, removed and changed files, and nothing else", () => {
    const before = new Map([
      ["a", snap("a", "1\n")],
      ["b", snap("b", "2\n")],
      ["c", snap("c", "3\n")],
    ]);
    const after = new Map([
      ["a", snap("a", "1\n")],
      ["c", snap("c", "3\n4\n", 5)],
      ["d", snap("d", "new\n")],
    ]);
    expect(fileChanges(before, after)).toEqual([
      { id: "b", kind: "removed", size: 2, mtimeMs: 1 },
      { id: "c", kind: "grown", size: 4, mtimeMs: 5 },
      { id: "d", kind: "added", size: 4, mtimeMs: 1 },
    ]);
  });

  test.prop([fc.string(), fc.string({ minLength: 1 })])(
    "appending to a file is always `grown`",
    (start, more) => {
      expect(fileChangeKind(snap("f", start), snap("f", start + more, 2))).toBe("grown");
    },
  );

  test.prop([fc.array(fc.tuple(fc.string(), fc.string()))])(
    "a scan against itself is no change",
    (files) => {
      const scan = new Map(files.map(([id, text]) => [id, snap(id, text)]));
      expect(fileChanges(scan, scan)).toEqual([]);
    },
  );
});
