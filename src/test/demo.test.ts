/**
 * Covers: scripts/generate-demo.ts, the demo dataset. It is deterministic, has the promised shape
 * (groups, sizes, mixed / all-pass / all-fail), its planted hacks are really in the transcripts and
 * really pass, the studio's loader reads it as native JSONL without issues, and n-gram clusters form.
 * It lives here because the node test project only collects src/{core,io,cli,test}.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { DEMO_SEED, HACK_KINDS, generateDemo } from "../../scripts/generate-demo.ts";
import { analyzeDataset, type Rollout, type RolloutGroup } from "../core/index.ts";
import { loadText, type LoadResult } from "../io/index.ts";

const ROOT = join(import.meta.dirname, "../..");
const ORDER_ID = /\bW\d{7}\b/g;

const finalAnswer = (r: Rollout): string => {
  const last = r.messages[r.messages.length - 1];
  return last?.role === "assistant" ? last.content : "";
};
const toolResults = (r: Rollout): string =>
  r.messages
    .filter((m) => m.role === "tool")
    .map((m) => m.content)
    .join("\n");
const promptText = (r: Rollout): string =>
  typeof r.prompt === "string" ? r.prompt : (r.prompt ?? []).map((m) => m.content).join("\n");
const calls = (r: Rollout, name: string) =>
  r.messages.flatMap((m) => m.toolCalls).filter((c) => c.name === name);
const callOrderIds = (r: Rollout, name: string): string[] =>
  calls(r, name).map((c) => /"order_id":"(W\d{7})"/.exec(c.arguments)?.[1] ?? "");
const hackOf = (r: Rollout): unknown => r.meta.planted_hack;
const toolNames = (r: Rollout): string[] =>
  r.messages.flatMap((m) => m.toolCalls).map((c) => c.name);

function groupKinds(groups: readonly RolloutGroup[]) {
  let mixed = 0;
  let allPass = 0;
  let allFail = 0;
  for (const g of groups) {
    const passes = g.rollouts.filter((r) => r.reward === 1).length;
    if (passes === g.rollouts.length) allPass++;
    else if (passes === 0) allFail++;
    else mixed++;
  }
  return { mixed, allPass, allFail };
}

function keysOf(value: unknown): string[] {
  return typeof value === "object" && value !== null ? Object.keys(value) : [];
}

describe("demo dataset (scripts/generate-demo.ts)", () => {
  let text: string;
  let loaded: LoadResult;
  let rollouts: Rollout[];

  beforeAll(async () => {
    text = generateDemo();
    loaded = await loadText("demo.jsonl", text);
    rollouts = loaded.groups.flatMap((g) => [...g.rollouts]);
  });

  it("is deterministic: the same seed gives the same bytes, another seed other bytes", () => {
    expect(generateDemo()).toBe(text);
    expect(generateDemo(DEMO_SEED)).toBe(text);
    expect(generateDemo(DEMO_SEED + 1)).not.toBe(text);
  });

  it("is native JSONL with a fixed key order, read by the loader without issues", () => {
    const lines = text.split("\n");
    expect(lines.pop()).toBe("");
    for (const line of lines) {
      expect(keysOf(JSON.parse(line))).toEqual([
        "group_id",
        "id",
        "prompt",
        "messages",
        "reward",
        "rewards",
        "meta",
      ]);
    }
    expect(loaded.format).toBe("native");
    expect(loaded.issues).toEqual([]);
    expect(loaded.stats.rollouts).toBe(lines.length);
    expect(loaded.stats.rejected).toBe(0);
  });

  it("has 30-60 groups of 4-8 tool-using rollouts, with system + user prompts", () => {
    expect(loaded.groups.length).toBeGreaterThanOrEqual(30);
    expect(loaded.groups.length).toBeLessThanOrEqual(60);
    for (const g of loaded.groups) {
      expect(g.rollouts.length).toBeGreaterThanOrEqual(4);
      expect(g.rollouts.length).toBeLessThanOrEqual(8);
    }
    for (const r of rollouts) {
      const prompt = typeof r.prompt === "string" || r.prompt === null ? [] : r.prompt;
      expect(prompt.map((m) => m.role)).toEqual(["system", "user"]);
      expect([0, 1]).toContain(r.reward);
      expect(r.reward).toBe((r.rewards.resolved ?? 0) * (r.rewards.policy ?? 0));
      expect(finalAnswer(r)).not.toBe("");
      // Every tool call is answered by a tool message with its id and name.
      const results = new Map(
        r.messages.filter((m) => m.role === "tool").map((m) => [m.toolCallId, m.name]),
      );
      for (const c of r.messages.flatMap((m) => m.toolCalls)) {
        expect(c.id).toMatch(/^call_/);
        expect(results.get(c.id)).toBe(c.name);
      }
    }
    const scenarios = new Set(rollouts.map((r) => r.meta.scenario));
    expect([...scenarios].sort()).toEqual([
      "address_change",
      "cancellation",
      "order_status",
      "refund",
    ]);
    const lengths = rollouts.map((r) => r.messages.flatMap((m) => m.toolCalls).length);
    expect(Math.min(...lengths)).toBeLessThanOrEqual(1);
    expect(Math.max(...lengths)).toBeGreaterThanOrEqual(6);
  });

  it("has mixed, all-pass and all-fail groups", () => {
    const kinds = groupKinds(loaded.groups);
    expect(kinds.mixed).toBeGreaterThanOrEqual(5);
    expect(kinds.allPass).toBeGreaterThanOrEqual(3);
    expect(kinds.allFail).toBeGreaterThanOrEqual(3);
  });

  it("plants every hack kind at least twice, each one a pass", () => {
    for (const kind of HACK_KINDS) {
      const hacked = rollouts.filter((r) => hackOf(r) === kind);
      expect(hacked.length, kind).toBeGreaterThanOrEqual(2);
      for (const r of hacked) expect(r.reward, r.id).toBe(1);
    }
    for (const r of rollouts) expect([null, ...HACK_KINDS]).toContain(hackOf(r));
  });

  it("invented ids: the final answer names an order id no tool result (or the customer) gave", () => {
    for (const r of rollouts) {
      const seen = `${promptText(r)}\n${toolResults(r)}`;
      const unseen = (finalAnswer(r).match(ORDER_ID) ?? []).filter((id) => !seen.includes(id));
      if (hackOf(r) === "invented_id") {
        expect(unseen.length, r.id).toBeGreaterThan(0);
        for (const id of unseen) expect(toolResults(r), r.id).not.toContain(id);
      } else {
        expect(unseen, r.id).toEqual([]);
      }
    }
  });

  it("double refunds call refund_order twice for one order; nothing else does", () => {
    for (const r of rollouts) {
      const ids = callOrderIds(r, "refund_order");
      const repeated = ids.length !== new Set(ids).size;
      expect(repeated, r.id).toBe(hackOf(r) === "double_refund");
    }
  });

  it("skipped policy checks refund without check_refund_policy; other passes check first", () => {
    for (const r of rollouts) {
      const names = toolNames(r);
      const refund = names.indexOf("refund_order");
      if (hackOf(r) === "skipped_policy") {
        expect(refund, r.id).toBeGreaterThanOrEqual(0);
        expect(names, r.id).not.toContain("check_refund_policy");
      } else if (r.reward === 1 && refund >= 0) {
        expect(names.indexOf("check_refund_policy"), r.id).toBeGreaterThanOrEqual(0);
        expect(names.indexOf("check_refund_policy"), r.id).toBeLessThan(refund);
      }
    }
  });

  it("swallowed errors: send_email failed, the answer still says a confirmation was sent", () => {
    for (const r of rollouts.filter((x) => hackOf(x) === "swallowed_error")) {
      const email = r.messages.filter((m) => m.role === "tool" && m.name === "send_email");
      expect(email.length, r.id).toBe(1);
      expect(email[0]?.content, r.id).toContain('"error"');
      expect(finalAnswer(r), r.id).toMatch(/confirmation/i);
      expect(finalAnswer(r), r.id).not.toMatch(/wasn't able to send/);
    }
  });

  it("forms n-gram clusters: some groups have fewer clusters than rollouts, some several", () => {
    const analysis = analyzeDataset(loaded.groups);
    const clustered = analysis.groups.filter((g) => g.nClusters < g.n).length;
    const diverse = analysis.groups.filter((g) => g.nClusters > 1).length;
    expect(clustered).toBeGreaterThanOrEqual(5);
    expect(diverse).toBeGreaterThanOrEqual(5);
    expect(analysis.summary.mixedGroups).toBeGreaterThanOrEqual(5);
  });

  it("the CLI writes the same bytes (creating folders) and prints one summary line", () => {
    const out = join(mkdtempSync(join(tmpdir(), "demo-")), "nested", "demo.jsonl");
    const run = spawnSync(
      process.execPath,
      ["--import", "tsx", join(ROOT, "scripts/generate-demo.ts"), out],
      { cwd: ROOT, encoding: "utf8" },
    );
    expect(run.status, run.stderr).toBe(0);
    expect(readFileSync(out, "utf8")).toBe(text);
    const lines = run.stderr.trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(`${loaded.groups.length} groups, ${rollouts.length} rollouts`);
    expect(lines[0]).toContain(`${Buffer.byteLength(text)} bytes`);
  });
});

describe("demo dataset with other seeds", () => {
  it.each([1, 2, 3, 4, 5, 6, 7, 8])("keeps its guarantees with seed %i", async (seed) => {
    const other = await loadText("demo.jsonl", generateDemo(seed));
    expect(other.issues).toEqual([]);
    expect(other.groups.length).toBeGreaterThanOrEqual(30);
    expect(other.groups.length).toBeLessThanOrEqual(60);
    const kinds = groupKinds(other.groups);
    expect(kinds.mixed).toBeGreaterThanOrEqual(5);
    expect(kinds.allPass).toBeGreaterThanOrEqual(3);
    expect(kinds.allFail).toBeGreaterThanOrEqual(3);
    const all = other.groups.flatMap((g) => g.rollouts);
    for (const kind of HACK_KINDS)
      expect(all.filter((r) => hackOf(r) === kind && r.reward === 1).length).toBeGreaterThan(1);
  });
});
