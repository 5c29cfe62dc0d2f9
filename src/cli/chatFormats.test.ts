/**
 * The CLI on issue 15's chat formats: `analyze --json --messages` shows each rollout's transcript
 * as read (tool calls with parsed arguments, tool results), and a verifiers run's `metadata.json`
 * is the run's header in the text and JSON outputs, beside one file or in a folder.
 */
import { copyFileSync, existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../test/cliRun.ts";
import { jsonlRows } from "../test/jsonlRows.ts";

const ROOT = join(import.meta.dirname, "../..");
const DATA = join(ROOT, "../shared/data/verifiers");
const WIKI = join(DATA, "wiki-search-gpt-4.1-mini.results.jsonl");
const WORDLE = join(DATA, "wordle-gpt-5-mini.results.jsonl");

const run = (args: string[]) => runCli(args, ROOT);

interface Message {
  role: string;
  text: string;
  toolCalls?: { id: string | null; name: string; arguments: unknown }[];
  toolCallId?: string;
}
interface Out {
  format: string;
  runMetadata?: { file: string; title: string; fields: Record<string, unknown> };
  summary: { rollouts: number; groups: number };
  groups: {
    id: string;
    rollouts: {
      id: string;
      reward: number;
      transcript?: {
        prompt: Message[] | string | null;
        messages: Message[];
        completion: string | null;
      };
    }[];
  }[];
}

type Row = { example_id: number; completion: { role: string; tool_calls?: string[] }[] };
const rows = (path: string): Row[] => jsonlRows(path) as unknown as Row[];

describe.runIf(existsSync(WIKI) && existsSync(WORDLE))("analyze on verifiers results", () => {
  it("--json --messages: every tool call with its arguments parsed, and its result", async () => {
    const { code, stdout } = await run(["analyze", WIKI, "--json", "--messages"]);
    expect(code).toBe(0);
    const out = JSON.parse(stdout) as Out;
    expect(out.format).toBe("verifiers");
    const raw = rows(WIKI);
    const rollouts = out.groups.flatMap((g) => g.rollouts);
    expect(rollouts).toHaveLength(raw.length);
    for (const row of raw) {
      const r = rollouts.find((x) => x.id === `${row.example_id}/0`)!;
      const written = row.completion.flatMap((m) =>
        (m.tool_calls ?? []).map((t) => {
          const call = JSON.parse(t) as {
            id: string;
            function: { name: string; arguments: string };
          };
          return {
            id: call.id,
            name: call.function.name,
            arguments: JSON.parse(call.function.arguments) as unknown,
          };
        }),
      );
      const read = r.transcript!.messages.flatMap((m) => m.toolCalls ?? []);
      expect(read).toEqual(written);
      // Each result answers the call before it (the file lost tool_call_id; a rollout cut off at
      // its turn limit leaves its last call unanswered).
      const results = r.transcript!.messages.filter((m) => m.role === "tool");
      expect(results.length).toBe(row.completion.filter((m) => m.role === "tool").length);
      expect(results.map((m) => m.toolCallId)).toEqual(
        written.slice(0, results.length).map((c) => c.id),
      );
      expect(r.transcript!.messages.map((m) => m.role)).toEqual(row.completion.map((m) => m.role));
      expect(Array.isArray(r.transcript!.prompt)).toBe(true);
    }
    expect(rollouts.flatMap((r) => r.transcript!.messages).some((m) => m.toolCalls)).toBe(true);
  });

  it("--json without --messages has no transcripts; --messages alone is a usage error", async () => {
    const plain = JSON.parse((await run(["analyze", WIKI, "--json"])).stdout) as Out;
    expect(plain.groups[0]!.rollouts[0]!.transcript).toBeUndefined();
    const bad = await run(["analyze", WIKI, "--messages"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--messages adds the transcripts to the --json document/);
  });

  it("the metadata.json beside one results file is the run's header", async () => {
    const meta = JSON.parse(
      readFileSync(join(DATA, "wordle-gpt-5-mini.metadata.json"), "utf8"),
    ) as Record<string, unknown>;
    const text = await run(["analyze", WORDLE]);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain(
      `run header (${join(DATA, "wordle-gpt-5-mini.metadata.json")}): wordle · gpt-5-mini · 5 examples x 3`,
    );
    expect(text.stdout).toContain(`sampling_args: ${JSON.stringify(meta.sampling_args)}`);
    const json = JSON.parse((await run(["analyze", WORDLE, "--json"])).stdout) as Out;
    expect(json.runMetadata?.title).toBe("wordle · gpt-5-mini · 5 examples x 3");
    expect(json.runMetadata?.fields).toEqual(meta);
    expect(json.summary).toMatchObject({ rollouts: 15, groups: 5 });
  });

  it("a vf-eval output folder (results.jsonl + metadata.json) is one run with its header", async () => {
    const dir = mkdtempSync(join(tmpdir(), "vf-eval-"));
    copyFileSync(WORDLE, join(dir, "results.jsonl"));
    copyFileSync(join(DATA, "wordle-gpt-5-mini.metadata.json"), join(dir, "metadata.json"));
    const { code, stdout, stderr } = await run(["analyze", dir, "--json"]);
    expect(stderr).toBe("");
    expect(code).toBe(0);
    const out = JSON.parse(stdout) as Out;
    expect(out.runMetadata).toMatchObject({
      file: `${dir}/metadata.json`,
      title: "wordle · gpt-5-mini · 5 examples x 3",
    });
    // The file's own ids: the header file is no file of rollouts.
    expect(out.groups.map((g) => g.id)).toEqual(["0", "1", "2", "3", "4"]);
    // Without the header, the same folder loads the same groups, with no header.
    const alone = mkdtempSync(join(tmpdir(), "vf-eval-"));
    copyFileSync(WORDLE, join(alone, "results.jsonl"));
    const bare = JSON.parse((await run(["analyze", alone, "--json"])).stdout) as Out;
    expect(bare.runMetadata).toBeUndefined();
    expect(bare.summary).toEqual(out.summary);
  });
});
