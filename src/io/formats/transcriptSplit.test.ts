/**
 * Covers: issue 15 item 5, a transcript with no assistant turn. The one split every chat-bearing
 * loader uses (fields.ts `splitTranscript`, a fast-check property), then one record per loader
 * family with no assistant turn: its messages are the transcript (not the prompt), and the text
 * judges and clustering read (core's final-assistant rule) is the last message's text.
 */
import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import {
  judgeRolloutText,
  rolloutText,
  textFromMessages,
  type ChatMessage,
  type Rollout,
} from "../../core/index.ts";
import { loadText, type LoadOptions } from "../index.ts";
import { splitTranscript } from "./fields.ts";

const ROLES = ["system", "user", "assistant", "tool", "developer"] as const;

const chatMessage: fc.Arbitrary<ChatMessage> = fc.record({
  role: fc.constantFrom(...ROLES),
  content: fc.oneof(fc.constant(""), fc.constant("  "), fc.string({ maxLength: 12 })),
  toolCalls: fc.constant([]),
  toolCallId: fc.constant(null),
  name: fc.constant(null),
});

describe("splitTranscript, the one prompt/transcript split", () => {
  test.prop([fc.array(chatMessage, { maxLength: 12 })])(
    "loses no turn, never puts an assistant turn in the prompt, and without one keeps every turn as the transcript",
    (turns) => {
      const { prompt, messages, lead } = splitTranscript(turns);
      const first = turns.findIndex((m) => m.role === "assistant");
      // Nothing lost, nothing reordered.
      expect([...(prompt ?? []), ...messages]).toEqual(turns);
      expect(prompt?.some((m) => m.role === "assistant") ?? false).toBe(false);
      expect(prompt === null || prompt.length > 0).toBe(true);
      if (first === -1) {
        expect(prompt).toBeNull();
        expect(messages).toEqual(turns);
        expect(lead).toEqual(turns);
      } else {
        expect(messages[0]!.role).toBe("assistant");
        expect(lead).toEqual(turns.slice(0, first));
        expect(prompt ?? []).toEqual(lead);
      }
    },
  );

  test.prop([fc.array(chatMessage, { maxLength: 12 })])(
    "final-assistant reads the last assistant text, or with no assistant turn the last message's text",
    (turns) => {
      const { messages } = splitTranscript(turns);
      const text = textFromMessages(messages, "final-assistant");
      const withText = (role: string | null) =>
        messages.filter((m) => (role === null || m.role === role) && m.content.trim() !== "");
      if (messages.some((m) => m.role === "assistant"))
        expect(text).toBe(withText("assistant").at(-1)?.content.trim() ?? "");
      else expect(text).toBe(withText(null).at(-1)?.content.trim() ?? "");
      // Something to read whenever any turn has text and no assistant turn hides it.
      if (!messages.some((m) => m.role === "assistant") && withText(null).length > 0)
        expect(text).not.toBe("");
    },
  );
});

/** The only rollout of a file. */
async function only(file: string, text: string, load: LoadOptions = {}): Promise<Rollout> {
  const result = await loadText(file, text, load);
  expect(result.issues).toEqual([]);
  expect(result.stats.rollouts).toBe(1);
  return result.groups[0]!.rollouts[0]!;
}

/** The rule: every turn is the transcript, and what judges and clustering read is the last text. */
function expectTranscriptOnly(r: Rollout, roles: readonly string[], last: string): void {
  expect(r.messages.map((m) => m.role)).toEqual(roles);
  expect(r.completion).toBeNull();
  expect(rolloutText(r, "final-assistant")).toBe(last);
  expect(judgeRolloutText(r)).toContain(last);
}

const SYSTEM = { role: "system", content: "You are a helpful agent." };
const USER = { role: "user", content: "What is 17 * 23?" };
const TOOL = { role: "tool", tool_call_id: "c1", content: "391" };
const ANSWER = { role: "assistant", content: "391" };
const pretty = (value: unknown): string => JSON.stringify(value, null, 2);

