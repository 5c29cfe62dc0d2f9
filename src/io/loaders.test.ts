/**
 * Covers: format detection, the native and tau-bench loaders, line-numbered issues, and the rule
 * that every input line is accounted for (a rollout, an issue, or a blank line).
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { ChatMessage } from "../core/index.ts";
import { LoadError, loadBytes, loadText, type LoadResult } from "./index.ts";

const FIXTURES = join(import.meta.dirname, "__fixtures__");
const TAU = join(import.meta.dirname, "../../../shared/data/tau-bench/gpt-4o-airline.json");

/** The part of a load result a fixture pins down. */
function summarise(r: LoadResult) {
  return {
    format: r.format,
    groupKey: r.groupKey,
    stats: r.stats,
    groups: r.groups.map((g) => ({
      id: g.id,
      rollouts: g.rollouts.map((x) => ({
        id: x.id,
        index: x.index,
        line: x.source.line,
        reward: x.reward,
        rewards: x.rewards,
        completion: x.completion,
        answer: x.answer,
        testsPassed: x.testsPassed,
        messages: x.messages.map((m) => ({
          role: m.role,
          content: m.content,
          toolCalls: m.toolCalls,
          toolCallId: m.toolCallId,
        })),
        meta: x.meta,
      })),
    })),
    // The JSON.parse detail comes from V8 and varies between Node versions; pin only our wording.
    issues: r.issues.map((i) => ({
      ...i,
      message: i.message.replace(/^not valid JSON \(.*?\):/, "not valid JSON (…):"),
    })),
  };
}

function cases(format: string): string[] {
  return readdirSync(join(FIXTURES, format)).filter(
    (f) => f.endsWith(".jsonl") || (f.endsWith(".json") && !f.endsWith(".expected.json")),
  );
}

describe.each(["native"])("%s fixtures", (format) => {
  const files = cases(format);
  it("the suite is complete: every case has an expected file", () => {
    expect(files.length).toBeGreaterThanOrEqual(3);
    for (const f of files)
      expect(
        existsSync(join(FIXTURES, format, `${f.replace(/\.jsonl?$/, "")}.expected.json`)),
        f,
      ).toBe(true);
  });
  it.each(files)("%s", async (name) => {
    const text = readFileSync(join(FIXTURES, format, name), "utf8");
    const actual = summarise(await loadText(name, text));
    const expectedPath = join(FIXTURES, format, `${name.replace(/\.jsonl?$/, "")}.expected.json`);
    if (process.env.UPDATE_FIXTURES === "1")
      writeFileSync(expectedPath, `${JSON.stringify(actual, null, 2)}\n`);
    expect(actual).toEqual(JSON.parse(readFileSync(expectedPath, "utf8")));
    // Loading is deterministic.
    expect(summarise(await loadText(name, text))).toEqual(actual);
  });
});

describe("every input line is accounted for", () => {
  it.each(cases("native"))("%s: rollouts + rejected + blank = lines", async (name) => {
    const r = await loadText(name, readFileSync(join(FIXTURES, "native", name), "utf8"));
    expect(r.stats.rollouts + r.stats.rejected + r.stats.blank).toBe(r.stats.lines);
    const linesWithIssues = new Set(r.issues.map((i) => i.line));
    expect(linesWithIssues.size).toBe(r.stats.rejected);
  });
});

describe("malformed native input", async () => {
  const r = await loadText(
    "malformed.jsonl",
    readFileSync(join(FIXTURES, "native", "malformed.jsonl"), "utf8"),
  );
  const at = (line: number) => r.issues.filter((i) => i.line === line);
  it("keeps the good rows", () => {
    expect(r.groups.flatMap((g) => g.rollouts.map((x) => x.id))).toEqual(["r0", "r6"]);
  });
  it("names the line and field of each problem", () => {
    expect(at(3)).toEqual([
      expect.objectContaining({ field: "reward", message: 'expected a finite number, got "high"' }),
    ]);
    expect(at(4)[0]!.message).toMatch(/^not valid JSON/);
    expect(at(5)).toEqual([expect.objectContaining({ field: "group_id" })]);
    expect(at(6)).toEqual([
      expect.objectContaining({
        field: "rewards.a",
        message: 'expected a finite number, got "NaN"',
      }),
    ]);
    expect(at(7)).toEqual([
      expect.objectContaining({
        field: "id",
        message: expect.stringContaining('duplicate rollout id "r0" (first at line 1)') as string,
      }),
    ]);
    expect(at(8)[0]!.message).toMatch(/expected object/);
    expect(at(9)).toEqual([expect.objectContaining({ field: "completion" })]);
    expect(r.issues.every((i) => i.file === "malformed.jsonl")).toBe(true);
  });
});

