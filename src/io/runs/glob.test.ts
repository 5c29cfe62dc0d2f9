/**
 * Covers: io's one glob matcher (used by `view`'s catalog and the CLI's expandGlob): the split into
 * base folder and pattern, the matcher on examples, and properties: a literal path matches itself
 * and nothing else, `*` and `?` never cross `/`, `**` does, a class matches its members only, and
 * the one-segment matcher agrees with the path matcher on names.
 */
import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import { globMatcher, globSegmentMatcher, globSplit, isGlob } from "./glob.ts";

describe("globSplit", () => {
  it.each([
    ["runs/*.jsonl", "runs", "*.jsonl"],
    ["*.jsonl", "", "*.jsonl"],
    [
      "/data/run1/completions/completions_*.parquet",
      "/data/run1/completions",
      "completions_*.parquet",
    ],
    ["a/**/b/*.eval", "a", "**/b/*.eval"],
    ["plain/file.jsonl", "plain/file.jsonl", ""],
  ])("%s -> base %s, pattern %s", (glob, base, pattern) => {
    expect(globSplit(glob)).toEqual({ base, pattern });
  });
});

describe("globMatcher", () => {
  const cases: [string, string, boolean][] = [
    ["*.jsonl", "0.jsonl", true],
    ["*.jsonl", "sub/0.jsonl", false],
    ["*.jsonl", "0.json", false],
    ["step_?.jsonl", "step_1.jsonl", true],
    ["step_?.jsonl", "step_10.jsonl", false],
    ["**/*.jsonl", "0.jsonl", true],
    ["**/*.jsonl", "a/b/0.jsonl", true],
    ["a/**", "a/b/c.jsonl", true],
    ["[0-9].jsonl", "7.jsonl", true],
    ["[!0-9].jsonl", "x.jsonl", true],
    ["[!0-9].jsonl", "7.jsonl", false],
    ["a.b*.jsonl", "a.bc.jsonl", true],
    ["a.b*.jsonl", "axbc.jsonl", false],
    ["(x)+.jsonl", "(x)+.jsonl", true],
  ];
  it.each(cases)("%s matches %s: %s", (pattern, path, expected) => {
    expect(globMatcher(pattern)(path)).toBe(expected);
  });

  it("isGlob sees *, ? and [", () => {
    expect(["a*", "a?", "a[1]", "plain"].map(isGlob)).toEqual([true, true, true, false]);
  });
});

// Names from characters that are regular-expression syntax but not glob syntax, so a literal that
// reached the regex unescaped would fail to match itself.
const nameChar = fc.constantFrom(..."ab.+^$(){}|\\]-_ 0é中");
const name = fc.string({ unit: nameChar, minLength: 1, maxLength: 8 });
const path = fc.array(name, { minLength: 1, maxLength: 4 }).map((s) => s.join("/"));

describe("globMatcher properties", () => {
  test.prop([path])("a literal path matches itself", (p) => {
    expect(isGlob(p)).toBe(false);
    expect(globMatcher(p)(p)).toBe(true);
  });

  test.prop([path, path])("a literal path matches no other path", (p, q) => {
    fc.pre(p !== q);
    expect(globMatcher(p)(q)).toBe(false);
  });

  test.prop([fc.array(name, { minLength: 2, maxLength: 4 })])(
    "* and ? never cross /, ** does",
    (segments) => {
      const p = segments.join("/");
      expect(globMatcher("*")(p)).toBe(false);
      expect(globMatcher("?".repeat(p.length))(p)).toBe(false);
      expect(globMatcher("**")(p)).toBe(true);
      expect(globMatcher(`**/${segments.at(-1)!}`)(p)).toBe(true);
      expect(globMatcher(segments.map(() => "*").join("/"))(p)).toBe(true);
    },
  );

  test.prop([name])("** as a segment matches no folder at all", (n) => {
    expect(globMatcher(`**/${n}`)(n)).toBe(true);
  });

  test.prop([
    fc.string({ unit: fc.constantFrom(..."abc012"), minLength: 1, maxLength: 3 }),
    fc.constantFrom(..."abc012xyz"),
  ])("a class matches its members only, [!...] the others", (members, c) => {
    const inside = members.includes(c);
    expect(globMatcher(`[${members}]`)(c)).toBe(inside);
    expect(globMatcher(`[!${members}]`)(c)).toBe(!inside);
  });

  test.prop([
    fc.string({ unit: fc.constantFrom(..."ab.*?[]!0"), minLength: 1, maxLength: 6 }),
    name,
  ])("the segment matcher agrees with the path matcher on names", (segment, n) => {
    fc.pre(segment !== "**");
    expect(globSegmentMatcher(segment)(n)).toBe(globMatcher(segment)(n));
    expect(globSegmentMatcher(segment)(segment)).toBe(globMatcher(segment)(segment));
  });
});
