/**
 * Covers: format detection, every format's golden fixtures (one folder per format under
 * __fixtures__, see its README), line-numbered issues, the rule that every input record is accounted
 * for (a rollout, an issue, or a blank line), and the real data in ../shared/data (tau-bench,
 * Inspect).
 */
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { ChatMessage } from "../core/index.ts";
import {
  FORMATS,
  LoadError,
  loadBytes,
  loadText,
  type LoadOptions,
  type LoadResult,
} from "./index.ts";

const FIXTURES = join(import.meta.dirname, "__fixtures__");
const TAU = join(import.meta.dirname, "../../../shared/data/tau-bench/gpt-4o-airline.json");

/**
 * The JSON.parse detail comes from V8 and varies between Node versions; pin only our wording:
 * "not valid JSON (…): preview" for a line, "not valid JSON[ text] (…)" for a member or a field.
 */
function withoutV8Detail(message: string): string {
  if (/^not valid JSON \(.*?\):/.test(message))
    return message.replace(/^not valid JSON \(.*?\):/, "not valid JSON (…):");
  return message.replace(/not valid JSON( text)? \(.*\)$/, "not valid JSON$1 (…)");
}

/**
 * The part of a load result a fixture pins down. `detail` adds the prompt, the record's member and
 * each message's name and error flag; native's goldens predate it and keep the shorter form.
 */
function summarise(r: LoadResult, detail: boolean) {
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
        ...(detail && x.source.member !== undefined ? { member: x.source.member } : {}),
        ...(detail ? { prompt: x.prompt } : {}),
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
          ...(detail ? { name: m.name, ...(m.error ? { error: true } : {}) } : {}),
        })),
        meta: x.meta,
      })),
    })),
    issues: r.issues.map((i) => ({ ...i, message: withoutV8Detail(i.message) })),
  };
}

const CASE = /\.(jsonl|json|csv|parquet|traj)$/;

/** The cases in a format's folder: record files, not their expected or options companions. */
function cases(format: string): string[] {
  return readdirSync(join(FIXTURES, format)).filter(
    (f) => CASE.test(f) && !f.endsWith(".expected.json") && !f.endsWith(".options.json"),
  );
}

const companion = (format: string, name: string, suffix: string) =>
  join(FIXTURES, format, `${name.replace(CASE, "")}${suffix}`);

/** A case's load options, from `<case>.options.json` when the case needs a format or a mapping. */
function caseOptions(format: string, name: string): LoadOptions {
  const path = companion(format, name, ".options.json");
  return existsSync(path) ? (JSON.parse(readFileSync(path, "utf8")) as LoadOptions) : {};
}

async function loadCase(format: string, name: string): Promise<LoadResult> {
  return loadBytes(name, readFileSync(join(FIXTURES, format, name)), caseOptions(format, name));
}

const FOLDERS = readdirSync(FIXTURES).filter((f) => statSync(join(FIXTURES, f)).isDirectory());

describe("fixture folders", () => {
  it("every folder is a registered format, and every format but tau-bench has one", () => {
    const ids = FORMATS.map((f) => f.id);
    for (const folder of FOLDERS) expect(ids, folder).toContain(folder);
    // tau-bench is tested on the real file in ../shared/data instead (below).
    expect([...FOLDERS].sort()).toEqual(ids.filter((id) => id !== "tau-bench").sort());
  });
});

describe.each(FOLDERS)("%s fixtures", (format) => {
  const files = cases(format);
  const detail = format !== "native";
  // Skipped while regenerating: the cases below write the missing files.
  it.skipIf(process.env.UPDATE_FIXTURES === "1")(
    "the suite is complete: every case has an expected file",
    () => {
      expect(files.length).toBeGreaterThanOrEqual(format === "native" ? 3 : 2);
      for (const f of files)
        expect(existsSync(companion(format, f, ".expected.json")), f).toBe(true);
    },
  );
  it.each(files)("%s", async (name) => {
    const actual = summarise(await loadCase(format, name), detail);
    const expectedPath = companion(format, name, ".expected.json");
    if (process.env.UPDATE_FIXTURES === "1")
      writeFileSync(expectedPath, `${JSON.stringify(actual, null, 2)}\n`);
    expect(actual).toEqual(JSON.parse(readFileSync(expectedPath, "utf8")));
    // Loading is deterministic.
    expect(summarise(await loadCase(format, name), detail)).toEqual(actual);
    // The format was detected (or chosen) as the folder's.
    expect(actual.format).toBe(format);
  });
});

