import { describe, expect, it } from "vitest";
import { globMatcher, globSplit, isGlob } from "./glob.ts";

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