describe("every chat-bearing loader applies it", () => {
  it("OpenAI chat rows, and equal-prompt grouping still joins a row without a reply to its prompt", async () => {
    const r = await only(
      "rows.jsonl",
      `${JSON.stringify({ task_id: "t", messages: [SYSTEM, USER], reward: 0 })}\n`,
      { format: "openai" },
    );
    expect(r.prompt).toBeNull();
    expectTranscriptOnly(r, ["system", "user"], USER.content);

    const rows = [
      { messages: [SYSTEM, USER], reward: 0 },
      { messages: [SYSTEM, USER, ANSWER], reward: 1 },
    ];
    const both = await loadText("rows.jsonl", rows.map((row) => JSON.stringify(row)).join("\n"), {
      format: "openai",
    });
    expect(both.groups.map((g) => g.rollouts.length)).toEqual([2]);
  });

  it("tau-bench", async () => {
    const row = { task_id: 4, trial: 0, reward: 0, info: {}, traj: [SYSTEM, USER, TOOL] };
    const r = await only("tau.json", pretty([row]));
    expect(r.prompt).toBeNull();
    expectTranscriptOnly(r, ["system", "user", "tool"], "391");
  });

  it("tau2", async () => {
    const results = {
      info: {},
      tasks: [{ id: "t1" }],
      simulations: [
        {
          id: "s1",
          task_id: "t1",
          trial: 0,
          termination_reason: "agent_error",
          reward_info: null,
          messages: [USER],
        },
      ],
    };
    const r = await only("results.json", pretty(results));
    expect(r.prompt).toBeNull();
    expectTranscriptOnly(r, ["user"], USER.content);
  });

  it("Inspect (a sample that errored before the model answered)", async () => {
    const log = {
      version: 2,
      status: "error",
      eval: { task: "math" },
      samples: [
        { id: 1, epoch: 1, messages: [SYSTEM, USER], scores: null, error: { message: "x" } },
      ],
    };
    const r = await only("log.json", pretty(log));
    expect(r.prompt).toBeNull();
    expectTranscriptOnly(r, ["system", "user"], USER.content);
  });

  it("benchmax", async () => {
    const row = {
      rollout_id: "r1",
      example_id: "e1",
      termination_reason: "harness_timeout",
      rewards: null,
      messages: [SYSTEM, USER],
    };
    const r = await only("b.jsonl", JSON.stringify(row));
    expect(r.prompt).toBeNull();
    expectTranscriptOnly(r, ["system", "user"], USER.content);
  });

  it("whileai (a training row with messages): the row's prompt text stays the prompt", async () => {
    const row = { scenario_id: "s", prompt: "Cancel my plan.", messages: [USER, TOOL], reward: 0 };
    const r = await only("w.jsonl", JSON.stringify(row), { format: "whileai" });
    expect(r.prompt).toBe("Cancel my plan.");
    expectTranscriptOnly(r, ["user", "tool"], "391");
  });

  it("native messages (already the transcript)", async () => {
    const row = { group_id: "g", messages: [USER, TOOL], reward: 1 };
    const r = await only("n.jsonl", JSON.stringify(row));
    expectTranscriptOnly(r, ["user", "tool"], "391");
  });

  it("the field mapping", async () => {
    const row = { q: "g1", convo: [SYSTEM, USER], score: 1 };
    const r = await only("m.jsonl", JSON.stringify(row), {
      format: "mapped",
      options: { groupKey: "q", textKey: "convo", rewardKeys: ["score"] },
    });
    expect(r.prompt).toBeNull();
    expectTranscriptOnly(r, ["system", "user"], USER.content);
  });

  it("SWE-agent (a history that stopped before the first model turn)", async () => {
    const traj = {
      history: [
        { ...SYSTEM, agent: "main", message_type: "system_prompt" },
        {
          role: "user",
          content: "Fix the failing test.",
          agent: "main",
          message_type: "observation",
        },
      ],
      trajectory: [],
      info: { exit_status: "early_exit" },
    };
    const r = await only("x__y-1.traj", pretty(traj));
    expect(r.prompt).toBeNull();
    expectTranscriptOnly(r, ["system", "user"], "Fix the failing test.");
  });

  it("OpenHands (the instruction is the prompt when no user turn states it)", async () => {
    const line = {
      instance_id: "o__r-1",
      instruction: "Fix the bug in parse().",
      history: [
        { id: 0, source: "agent", action: "system", args: { content: "You are OpenHands." } },
        { id: 1, source: "environment", observation: "null", content: "workspace ready" },
      ],
      test_result: {},
    };
    const r = await only("output.jsonl", JSON.stringify(line));
    expect(r.messages.length).toBeGreaterThan(0);
    expect(r.messages.some((m) => m.role === "assistant")).toBe(false);
    expect(r.prompt).toEqual([
      expect.objectContaining({ role: "user", content: line.instruction }),
    ]);
    expect(rolloutText(r, "final-assistant")).toBe(r.messages.at(-1)!.content.trim());
    expect(rolloutText(r, "final-assistant")).not.toBe("");
  });

  it("ATIF (a trajectory with no agent step)", async () => {
    const trajectory = {
      schema_version: "ATIF-v1.2",
      session_id: "sess-1",
      agent: { name: "terminus", version: "1" },
      steps: [
        { step_id: 1, source: "system", message: "You are an agent." },
        { step_id: 2, source: "user", message: "Print hello world." },
      ],
    };
    const r = await only("trajectory.json", pretty(trajectory));
    expect(r.prompt).toBeNull();
    expectTranscriptOnly(r, ["system", "user"], "Print hello world.");
  });
});
