/**
 * Issue 15's chat formats on real files (../shared/data: verifiers `vf-eval` results, NeMo Gym
 * rollouts) and on the Atropos fixture: each loads with the groups, rollouts and rewards the file
 * holds, counted here from the raw JSON, with its messages and tool calls; detection takes each for
 * its own format, with no other format as strong, and takes TRL's table for TRL still.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { jsonlRows, type JsonRow } from "../../test/jsonlRows.ts";
import { describe, expect, it } from "vitest";
import { loadBytes, type LoadResult } from "./load.ts";
import { runHeaderFromBytes, runHeaderNamesBeside } from "../runs/runHeader.ts";

const SHARED = join(import.meta.dirname, "../../../../shared/data");
const FIXTURES = join(import.meta.dirname, "../__fixtures__");

type Row = JsonRow;
const rows = jsonlRows;

const load = (path: string): Promise<LoadResult> =>
  loadBytes(path.split("/").pop()!, readFileSync(path));

/** The best candidate is the format, and no other format scores as high. */
function expectDetected(r: LoadResult, format: string): void {
  expect(r.format).toBe(format);
  expect(r.candidates[0]!.id).toBe(format);
  for (const other of r.candidates.slice(1))
    expect(other.score, other.id).toBeLessThan(r.candidates[0]!.score);
}

/** Rollouts by group id, each group's rewards in order, from the loaded result. */
const loadedRewards = (r: LoadResult): Record<string, (number | null)[]> =>
  Object.fromEntries(r.groups.map((g) => [g.id, g.rollouts.map((x) => x.reward)]));

const VERIFIERS = ["wordle-gpt-5-mini", "wiki-search-gpt-4.1-mini"].map((name) => ({
  name,
  results: join(SHARED, `verifiers/${name}.results.jsonl`),
  metadata: join(SHARED, `verifiers/${name}.metadata.json`),
}));

describe.runIf(VERIFIERS.every((v) => existsSync(v.results)))("verifiers, real files", () => {
  it.each(VERIFIERS)("$name: every example is a group, every row a rollout", async (v) => {
    const raw = rows(v.results);
    const r = await load(v.results);
    expectDetected(r, "verifiers");
    expect(r.issues).toEqual([]);
    const expected: Record<string, number[]> = {};
    for (const row of raw) (expected[String(row.example_id)] ??= []).push(row.reward as number);
    expect(loadedRewards(r)).toEqual(expected);
    expect(r.stats).toMatchObject({ records: raw.length, rollouts: raw.length, rejected: 0 });

    // The metadata's counts agree with the file's: num_examples groups of rollouts_per_example.
    const meta = JSON.parse(readFileSync(v.metadata, "utf8")) as Row;
    expect(r.groups).toHaveLength(meta.num_examples as number);
    for (const g of r.groups) expect(g.rollouts).toHaveLength(meta.rollouts_per_example as number);

    // Messages: the prompt and the completion as written, roles and text, in order.
    raw.forEach((row, i) => {
      const rollout = r.groups.flatMap((g) => g.rollouts).find((x) => x.source.line === i + 1)!;
      const prompt = row.prompt as Row[];
      const completion = row.completion as Row[];
      expect((rollout.prompt as readonly { role: string }[]).map((m) => m.role)).toEqual(
        prompt.map((m) => m.role),
      );
      expect(rollout.messages.map((m) => [m.role, m.content])).toEqual(
        completion.map((m) => [m.role, m.content ?? ""]),
      );
      // Reward components: every numeric column but the known ones.
      const components = Object.entries(row).filter(
        ([k, x]) =>
          typeof x === "number" &&
          !["example_id", "reward", "generation_ms", "scoring_ms", "total_ms"].includes(k),
      );
      expect(rollout.rewards).toEqual(Object.fromEntries(components));
      expect(rollout.meta.answer).toBe(row.answer);
    });
  });

  it("wiki-search: every JSON-text tool call survives with its name, id and arguments", async () => {
    const v = VERIFIERS[1]!;
    const raw = rows(v.results);
    const r = await load(v.results);
    const written = raw.flatMap((row) =>
      (row.completion as Row[]).flatMap((m) =>
        ((m.tool_calls as string[] | undefined) ?? []).map((t) => {
          const call = JSON.parse(t) as {
            id: string;
            function: { name: string; arguments: string };
          };
          return { id: call.id, name: call.function.name, arguments: call.function.arguments };
        }),
      ),
    );
    const read = r.groups.flatMap((g) =>
      g.rollouts.flatMap((x) => x.messages.flatMap((m) => m.toolCalls)),
    );
    expect(written.length).toBeGreaterThan(0);
    expect(read).toEqual(written);
    // Each tool result answers the call before it.
    const results = r.groups.flatMap((g) =>
      g.rollouts.flatMap((x) => x.messages.filter((m) => m.role === "tool")),
    );
    expect(results.length).toBe(
      raw.flatMap((row) => (row.completion as Row[]).filter((m) => m.role === "tool")).length,
    );
  });

  it.each(VERIFIERS)("$name: the metadata.json beside it is the run's header", (v) => {
    const meta = JSON.parse(readFileSync(v.metadata, "utf8")) as Row;
    const header = runHeaderFromBytes("metadata.json", readFileSync(v.metadata));
    expect(header?.title).toBe(
      `${String(meta.env_id)} · ${String(meta.model)} · ${String(meta.num_examples)} examples x ${String(meta.rollouts_per_example)}`,
    );
    expect(header?.fields).toEqual(meta);
    expect(runHeaderNamesBeside(`${v.name}.results.jsonl`, "verifiers")).toEqual([
      `${v.name}.metadata.json`,
      "metadata.json",
    ]);
    // A results file is no header, and a header no rollout file.
    expect(runHeaderFromBytes("r.jsonl", readFileSync(v.results))).toBeNull();
  });

  it("a TRL table stays TRL; a verifiers row with TRL's advantage is not verifiers' 3", async () => {
    for (const name of ["completions-jsonl.jsonl", "v016-steps.jsonl"]) {
      const r = await load(join(FIXTURES, "trl", name));
      expect(r.format).toBe("trl");
      expect(r.candidates.find((c) => c.id === "verifiers")).toBeUndefined();
    }
  });
});

