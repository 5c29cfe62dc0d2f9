import { describe, expect, it } from "vitest";
import {
  ANALYSIS_DEFAULTS,
  type ChatMessage,
  type Rollout,
  type RolloutGroup,
} from "../../../core/index.ts";
import { filterGroupRows, prepareGroupRows, promptPreview } from "./prepareGroupRows.ts";

const msg = (role: string, content: string): ChatMessage => ({
  role,
  content,
  toolCalls: [],
  toolCallId: null,
  name: null,
});

function rollout(id: string, reward: number | null, completion: string): Rollout {
  return {
    id,
    groupId: "g",
    index: 0,
    prompt: "Solve  2+2\nplease",
    messages: [],
    completion,
    reward,
    rewards: {},
    answer: null,
    testsPassed: null,
    meta: {},
    source: { file: "f", line: 1 },
  };
}

describe("promptPreview", () => {
  it("flattens whitespace, shows the last user turn of a chat prompt, and truncates", () => {
    expect(promptPreview("a\n\n b")).toBe("a b");
    expect(
      promptPreview([
        msg("system", "policy"),
        msg("user", "first"),
        msg("assistant", "x"),
        msg("user", "second"),
      ]),
    ).toBe("second");
    expect(promptPreview(null)).toBe("");
    expect(promptPreview("x".repeat(200))).toHaveLength(121);
  });
});

describe("prepareGroupRows", () => {
  const group: RolloutGroup = {
    id: "g",
    rollouts: [rollout("a", 1, "four"), rollout("b", 0, "five"), rollout("c", null, "")],
  };
  const summary = { id: "g", rewards: [1, 0, NaN], prompt: "", partial: false };
  it("formats numbers, flags and previews; clusters only for parsed groups", () => {
    expect(prepareGroupRows([summary], new Map([["g", group]]), ANALYSIS_DEFAULTS)).toEqual([
      {
        id: "g",
        prompt: "Solve 2+2 please",
        n: 3,
        passes: 1,
        mean: "0.500",
        std: "0.500",
        flags: ["mixed"],
        clusters: 3,
      },
    ]);
    const [unparsed] = prepareGroupRows(
      [{ ...summary, prompt: "from the index", partial: true }],
      new Map(),
      ANALYSIS_DEFAULTS,
    );
    expect(unparsed).toMatchObject({
      prompt: "from the index",
      clusters: null,
      flags: ["mixed", "partial"],
    });
  });
});

describe("filterGroupRows", () => {
  const row = (id: string, flags: string[], prompt = "") => ({
    id,
    prompt,
    n: 4,
    passes: 1,
    mean: "",
    std: "",
    flags,
    clusters: null,
  });
  const rows = [
    row("a", ["mixed"], "Refund my order"),
    row("b", ["zero std"]),
    row("c", ["mixed", "partial"], "cancel"),
  ];
  it("keeps mixed, zero-std or matching groups", () => {
    expect(
      filterGroupRows(rows, { mixedOnly: true, zeroStdOnly: false, query: "" }).map((r) => r.id),
    ).toEqual(["a", "c"]);
    expect(
      filterGroupRows(rows, { mixedOnly: false, zeroStdOnly: true, query: "" }).map((r) => r.id),
    ).toEqual(["b"]);
    expect(
      filterGroupRows(rows, { mixedOnly: false, zeroStdOnly: false, query: "REFUND" }).map(
        (r) => r.id,
      ),
    ).toEqual(["a"]);
    expect(
      filterGroupRows(rows, { mixedOnly: false, zeroStdOnly: false, query: " " }),
    ).toHaveLength(3);
  });
});
