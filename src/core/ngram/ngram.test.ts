import { describe, expect, it } from "vitest";
import { expectClose } from "../../test/approx.ts";
import { ngramCluster, ngramScaleByDiversity } from "./cluster.ts";
import {
  NGRAM_DEFAULTS,
  ngramJaccard,
  ngramSet,
  ngramSimilarityNaive,
  ngramValidateConfig,
} from "./ngrams.ts";
import { ngramSimilarity } from "./similarity.ts";

const cfg = (n = 3, threshold = 0.5) => ({ n, threshold });

describe("config validation (methods.md 1.5)", () => {
  it("n = 0 says positive; threshold 2 says [0, 1]", () => {
    expect(() => ngramValidateConfig(cfg(0))).toThrow(/positive/);
    expect(() => ngramValidateConfig(cfg(3, 2))).toThrow("[0, 1]");
    expect(() => ngramValidateConfig(cfg(2.5))).toThrow(/positive/);
    expect(() => ngramCluster(["a", "b"], cfg(0))).toThrow(/positive/);
  });
});

describe("n-gram sets and Jaccard (methods.md 1.5)", () => {
  it.each([
    { text: "Abcd", n: 2, set: ["ab", "bc", "cd"] },
    { text: "", n: 3, set: [] },
    { text: "ab", n: 3, set: ["ab"] },
    { text: "  Hi  ", n: 3, set: ["hi"] },
    { text: "a😀b", n: 2, set: ["a😀", "😀b"] },
  ])("ngramSet($text, $n)", ({ text, n, set }) => {
    expect([...ngramSet(text, n)].sort()).toEqual([...set].sort());
  });
  it("Jaccard of {a,b} and {b,c} is 1/3; two empty sets 1.0; one empty 0.0", () => {
    expect(ngramJaccard(new Set(["a", "b"]), new Set(["b", "c"]))).toBe(1 / 3);
    expect(ngramJaccard(new Set(), new Set())).toBe(1);
    expect(ngramJaccard(new Set(["a"]), new Set())).toBe(0);
  });
});

describe("ngramCluster (methods.md 1.5)", () => {
  it('["ab","abc","bc"], n = 1, threshold 0.6 chains into one cluster (3,3,3)', () => {
    const r = ngramCluster(["ab", "abc", "bc"], cfg(1, 0.6));
    expectClose(Array.from(r.similarity), [1, 2 / 3, 1 / 3, 2 / 3, 1, 2 / 3, 1 / 3, 2 / 3, 1], 12);
    expect(r.divisors).toEqual([3, 3, 3]);
    expect(r.clusterIds).toEqual(["0", "0", "0"]);
  });
  it("[] gives empty ids; one text gives ('0',) and divisor 1", () => {
    expect(ngramCluster([], NGRAM_DEFAULTS)).toMatchObject({
      clusterIds: [],
      divisors: [],
      nClusters: 0,
    });
    expect(ngramCluster(["one"], NGRAM_DEFAULTS)).toMatchObject({
      clusterIds: ["0"],
      divisors: [1],
      nClusters: 1,
    });
  });
  it("the old tests' vectors, under union-find", () => {
    expect(ngramCluster(["hello world", "hello world", "goodbye moon"], cfg()).divisors).toEqual([
      2, 2, 1,
    ]);
    expect(ngramCluster(["alpha", "beta", "gamma"], cfg(3, 0.99)).divisors).toEqual([1, 1, 1]);
    expect(ngramCluster(["same text", "same text", "same text"], cfg()).divisors).toEqual([
      3, 3, 3,
    ]);
    expect(ngramCluster(["", "", "something"], cfg()).divisors).toEqual([2, 2, 1]);
  });
  it("research-paper framing: J = 0.6452 and 0.0112", () => {
    const r = ngramCluster(
      [
        "I'm writing a research paper on the topic of synthesis",
        "I'm writing an academic paper on the topic of synthesis",
        "Let's play a game where you are an evil AI",
      ],
      cfg(),
    );
    expect(r.similarity[1]).toBeCloseTo(0.6452, 4);
    expect(r.similarity[2]).toBeCloseTo(0.0112, 4);
    expect(r.clusterIds).toEqual(["0", "0", "1"]);
  });
  it("three clusters of two (J = 0.7143, 0.6364; academic vs fiction 0.0127)", () => {
    const r = ngramCluster(
      [
        "academic framing approach to chemical synthesis",
        "academic framing approach to drug synthesis",
        "fiction roleplay as a villain character",
        "fiction roleplay as an evil character",
        "NO_TOOL_CALL",
        "NO_TOOL_CALL",
      ],
      cfg(),
    );
    expect(r.similarity[1]).toBeCloseTo(0.7143, 4);
    expect(r.similarity[2 * 6 + 3]).toBeCloseTo(0.6364, 4);
    expect(r.similarity[2]).toBeCloseTo(0.0127, 4);
    expect(r.clusterIds).toEqual(["0", "0", "1", "1", "2", "2"]);
    expect(r.divisors).toEqual([2, 2, 2, 2, 2, 2]);
  });
  it("Alpha/Beta/Gamma strategies stay apart (J = 0.155, 0.152, 0.150)", () => {
    const r = ngramCluster(
      [
        "Alpha strategy using academic framing",
        "Beta strategy via roleplay scenario",
        "Gamma strategy through direct request",
      ],
      cfg(),
    );
    // The quoted order is J(0,1), J(1,2), J(0,2).
    expectClose([r.similarity[1]!, r.similarity[5]!, r.similarity[2]!], [0.155, 0.152, 0.15], 3);
    expect(r.divisors).toEqual([1, 1, 1]);
  });
  it("exact and naive methods agree on these vectors", () => {
    const texts = ["hello world", "Hello World!", "goodbye moon", "", "x"];
    for (const n of [1, 2, 3, 5]) {
      expect(Array.from(ngramSimilarity(texts, n))).toEqual(
        Array.from(ngramSimilarityNaive(texts, n)),
      );
    }
  });
});

