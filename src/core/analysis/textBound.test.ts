/**
 * The setting "text analysed per rollout" (issue 16, point 3): clusters, "find similar" and
 * divergence read at most `textChars` characters of each text, and say how many they cut.
 */
import { describe, expect, it } from "vitest";
import type { Rollout, RolloutGroup } from "../types.ts";
import { ANALYSIS_DEFAULTS, analyzeDataset, analyzeGroup, analysisAdvantages } from "./analyze.ts";
import { divergenceFirstSplit, divergenceOfRollouts, divergenceSteps } from "./divergence.ts";
import {
  rolloutSimilarityInput,
  rolloutText,
  rolloutTextBounded,
  TEXT_CHARS_DEFAULT,
  textBounded,
  textCharsValid,
  textCutCount,
} from "./text.ts";

function rollout(index: number, completion: string, reward = 0): Rollout {
  return {
    id: `g/${index}`,
    groupId: "g",
    index,
    prompt: "p",
    messages: [],
    completion,
    reward,
    rewards: {},
    answer: null,
    testsPassed: null,
    meta: {},
    source: { file: "t.jsonl", line: index + 1 },
  };
}

describe("textBounded", () => {
  it.each([
    ["abcdef", 3, "abc"],
    ["abc", 3, "abc"],
    ["ab", 3, "ab"],
    ["", 1, ""],
  ])("%j to %i characters is %j", (text, limit, expected) => {
    expect(textBounded(text, limit)).toBe(expected);
  });
  it("never ends inside a surrogate pair", () => {
    // "a😀b": the emoji is two code units at 1 and 2; a cut after 2 units would split it.
    expect(textBounded("a😀b", 2)).toBe("a");
    expect(textBounded("a😀b", 3)).toBe("a😀");
  });
  it("returns the text itself (no copy) when it fits", () => {
    const text = "x".repeat(100);
    expect(textBounded(text, 100)).toBe(text);
  });
  it("counts the texts it cuts", () => {
    expect(textCutCount(["ab", "abc", "abcd"], 3)).toBe(1);
    expect(textCutCount([], 3)).toBe(0);
  });
  it("accepts whole numbers of at least 1 as the setting", () => {
    expect(textCharsValid(1)).toBe(true);
    expect(textCharsValid(TEXT_CHARS_DEFAULT)).toBe(true);
    expect(textCharsValid(0)).toBe(false);
    expect(textCharsValid(2.5)).toBe(false);
    expect(textCharsValid(Number.NaN)).toBe(false);
    expect(ANALYSIS_DEFAULTS.textChars).toBe(200_000);
  });
});

describe("clusters read the bounded prefix", () => {
  const shared = "the same long opening of a huge completion ".repeat(10);
  // Two rollouts share their first 430 characters and differ completely after them.
  const g: RolloutGroup = {
    id: "g",
    rollouts: [
      rollout(0, shared + "alpha beta gamma delta ".repeat(200)),
      rollout(1, shared + "zzz yyy xxx www vvv uuu ".repeat(200), 1),
    ],
  };
  const settings = { ...ANALYSIS_DEFAULTS, similarityOn: "text" as const };

  it("splits them on the whole text, joins them on a prefix they share", () => {
    const whole = analyzeGroup(g, settings, analysisAdvantages([g], settings)[0]!);
    expect(whole.nClusters).toBe(2);
    expect(whole.textsCut).toBe(0);
    const prefix = { ...settings, textChars: shared.length };
    const cut = analyzeGroup(g, prefix, analysisAdvantages([g], prefix)[0]!);
    expect(cut.nClusters).toBe(1);
    expect(cut.textsCut).toBe(2);
    // Lengths are cheap and stay whole.
    expect(cut.rollouts[0]!.textLength).toBe(g.rollouts[0]!.completion!.trim().length);
  });

  it("counts cut texts in the dataset summary", () => {
    const a = analyzeDataset([g], { ...settings, textChars: 1000 });
    expect(a.summary.textsCut).toBe(2);
    expect(analyzeDataset([g], settings).summary.textsCut).toBe(0);
  });

  it("gives the worker (and find similar) the prefix only", () => {
    const input = rolloutSimilarityInput(g.rollouts[0]!, "final-assistant", 10);
    expect(input.text).toBe(shared.slice(0, 10));
  });
});

describe("divergence reads the bounded prefix", () => {
  const head = "x".repeat(50);
  const a = rollout(0, `${head} and then one ending`);
  const b = rollout(1, `${head} and then another ending`);

  it("splits texts that differ after the prefix only when the prefix reaches the difference", () => {
    expect(divergenceFirstSplit(divergenceOfRollouts([a, b]))).toBe(0);
    const tree = divergenceOfRollouts([a, b], { textChars: 50 });
    expect(divergenceFirstSplit(tree)).toBeNull();
    expect(tree.textsCut).toBe(2);
    expect(divergenceOfRollouts([a, b]).textsCut).toBe(0);
  });

  it("shows the prefix and marks the step cut", () => {
    const [step] = divergenceSteps(a, { textChars: 10 });
    expect(step).toMatchObject({ kind: "turn", text: "x".repeat(10), cut: true });
  });

  it("does not parse JSON past the bound: a cut tool result is compared as text", () => {
    const json = JSON.stringify({ b: 1, a: "y".repeat(100) });
    const r: Rollout = {
      ...rollout(0, ""),
      completion: null,
      messages: [
        { role: "tool", content: json, toolCalls: [], toolCallId: "c", name: "t" },
        {
          role: "assistant",
          content: "",
          toolCalls: [{ id: "c", name: "f", arguments: json }],
          toolCallId: null,
          name: null,
        },
      ],
    };
    const whole = divergenceSteps(r);
    expect(whole[0]).toMatchObject({ kind: "result", cut: false });
    // Canonical JSON sorts the keys: "a" first.
    expect(whole[1]).toMatchObject({ kind: "call", argsValid: true, cut: false });
    expect(whole[1]!.kind === "call" && whole[1]!.args.startsWith('{"a"')).toBe(true);
    const cut = divergenceSteps(r, { textChars: 20 });
    expect(cut[0]).toMatchObject({ kind: "result", text: json.slice(0, 20), cut: true });
    expect(cut[1]).toMatchObject({
      kind: "call",
      argsValid: false,
      args: json.slice(0, 20),
      cut: true,
    });
  });
});

describe("rolloutTextBounded", () => {
  const msg = (role: string, content: string) => ({
    role,
    content,
    toolCalls: [],
    toolCallId: null,
    name: null,
  });
  const chat: Rollout = {
    ...rollout(0, ""),
    completion: null,
    messages: [
      msg("assistant", "  first answer "),
      msg("user", "a question"),
      msg("assistant", "x".repeat(50)),
      msg("assistant", "last"),
    ],
  };
  it.each([1, 5, 12, 13, 14, 30, 63, 64, 68, 69, 1000])(
    "is the prefix of the whole text under every rule (limit %i)",
    (limit) => {
      for (const rule of ["final-assistant", "benchmax", "all-assistant"] as const) {
        expect(rolloutTextBounded(chat, rule, limit)).toBe(
          textBounded(rolloutText(chat, rule), limit),
        );
      }
    },
  );
});