const NEMO = [
  "resources_servers_blackjack.example_rollouts.jsonl",
  "resources_servers_workplace_assistant.example_rollouts.jsonl",
].map((name) => join(SHARED, "nemo-gym", name));

describe.runIf(NEMO.every((p) => existsSync(p)))("NeMo Gym, real files", () => {
  it.each(NEMO)("%s: groups by task index, else by equal prompts", async (path) => {
    const raw = rows(path);
    const r = await load(path);
    expectDetected(r, "nemo-gym");
    expect(r.issues).toEqual([]);
    expect(r.stats).toMatchObject({ records: raw.length, rollouts: raw.length, rejected: 0 });
    // Groups from the raw rows: the task index, else the prompt's JSON.
    const keyOf = (row: Row): string =>
      row._ng_task_index !== undefined
        ? `task ${JSON.stringify(row._ng_task_index)}`
        : JSON.stringify((row.responses_create_params as Row).input);
    const expected = new Map<string, Row[]>();
    for (const row of raw) expected.set(keyOf(row), [...(expected.get(keyOf(row)) ?? []), row]);
    const order = (row: Row): number => (row._ng_rollout_index as number | undefined) ?? 0;
    expect(r.groups.map((g) => g.rollouts.map((x) => x.reward))).toEqual(
      [...expected.values()].map((g) =>
        [...g].sort((a, b) => order(a) - order(b)).map((row) => row.reward),
      ),
    );
  });

  it.each(NEMO)("%s: every output item is in the transcript, calls with results", async (path) => {
    const raw = rows(path);
    const r = await load(path);
    const all = r.groups.flatMap((g) => g.rollouts);
    for (const row of raw) {
      const output = (row.response as { output: Row[] }).output;
      const rollout = all.find(
        (x) =>
          x.meta.response !== undefined && (x.meta.response as Row).id === (row.response as Row).id,
      )!;
      const calls = output.filter((o) => o.type === "function_call");
      expect(rollout.messages.flatMap((m) => m.toolCalls)).toEqual(
        calls.map((c) => ({ id: c.call_id, name: c.name, arguments: c.arguments })),
      );
      const results = output.filter((o) => o.type === "function_call_output");
      expect(
        rollout.messages.filter((m) => m.role === "tool").map((m) => [m.toolCallId, m.content]),
      ).toEqual(results.map((o) => [o.call_id, o.output]));
      const texts = output
        .filter((o) => o.type === "message")
        .map((o) =>
          typeof o.content === "string"
            ? o.content
            : (o.content as { text: string }[]).map((p) => p.text).join("\n"),
        );
      expect(
        rollout.messages.filter((m) => m.role !== "tool" && m.content !== "").map((m) => m.content),
      ).toEqual(texts);
    }
  });
});

describe("Atropos groups (fixture)", () => {
  const path = join(FIXTURES, "atropos/groups.jsonl");
  it("one group per line, one rollout per score, tokens and masks kept per rollout", async () => {
    const raw = rows(path);
    const r = await load(path);
    expectDetected(r, "atropos");
    expect(r.groups.map((g) => g.rollouts.map((x) => x.reward))).toEqual(raw.map((g) => g.scores));
    const n = raw.reduce((s, g) => s + (g.scores as unknown[]).length, 0);
    expect(r.stats).toMatchObject({ lines: raw.length, records: n, rollouts: n, rejected: 0 });
    r.groups.forEach((g, i) =>
      g.rollouts.forEach((x, j) => {
        expect(x.meta.tokens).toEqual((raw[i]!.tokens as unknown[])[j]);
        expect(x.meta.masks).toEqual((raw[i]!.masks as unknown[])[j]);
      }),
    );
    const calls = r.groups[1]!.rollouts.map((x) => x.messages.flatMap((m) => m.toolCalls));
    expect(calls).toEqual([
      [{ id: "call_0", name: "get_stock", arguments: '{"symbol": "NVDA"}' }],
      [{ id: "call_1", name: "get_stock", arguments: '{"symbol":"NVIDIA"}' }],
    ]);
  });
});