describe("detection", () => {
  it("rejects an empty file and a file in no known format", async () => {
    await expect(loadText("e.jsonl", "  \n")).rejects.toThrow(LoadError);
    await expect(loadText("e.jsonl", "  \n")).rejects.toThrow("e.jsonl: the file is empty");
    await expect(loadText("x.jsonl", '{"foo": 1}\n{"bar": 2}\n')).rejects.toThrow(
      /x\.jsonl: is in no known format/,
    );
    await expect(loadText("x.json", '[{"a": 1}]')).rejects.toThrow(/no known format/);
  });
  it("rejects a binary file", async () => {
    await expect(loadBytes("x.bin", Uint8Array.of(1, 2, 0, 3))).rejects.toThrow(/binary file/);
  });
  it("detects by content, not by name", async () => {
    const r = await loadText("weird-name.txt", '{"group_id": 1, "completion": "x", "reward": 1}');
    expect(r.format).toBe("native");
    expect(r.candidates[0]).toMatchObject({ id: "native" });
  });
  it("a forced format that does not fit the container is an error", async () => {
    await expect(loadText("x.jsonl", '{"group_id": 1}', { format: "tau-bench" })).rejects.toThrow(
      /is read from json-array/,
    );
  });
});

describe("tau-bench (real data, ../shared/data)", async () => {
  const r = await loadText("gpt-4o-airline.json", readFileSync(TAU, "utf8"));
  it("loads 200 rollouts in 50 groups with no issue", () => {
    expect(r.format).toBe("tau-bench");
    expect(r.issues).toEqual([]);
    expect(r.stats).toMatchObject({ records: 200, rollouts: 200, rejected: 0 });
    expect(r.groups).toHaveLength(50);
    expect(r.groups.every((g) => g.rollouts.length === 4)).toBe(true);
  });
  it("groups by task_id with trials in order and keeps the transcript", () => {
    const g1 = r.groups.find((g) => g.id === "1")!;
    expect(g1.rollouts.map((x) => [x.id, x.reward])).toEqual([
      ["1/0", 0],
      ["1/1", 1],
      ["1/2", 0],
      ["1/3", 0],
    ]);
    const counts = g1.rollouts.map((x) => (x.prompt as unknown[]).length + x.messages.length);
    expect(counts).toEqual([12, 22, 20, 16]);
    expect(g1.rollouts.map((x) => x.messages.reduce((s, m) => s + m.toolCalls.length, 0))).toEqual([
      0, 5, 1, 0,
    ]);
    expect(g1.rollouts[0]!.meta).toHaveProperty("info.task.user_id");
  });
  it("message roles and tool calls add up to methods.md 4.5", () => {
    const roles: Record<string, number> = {};
    let calls = 0;
    for (const g of r.groups)
      for (const x of g.rollouts)
        for (const m of [...(x.prompt as readonly ChatMessage[]), ...x.messages]) {
          roles[m.role] = (roles[m.role] ?? 0) + 1;
          calls += m.toolCalls.length;
        }
    expect(roles).toEqual({ assistant: 2454, user: 1490, tool: 1164, system: 200 });
    expect(calls / 200).toBeCloseTo(5.8, 1);
  });
  it("reports a truncated array and keeps the elements before it", async () => {
    const text = readFileSync(TAU, "utf8");
    const cut = text.slice(0, Math.floor(text.length / 2));
    const t = await loadText("cut.json", cut);
    expect(t.stats.rollouts).toBeGreaterThan(10);
    expect(t.issues.some((i) => /not closed/.test(i.message))).toBe(true);
    expect(t.stats.rollouts + t.stats.rejected).toBe(t.stats.records);
  });
  it("a bad record names its line and field", async () => {
    const t = await loadText(
      "bad.json",
      '[\n{"task_id": 1, "trial": 0, "reward": 1, "traj": []},\n{"task_id": 1, "trial": 1, "reward": "x", "traj": []}\n]',
    );
    expect(t.issues).toEqual([
      expect.objectContaining({ file: "bad.json", line: 3, field: "reward" }),
    ]);
    expect(t.stats).toMatchObject({ records: 2, rollouts: 1, rejected: 1 });
  });
});