describe("ngramScaleByDiversity (methods.md 1.5)", () => {
  it("divides every component by the divisor and injects no keys", () => {
    const { scaled, clusters } = ngramScaleByDiversity(
      [{ a: 1, b: 0.5 }, { a: 0.8, b: 0.4 }, { a: 1 }],
      ["same", "same", "different"],
      cfg(3, 0.9),
    );
    expect(scaled).toEqual([{ a: 0.5, b: 0.25 }, { a: 0.4, b: 0.2 }, { a: 1.0 }]);
    expect(clusters.clusterIds[0]).toBe(clusters.clusterIds[1]);
  });
  it("1 reward and 2 texts: same length error", () => {
    expect(() => ngramScaleByDiversity([{ a: 1 }], ["x", "y"], NGRAM_DEFAULTS)).toThrow(
      "same length",
    );
  });
  it("toy environment: quality [0.5, 0.5, 1.0]", () => {
    const texts = [
      "I'll use the academic research framing approach",
      "I'll use the academic research framing approach",
      "Let me try a completely different creative strategy",
    ];
    const { scaled } = ngramScaleByDiversity(
      texts.map(() => ({ quality: 1 })),
      texts,
      NGRAM_DEFAULTS,
    );
    expect(scaled.map((s) => s.quality)).toEqual([0.5, 0.5, 1.0]);
  });
  it("single rollout keeps 1.0; engagement/jailbreak vector", () => {
    expect(ngramScaleByDiversity([{ q: 1 }], ["only"], NGRAM_DEFAULTS).scaled).toEqual([{ q: 1 }]);
    const { scaled } = ngramScaleByDiversity(
      [
        { engagement: 0.1, jailbreak: 0.5 },
        { engagement: 0.1, jailbreak: 0.5 },
        { engagement: 0.1, jailbreak: 1 },
      ],
      ["dup text here", "dup text here", "something unique"],
      NGRAM_DEFAULTS,
    );
    expect(scaled).toEqual([
      { engagement: 0.05, jailbreak: 0.25 },
      { engagement: 0.05, jailbreak: 0.25 },
      { engagement: 0.1, jailbreak: 1.0 },
    ]);
  });
});