describe("every input record is accounted for", () => {
  const all = FOLDERS.flatMap((format) => cases(format).map((name) => [format, name] as const));
  it.each(all)(
    "%s/%s: rollouts + rejected = records, each rejection has an issue",
    async (format, name) => {
      const r = await loadCase(format, name);
      expect(r.stats.rollouts + r.stats.rejected).toBe(r.stats.records);
      if (r.container === "jsonl") {
        // A line split into its rollouts (Atropos groups) is several records, each at its member.
        const split = r.stats.split ?? 0;
        expect(r.stats.rollouts + r.stats.rejected + r.stats.blank - split).toBe(r.stats.lines);
        expect(new Set(r.issues.map((i) => `${i.line}:${i.member ?? ""}`)).size).toBe(
          r.stats.rejected,
        );
      } else if (r.container !== "parquet") {
        // One record per line (CSV) or per member/path (zip, JSON documents); parquet reports a
        // damaged row group once for all its rows.
        expect(new Set(r.issues.map((i) => `${i.line}:${i.member ?? ""}`)).size).toBe(
          r.stats.rejected,
        );
      }
      for (const i of r.issues) {
        expect(i.file).toBe(name);
        expect(i.line > 0 || i.member !== undefined, JSON.stringify(i)).toBe(true);
      }
    },
  );
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

const bytesOf = (format: string, name: string) => readFileSync(join(FIXTURES, format, name));
const plainGroups = (r: LoadResult) =>
  r.groups.map((g) => ({
    id: g.id,
    rollouts: g.rollouts.map((x) => ({
      id: x.id,
      prompt: x.prompt,
      completion: x.completion,
      rewards: x.rewards,
      step: x.meta.step,
      trainerAdvantage: x.meta.trainerAdvantage,
    })),
  }));

describe("TRL logged completions", () => {
  it("the same table as Parquet, JSONL and CSV loads to the same groups", async () => {
    const parquet = await loadBytes("c.parquet", bytesOf("trl", "completions_00040.parquet"));
    const jsonl = await loadBytes("c.jsonl", bytesOf("trl", "completions-jsonl.jsonl"));
    const csv = await loadBytes("c.csv", bytesOf("trl", "completions-csv.csv"));
    expect([parquet.container, jsonl.container, csv.container]).toEqual([
      "parquet",
      "jsonl",
      "csv",
    ]);
    expect(plainGroups(jsonl)).toEqual(plainGroups(parquet));
    expect(plainGroups(csv)).toEqual(plainGroups(parquet));
    // Three prompts of three completions; the shuffled math row rejoined its group.
    expect(parquet.groups.map((g) => g.rollouts.length)).toEqual([3, 3, 3]);
    expect(parquet.groups[0]!.rollouts.map((x) => x.source.member)).toEqual([
      "row 1",
      "row 4",
      "row 6",
    ]);
    // correctness_reward is NaN where it does not apply: a null component, not a 0.
    expect(parquet.groups[2]!.rollouts.map((x) => x.rewards.correctness_reward)).toEqual([
      null,
      null,
      null,
    ]);
  });

  it("reads Gzip Parquet with several row groups like the Snappy file", async () => {
    const snappy = await loadBytes("c.parquet", bytesOf("trl", "completions_00040.parquet"));
    const gzip = await loadBytes("g.parquet", bytesOf("trl", "codecs/gzip-row-groups.parquet"));
    expect(plainGroups(gzip)).toEqual(plainGroups(snappy));
    expect(gzip.stats).toMatchObject({ records: 9, rollouts: 9, rejected: 0 });
  });

  it("reads a ZSTD Parquet written by pyarrow like the Snappy file (every codec: parquetCodecs.test.ts)", async () => {
    const snappy = await loadBytes("c.parquet", bytesOf("trl", "completions_00040.parquet"));
    const zstd = await loadBytes("z.parquet", bytesOf("trl", "codecs/zstd.parquet"));
    expect(plainGroups(zstd)).toEqual(plainGroups(snappy));
  });

  it("refuses a truncated Parquet; a damaged row group costs only its rows", async () => {
    const whole = bytesOf("trl", "codecs/gzip-row-groups.parquet");
    await expect(loadBytes("cut.parquet", whole.subarray(0, whole.length - 100))).rejects.toThrow(
      /cut\.parquet: is not a readable Parquet file: its footer cannot be read/,
    );
    const { parquetMetadata } = await import("hyparquet");
    const meta = parquetMetadata(
      whole.buffer.slice(whole.byteOffset, whole.byteOffset + whole.length),
    );
    const start = Number(meta.row_groups[1]!.columns[1]!.meta_data!.data_page_offset);
    const damaged = Uint8Array.from(whole);
    damaged.fill(0xff, start, start + 40);
    const r = await loadBytes("damaged.parquet", damaged);
    expect(r.stats).toMatchObject({ records: 9, rollouts: 5, rejected: 4 });
    expect(r.issues).toEqual([
      expect.objectContaining({
        file: "damaged.parquet",
        member: "rows 5-8",
        message: expect.stringMatching(
          /^row group 2 could not be read, so its 4 row\(s\) are skipped/,
        ) as string,
      }),
    ]);
  });

  it("refuses a Parquet whose footer names a column its schema does not declare", async () => {
    // A damaged field name in the schema would otherwise leave that column's chunk read but never
    // used: its values silently lost, and a failure in it escaping as an unhandled rejection.
    const whole = bytesOf("trl", "completions_00040.parquet");
    const view = new DataView(whole.buffer, whole.byteOffset, whole.length);
    const footer = whole.length - 8 - view.getUint32(whole.length - 8, true);
    const name = new TextEncoder().encode("format_reward");
    let at = footer;
    while (!name.every((b, k) => whole[at + k] === b)) at += 1;
    const damaged = Uint8Array.from(whole);
    damaged[at + 5] = "X".charCodeAt(0);
    await expect(loadBytes("renamed.parquet", damaged)).rejects.toThrow(
      /renamed\.parquet: is not a readable Parquet file: its footer is corrupt \(row group 1 has a column "format_reward" that its schema does not declare\)/,
    );
  });

  it("--reward-key picks the reward columns; the others stay in meta", async () => {
    const r = await loadBytes("c.csv", bytesOf("trl", "completions-csv.csv"), {
      options: { rewardKeys: ["correctness_reward"] },
    });
    const first = r.groups[0]!.rollouts[0]!;
    expect(first.rewards).toEqual({ correctness_reward: 2 });
    expect(first.meta).toMatchObject({
      format_reward: "1.0",
      solution: "42",
      trainerAdvantage: 0.9999,
    });
    await expect(
      loadBytes("c.csv", bytesOf("trl", "completions-csv.csv"), {
        options: { rewardKeys: ["nope"] },
      }),
    ).rejects.toThrow(/nope: is required \(the reward column you named\)/);
  });
});

const EVAL = join(import.meta.dirname, "../../../shared/data/inspect/log_streaming.eval");

describe("Inspect .eval (real data, ../shared/data)", async () => {
  const { unzipSync, zipSync } = await import("fflate");
  const bytes = readFileSync(EVAL);
  const r = await loadBytes("log_streaming.eval", bytes);

  it("loads 2 samples x 2 epochs with the match scores I, C and C, C", () => {
    expect(r.format).toBe("inspect");
    expect(r.container).toBe("zip");
    expect(r.issues).toEqual([]);
    expect(r.stats).toMatchObject({ records: 4, rollouts: 4, rejected: 0 });
    expect(
      r.groups.map((g) => [
        g.id,
        g.rollouts.map((x) => [x.id, x.rewards, x.reward, x.source.member]),
      ]),
    ).toEqual([
      [
        "1",
        [
          ["1/epoch 1", { match: 0 }, 0, "samples/1_epoch_1.json"],
          ["1/epoch 2", { match: 1 }, 1, "samples/1_epoch_2.json"],
        ],
      ],
      [
        "2",
        [
          ["2/epoch 1", { match: 1 }, 1, "samples/2_epoch_1.json"],
          ["2/epoch 2", { match: 1 }, 1, "samples/2_epoch_2.json"],
        ],
      ],
    ]);
    const first = r.groups[0]!.rollouts[0]!;
    expect((first.prompt as ChatMessage[]).map((m) => m.role)).toEqual(["system", "user"]);
    expect(first.messages.map((m) => [m.role, m.content])).toEqual([["assistant", "No"]]);
    expect(first.answer).toBe("No");
    expect(first.meta.eval).toMatchObject({
      task: "popularity",
      model: "azureai/Meta-Llama-3-1-405B-Instruct-jqf",
    });
    expect(first.meta.scores).toEqual({ match: { value: "I", answer: "No" } });
  });

  it("a truncated .eval is refused as a truncated or corrupt zip", async () => {
    for (const cut of [bytes.length - 10, Math.floor(bytes.length / 2)]) {
      await expect(loadBytes("cut.eval", bytes.subarray(0, cut))).rejects.toThrow(
        /cut\.eval: the zip archive is truncated or corrupt/,
      );
    }
  });

  const members = unzipSync(bytes);

  it("a sample that is not JSON is an issue naming its member; the rest loads", async () => {
    const broken = zipSync({
      ...members,
      "samples/2_epoch_1.json": new TextEncoder().encode('{"id": 2, "epoch": 1, "messa'),
    });
    const t = await loadBytes("broken.eval", broken);
    expect(t.stats).toMatchObject({ records: 4, rollouts: 3, rejected: 1 });
    expect(t.issues).toEqual([
      {
        file: "broken.eval",
        line: 0,
        member: "samples/2_epoch_1.json",
        message: expect.stringMatching(/^not valid JSON \(/) as string,
      },
    ]);
  });

  it("a member whose compressed data is damaged is an issue naming it", async () => {
    const zip = zipSync(members, { level: 6 });
    const name = new TextEncoder().encode("samples/1_epoch_2.json");
    let at = -1;
    for (let i = 0; i + 30 + name.length < zip.length && at === -1; i++) {
      const header = zip[i] === 0x50 && zip[i + 1] === 0x4b && zip[i + 2] === 3 && zip[i + 3] === 4;
      if (header && name.every((b, k) => zip[i + 30 + k] === b)) at = i;
    }
    expect(at).toBeGreaterThanOrEqual(0);
    const extra = zip[at + 28]! | (zip[at + 29]! << 8);
    const data = at + 30 + name.length + extra;
    zip.fill(0xff, data, data + 8);
    const t = await loadBytes("damaged.eval", zip);
    expect(t.stats).toMatchObject({ records: 4, rollouts: 3, rejected: 1 });
    expect(t.issues).toEqual([
      expect.objectContaining({
        member: "samples/1_epoch_2.json",
        message: expect.stringMatching(/^the member's data is corrupt/) as string,
      }),
    ]);
  });

  it("a running log (no header.json yet) loads from _journal/start.json", async () => {
    const running = Object.fromEntries(
      Object.entries(members).filter(([m]) => m !== "header.json"),
    );
    const t = await loadBytes("running.eval", zipSync(running));
    expect(t.stats.rollouts).toBe(4);
    expect(t.groups[0]!.rollouts[0]!.meta.eval).toMatchObject({ task: "popularity" });
  });

  it("a zip that is not an Inspect log is refused, naming what it holds", async () => {
    const other = zipSync({ "notes.txt": new TextEncoder().encode("hello") });
    await expect(loadBytes("other.zip", other)).rejects.toThrow(
      /other\.zip: is a zip archive, but not one the studio reads .* 1 member\(s\): notes\.txt/,
    );
    const empty = zipSync({ "header.json": members["header.json"]! });
    await expect(loadBytes("empty.eval", empty)).rejects.toThrow(
      /empty\.eval: no samples in this log \(status "success"\): the run finished, but its samples were not logged/,
    );
  });
});

describe("the mapped format", () => {
  it("is never detected, and without a mapping tells what to pass", async () => {
    await expect(loadText("x.jsonl", '{"q": 1, "a": "x"}\n')).rejects.toThrow(/no known format/);
    await expect(loadText("x.jsonl", '{"q": 1, "a": "x"}\n', { format: "mapped" })).rejects.toThrow(
      /pass --group-key FIELD and --text-key FIELD/,
    );
  });
  it("reads a JSON array and a Parquet table too", async () => {
    const r = await loadText(
      "x.json",
      '[{"q": 1, "a": "x", "ok": true}, {"q": 1, "a": "y", "ok": false}]',
      {
        format: "mapped",
        options: { groupKey: "q", textKey: "a", rewardKeys: ["ok"] },
      },
    );
    expect(r.groups[0]!.rollouts.map((x) => [x.id, x.completion, x.reward])).toEqual([
      ["1/0", "x", 1],
      ["1/1", "y", 0],
    ]);
    const p = await loadBytes("c.parquet", bytesOf("trl", "completions_00040.parquet"), {
      format: "mapped",
      options: { groupKey: "prompt", textKey: "completion", rewardKeys: ["format_reward"] },
    });
    expect(p.groups.map((g) => g.rollouts.map((x) => x.reward))).toEqual([
      [1, 0, 1],
      [1, 1, 0],
      [0, 1, 0],
    ]);
    expect(p.groups[0]!.rollouts[1]!.source).toEqual({
      file: "c.parquet",
      line: 0,
      member: "row 4",
    });
  });
});

describe("detection between formats", () => {
  const chat = [
    { role: "user", content: "hi" },
    { role: "assistant", content: "hello" },
  ];
  it("native wins over OpenAI chat rows when the rows have group_id", async () => {
    const r = await loadText(
      "x.jsonl",
      JSON.stringify({ group_id: "g", messages: chat, reward: 1 }),
    );
    expect(r.format).toBe("native");
    expect(r.candidates.map((c) => [c.id, c.score])).toEqual([
      ["native", 2],
      ["openai", 1],
    ]);
  });
  it("chat rows with another group key, or none, are OpenAI chat rows", async () => {
    expect((await loadText("x.jsonl", JSON.stringify({ task_id: 3, messages: chat }))).format).toBe(
      "openai",
    );
    expect((await loadText("x.jsonl", JSON.stringify({ messages: chat, score: 1 }))).format).toBe(
      "openai",
    );
  });
  it("a whileai training export that also has group_id ties with native and asks", async () => {
    const row = { scenario_id: "s", group_id: "s", messages: chat, reward: 1 };
    await expect(loadText("x.jsonl", JSON.stringify(row))).rejects.toThrow(
      /matches several formats equally well \(native, whileai\)/,
    );
    expect((await loadText("x.jsonl", JSON.stringify(row), { format: "whileai" })).format).toBe(
      "whileai",
    );
  });
  it("a JSON document that is neither tau2 nor Inspect is in no known format", async () => {
    await expect(loadText("x.json", '{\n  "results": []\n}')).rejects.toThrow(/no known format/);
  });
  it("a CSV is TRL when its header is, else in no known format", async () => {
    const trl = await loadText(
      "t.csv",
      "step,prompt,completion,accuracy_reward,advantage\n5,p,c,1,0.5\n",
    );
    expect(trl).toMatchObject({ format: "trl", container: "csv" });
    expect(trl.groups[0]!.rollouts[0]!.rewards).toEqual({ accuracy_reward: 1 });
    await expect(loadText("t.csv", "a,b\n1,2\n")).rejects.toThrow(
      /looks like csv; known formats for it/,
    );
  });
});

describe("duplicate ids in records without lines", () => {
  it("name the member of both records", async () => {
    const doc = {
      timestamp: "t",
      info: {},
      tasks: [],
      simulations: [0, 1].map(() => ({
        id: "sim",
        task_id: "7",
        trial: 0,
        reward_info: { reward: 1 },
        messages: [],
      })),
    };
    const r = await loadText("dup.json", JSON.stringify(doc, null, 2));
    expect(r.issues.filter((i) => i.field === "id")).toEqual([
      expect.objectContaining({
        member: "simulations[1]",
        message: expect.stringContaining("(first at simulations[0])") as string,
      }),
    ]);
  });
});

describe("native rows that also log TRL-like columns", () => {
  it("stay native: group_id is not a TRL column", async () => {
    const r = await loadText(
      "n.jsonl",
      '{"group_id":"g","step":3,"prompt":"p","completion":"c","reward":1}\n',
    );
    expect(r.format).toBe("native");
  });
});

describe("found by fuzzing (loaders.prop.test.ts)", () => {
  it("a record nested 20,000 levels deep is an issue, not a RangeError that loses the file", async () => {
    const deep = "[".repeat(20_000) + "]".repeat(20_000);
    const r = await loadText(
      "deep.jsonl",
      `{"group_id":"g","completion":"a","reward":${deep}}\n{"group_id":"g","completion":"b","reward":1}\n`,
    );
    expect(r.stats).toMatchObject({ records: 2, rollouts: 1, rejected: 1 });
    expect(r.issues).toEqual([
      expect.objectContaining({
        line: 1,
        field: "reward",
        message: expect.stringMatching(/more than 512 levels deep/) as string,
      }),
    ]);
  });
  it("a __proto__ key is reported, not dropped without a word", async () => {
    const r = await loadText(
      "proto.jsonl",
      '{"group_id":"g","completion":"a","__proto__":{"reward":5}}\n{"group_id":"g","completion":"b"}\n',
    );
    expect(r.stats).toMatchObject({ rollouts: 1, rejected: 1 });
    expect(r.issues[0]).toMatchObject({ line: 1, field: "__proto__" });
    await expect(
      loadText("p.csv", "__proto__,text\ng,hello\n", {
        format: "mapped",
        options: { groupKey: "__proto__", textKey: "text" },
      }),
    ).rejects.toThrow(/p\.csv: line 1: the CSV header names a column "__proto__"/);
  });
  it('"__proto__" as a group or rollout id is an issue: annotations are keyed by these ids', async () => {
    const r = await loadText(
      "ids.jsonl",
      [
        '{"group_id":"__proto__","completion":"a"}',
        '{"group_id":"g","id":"__proto__","completion":"b"}',
        '{"group_id":"g","id":"constructor","completion":"c"}',
      ].join("\n"),
    );
    expect(r.groups.flatMap((g) => g.rollouts.map((x) => x.id))).toEqual(["constructor"]);
    expect(r.issues.map((i) => [i.line, i.field])).toEqual([
      [1, "group"],
      [2, "id"],
    ]);
  });
  it("elements of a minified JSON array are located by their path, since they share line 1", async () => {
    const r = await loadText(
      "min.json",
      JSON.stringify([
        { task_id: 1, trial: 0, reward: 1, traj: [] },
        { task_id: 1, trial: 1, reward: "x", traj: [] },
      ]),
    );
    expect(r.groups[0]!.rollouts[0]!.source).toEqual({ file: "min.json", line: 1, member: "[0]" });
    expect(r.issues).toEqual([
      expect.objectContaining({ line: 1, member: "[1]", field: "reward" }),
    ]);
  });
  it("an unclosed array that ends in a newline is reported on its last line, not past it", async () => {
    const r = await loadText(
      "cut.json",
      '[\n{"task_id": 1, "trial": 0, "reward": 1, "traj": []},\n',
    );
    expect(r.stats.lines).toBe(2);
    expect(r.issues).toEqual([
      expect.objectContaining({ line: 2, message: expect.stringMatching(/not closed/) as string }),
    ]);
  });
  it("a duplicate id is the later line, whatever the order of the groups", async () => {
    const r = await loadText(
      "dup.jsonl",
      [
        '{"group_id":"g1","id":"a","completion":"1","reward":1}',
        '{"group_id":"g2","id":"x","completion":"2","reward":1}',
        '{"group_id":"g1","id":"x","completion":"3","reward":1}',
      ].join("\n"),
    );
    expect(r.groups.flatMap((g) => g.rollouts.map((x) => x.source.line))).toEqual([1, 2]);
    expect(r.issues).toEqual([
      expect.objectContaining({
        line: 3,
        field: "id",
        message: 'duplicate rollout id "x" (first at line 2); this row is skipped',
      }),
    ]);
  });
  it("a byte-order mark is the file's, not every line's: one in the middle is not JSON", async () => {
    const r = await loadText(
      "cat.jsonl",
      '\uFEFF{"group_id":"g","completion":"a"}\n\uFEFF{"group_id":"g","completion":"b"}\n',
    );
    expect(r.stats).toMatchObject({ rollouts: 1, rejected: 1 });
    expect(r.issues[0]).toMatchObject({
      line: 2,
      message: expect.stringMatching(/^not valid JSON/) as string,
    });
  });
});
