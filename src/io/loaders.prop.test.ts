/**
 * Fuzzing every loader (issue 8 part 4): each format's fixtures (and the real tau-bench and Inspect
 * .eval files in ../shared/data) are mutated with the hostile edits of src/test/fuzzInputs.ts, and
 * random records are written as JSONL, JSON arrays and CSV. Each input is loaded detected, as its
 * own format, and forced into every other format. Properties:
 *
 * - no loader throws past its boundary: `loadBytes` resolves, or rejects with a LoadError that
 *   names the file (empty, binary, no known format, nothing usable); never a TypeError or a
 *   RangeError from deep inside a parser;
 * - every record is accounted for: rollouts + rejected = records; each rejected record has an issue
 *   at its line (or member, or row), no rollout's record also has one, and for JSONL
 *   rollouts + rejected + blank = lines (less the records a split line added: an Atropos group);
 * - every issue names the file, and a line or a member.
 *
 * The agent-trajectory formats (swe-agent, openhands, atif) are also fuzzed on real-shaped records
 * (../shared/data and the fixtures) with edits aimed at the fields their loaders read.
 *
 * Golden behaviour is pinned in loaders.test.ts; this file only asks that nothing escapes.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { fc, test } from "@fast-check/vitest";
import { unzipSync, zipSync } from "fflate";
import { describe, expect } from "vitest";
import {
  applyByteEdits,
  applyJsonEdits,
  byteEdit,
  FUZZ_TIMEOUT,
  fuzzRuns,
  jsonEdits,
  jsonReplacement,
  mutateTextFile,
  randomRecord,
  textFileMutation,
  type ByteEdit,
  type JsonEdit,
  type JsonReplacement,
  type TextFileMutation,
} from "../test/fuzzInputs.ts";
import { FORMATS, LoadError, loadBytes, type LoadOptions, type LoadResult } from "./index.ts";

const FIXTURES = join(import.meta.dirname, "__fixtures__");
const SHARED = join(import.meta.dirname, "../../../shared/data");
const encoder = new TextEncoder();

/** A damaged JSON array keeps its elements and reports the damage once, not as a record. */
const ARRAY_DAMAGE = /^(the JSON array is not closed|unexpected text after the closing \])/;

const at = (x: { readonly line: number; readonly member?: string }): string =>
  `${x.line}:${x.member ?? ""}`;

/** How many records an issue location stands for: Parquet reports a damaged row group once. */
function span(member: string | undefined): number {
  const m = /^rows (\d+)-(\d+)$/.exec(member ?? "");
  return m === null ? 1 : Number(m[2]) - Number(m[1]) + 1;
}

/** The accounting every load must satisfy. */
export function expectAccounted(r: LoadResult, file: string): void {
  const { stats } = r;
  expect(stats.rollouts + stats.rejected).toBe(stats.records);
  expect(r.groups.reduce((s, g) => s + g.rollouts.length, 0)).toBe(stats.rollouts);
  expect(r.groups.every((g) => g.rollouts.length > 0)).toBe(true);

  const rolloutAt = r.groups.flatMap((g) => g.rollouts.map((x) => at(x.source)));
  expect(new Set(rolloutAt).size, "one rollout per record").toBe(rolloutAt.length);
  const ids = r.groups.flatMap((g) => g.rollouts.map((x) => x.id));
  expect(new Set(ids).size, "rollout ids are unique").toBe(ids.length);

  for (const i of r.issues) {
    expect(i.file).toBe(file);
    expect(i.message.trim()).not.toBe("");
    expect(i.line > 0 || i.member !== undefined, JSON.stringify(i)).toBe(true);
    if (r.container === "jsonl" || r.container === "csv" || r.container === "json-array")
      expect(i.line).toBeLessThanOrEqual(stats.lines);
  }
  const recordIssues = r.issues.filter(
    (i) => !(r.container === "json-array" && i.field === undefined && ARRAY_DAMAGE.test(i.message)),
  );
  const issueAt = new Map(recordIssues.map((i) => [at(i), i.member] as const));
  let rejected = 0;
  for (const member of issueAt.values()) rejected += span(member);
  expect(rejected, "each rejected record has an issue").toBe(stats.rejected);
  for (const a of rolloutAt)
    expect(issueAt.has(a), `a rollout's record has an issue: ${a}`).toBe(false);

  // A line split into its rollouts (Atropos groups) counts one record per rollout.
  if (r.container === "jsonl")
    expect(stats.rollouts + stats.rejected + stats.blank - (stats.split ?? 0)).toBe(stats.lines);
}

/** Load and check: resolves and accounts for everything, or rejects with a LoadError naming the file. */
async function loadChecked(file: string, bytes: Uint8Array, options: LoadOptions): Promise<void> {
  let result: LoadResult;
  try {
    result = await loadBytes(file, bytes, options);
  } catch (e) {
    if (!(e instanceof LoadError)) throw e;
    expect(e.file).toBe(file);
    expect(e.message.startsWith(`${file}: `)).toBe(true);
    return;
  }
  expectAccounted(result, file);
}

interface Case {
  readonly format: string;
  readonly name: string;
  readonly bytes: Uint8Array;
  readonly options: LoadOptions;
}

const CASE = /\.(jsonl|json|csv|parquet)$/;
const FOLDERS = readdirSync(FIXTURES).filter((f) => statSync(join(FIXTURES, f)).isDirectory());

function casesOf(format: string): Case[] {
  return readdirSync(join(FIXTURES, format))
    .filter((f) => CASE.test(f) && !f.endsWith(".expected.json") && !f.endsWith(".options.json"))
    .map((name) => {
      const optionsPath = join(FIXTURES, format, name.replace(CASE, ".options.json"));
      return {
        format,
        name,
        bytes: readFileSync(join(FIXTURES, format, name)),
        options: existsSync(optionsPath)
          ? (JSON.parse(readFileSync(optionsPath, "utf8")) as LoadOptions)
          : {},
      };
    });
}

const TAU = join(SHARED, "tau-bench/gpt-4o-airline.json");
/** Real JSONL files of the chat formats (issue 15), read as written; the first lines of each. */
const REAL_JSONL = [
  { format: "verifiers", path: "verifiers/wiki-search-gpt-4.1-mini.results.jsonl", lines: 4 },
  { format: "verifiers", path: "verifiers/wordle-gpt-5-mini.results.jsonl", lines: 6 },
  {
    format: "nemo-gym",
    path: "nemo-gym/resources_servers_blackjack.example_rollouts.jsonl",
    lines: 5,
  },
  {
    format: "nemo-gym",
    path: "nemo-gym/resources_servers_workplace_assistant.example_rollouts.jsonl",
    lines: 2,
  },
].filter((r) => existsSync(join(SHARED, r.path)));
const EVAL = join(SHARED, "inspect/log_streaming.eval");

/** Every fixture, plus the head of the real tau-bench array (there is no tau-bench fixture folder). */
const CASES: readonly Case[] = [
  ...FOLDERS.flatMap(casesOf),
  ...(existsSync(TAU)
    ? [
        {
          format: "tau-bench",
          name: "tau-head.json",
          bytes: encoder.encode(
            JSON.stringify(
              (JSON.parse(readFileSync(TAU, "utf8")) as unknown[]).slice(0, 6),
              null,
              1,
            ),
          ),
          options: {},
        },
      ]
    : []),
  ...REAL_JSONL.map((r) => ({
    format: r.format,
    name: r.path.split("/").pop()!,
    bytes: encoder.encode(
      `${readFileSync(join(SHARED, r.path), "utf8").split("\n").slice(0, r.lines).join("\n")}\n`,
    ),
    options: {},
  })),
];

/** How a mutated input is loaded: as its case says, detected, or forced into any format. */
const loadChoice = fc.oneof(
  { weight: 3, arbitrary: fc.constant("case") },
  { weight: 1, arbitrary: fc.constant("detect") },
  { weight: 2, arbitrary: fc.constantFrom(...FORMATS.map((f) => f.id)) },
);

const FIELD_NAMES = [
  "group_id",
  "id",
  "question_id",
  "answer",
  "reward",
  "task.id",
  "__proto__",
  "a.b",
  "x",
];
const mappingOptions = fc.record({
  groupKey: fc.constantFrom(...FIELD_NAMES),
  textKey: fc.constantFrom(...FIELD_NAMES, "messages", "completion"),
  rewardKeys: fc.array(fc.constantFrom(...FIELD_NAMES, "correct", "scores.pass"), { maxLength: 2 }),
  idKey: fc.option(fc.constantFrom(...FIELD_NAMES), { nil: undefined }),
});

function loadOptions(c: Case, choice: string, mapping: LoadOptions["options"]): LoadOptions {
  if (choice === "case") return c.options;
  if (choice === "detect") return {};
  return { format: choice, options: choice === c.options.format ? c.options.options : mapping };
}

type Mutation =
  | { readonly kind: "bytes"; readonly edits: readonly ByteEdit[] }
  | { readonly kind: "text"; readonly mutation: TextFileMutation }
  | {
      readonly kind: "document";
      readonly edits: readonly JsonEdit[];
      readonly indent: number | undefined;
      readonly text: TextFileMutation | null;
    };

/**
 * The mutations a case's container allows, as data (so a counterexample prints the mutation, not
 * the bytes): byte damage for Parquet, structural edits then optional text damage for JSON
 * documents and arrays, line and byte edits for JSONL and CSV.
 */
function mutations(c: Case): fc.Arbitrary<Mutation> {
  if (c.name.endsWith(".parquet"))
    return fc
      .array(byteEdit, { minLength: 1, maxLength: 3 })
      .map((edits) => ({ kind: "bytes" as const, edits }));
  if (c.name.endsWith(".json"))
    return fc.record({
      kind: fc.constant("document" as const),
      edits: jsonEdits,
      indent: fc.constantFrom(undefined, 1, 2),
      text: fc.option(textFileMutation, { freq: 3, nil: null }),
    });
  return textFileMutation.map((mutation) => ({ kind: "text" as const, mutation }));
}

function mutated(c: Case, m: Mutation): Uint8Array {
  if (m.kind === "bytes") return applyByteEdits(c.bytes, m.edits);
  const text = new TextDecoder().decode(c.bytes);
  if (m.kind === "text") return mutateTextFile(text, m.mutation);
  const body = applyJsonEdits(JSON.parse(text), m.edits, m.indent);
  return m.text === null ? encoder.encode(body) : mutateTextFile(body, m.text);
}

// Runs per fixture case: the whole file takes about 8 s on the 2-core machine (the long lines and
// deep nesting dominate). FUZZ_SCALE multiplies every count (see fuzzRuns).
const RUNS = 80;

const fuzzed = [...new Set(CASES.map((c) => c.format))];

describe.each(fuzzed)("fuzzing the %s loader", (format) => {
  const cases = CASES.filter((c) => c.format === format);
  const input = fc.constantFrom(...cases.map((c) => c.name)).chain((name) =>
    fc.record({
      name: fc.constant(name),
      mutation: mutations(cases.find((c) => c.name === name)!),
      choice: loadChoice,
      mapping: mappingOptions,
    }),
  );
  test.prop([input], { numRuns: fuzzRuns(RUNS * cases.length) })(
    "mutated fixtures: never throws past the boundary, every record accounted for",
    async ({ name, mutation, choice, mapping }) => {
      const c = cases.find((x) => x.name === name)!;
      await loadChecked(c.name, mutated(c, mutation), loadOptions(c, choice, mapping));
    },
    FUZZ_TIMEOUT,
  );
});

describe.runIf(existsSync(EVAL))("fuzzing the Inspect .eval loader", () => {
  const bytes = existsSync(EVAL) ? readFileSync(EVAL) : new Uint8Array();
  const members = existsSync(EVAL) ? unzipSync(bytes) : {};
  const names = Object.keys(members);
  const damage = fc.oneof(
    fc.record({ bytes: fc.array(byteEdit, { minLength: 1, maxLength: 3 }) }),
    fc.record({ member: fc.constantFrom(...names), edits: jsonEdits, drop: fc.boolean() }),
  );
  const damaged = (d: typeof damage extends fc.Arbitrary<infer T> ? T : never): Uint8Array => {
    if ("bytes" in d) return applyByteEdits(bytes, d.bytes);
    const next = { ...members };
    if (d.drop) delete next[d.member];
    else {
      const doc = JSON.parse(new TextDecoder().decode(members[d.member])) as unknown;
      next[d.member] = encoder.encode(applyJsonEdits(doc, d.edits));
    }
    return zipSync(next);
  };
  test.prop([damage, loadChoice], { numRuns: fuzzRuns(150) })(
    "damaged archives and members: never throws past the boundary, every member accounted for",
    async (d, choice) => {
      const options = choice === "case" || choice === "detect" ? {} : { format: choice };
      await loadChecked("log.eval", damaged(d), options);
    },
    FUZZ_TIMEOUT,
  );
});

describe("fuzzing random input", () => {
  const csvCell = fc.oneof(
    fc.string({ maxLength: 6 }),
    fc.constantFrom('"', '""', '"a,b"', "NaN", "1", "", "\n"),
  );
  const input = fc.oneof(
    fc
      .array(randomRecord, { maxLength: 8 })
      .map((rs) => rs.map((r) => JSON.stringify(r)).join("\n")),
    fc.array(randomRecord, { maxLength: 8 }).map((rs) => JSON.stringify(rs)),
    randomRecord.map((r) => JSON.stringify(r, null, 2)),
    fc
      .array(fc.array(csvCell, { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 6 })
      .map((rows) => rows.map((r) => r.join(",")).join("\n")),
    fc.string({ unit: "binary", maxLength: 200 }),
  );
  test.prop([input, textFileMutation, loadChoice, mappingOptions], { numRuns: fuzzRuns(600) })(
    "random records, arrays, documents, tables and text: never throws past the boundary",
    async (text, m, choice, mapping) => {
      const bytes = mutateTextFile(text, m);
      const options: LoadOptions =
        choice === "case" || choice === "detect" ? {} : { format: choice, options: mapping };
      await loadChecked("random.txt", bytes, options);
    },
    FUZZ_TIMEOUT,
  );
  test.prop([fc.uint8Array({ maxLength: 400 }), loadChoice], { numRuns: fuzzRuns(300) })(
    "random bytes: never throws past the boundary",
    async (bytes, choice) => {
      await loadChecked(
        "random.bin",
        bytes,
        choice === "case" || choice === "detect" ? {} : { format: choice },
      );
    },
    FUZZ_TIMEOUT,
  );
});

// ---------------------------------------------------------------------------------------------
// Agent trajectories (issue 15): swe-agent, openhands and atif, one describe per format. Records
// are real-shaped (the real files in ../shared/data and the fixtures), mutated by random edits
// anywhere and by edits aimed at the fields each loader reads (removed, of a wrong type, nested
// 20,000 deep, a bare NaN, a `__proto__` key...), then loaded detected, as their format, or forced
// into another. Every record is accounted for: rollouts + rejected = records, always.
// ---------------------------------------------------------------------------------------------

/** Every node's path in a JSON value, in the depth-first order `applyJsonEdits` counts them. */
function nodePaths(root: unknown): string[][] {
  const out: string[][] = [[]];
  const walk = (v: unknown, path: string[]): void => {
    if (Array.isArray(v))
      v.forEach((child, i) => {
        out.push([...path, String(i)]);
        walk(child, [...path, String(i)]);
      });
    else if (typeof v === "object" && v !== null)
      for (const [k, child] of Object.entries(v)) {
        out.push([...path, k]);
        walk(child, [...path, k]);
      }
  };
  walk(root, []);
  return out;
}

/** An edit aimed at a field: `pattern` is a dotted path where `*` is any array index. */
interface AimedEdit {
  readonly pattern: string;
  readonly pick: number;
  readonly replacement: JsonReplacement;
}

/** The `applyJsonEdits` edit for an aimed edit on this value, or null when it has no such field. */
function aim(value: unknown, a: AimedEdit): JsonEdit | null {
  const segments = a.pattern.split(".");
  const nodes = nodePaths(value)
    .map((path, at) => ({ path, at }))
    .filter(
      ({ path }) =>
        path.length === segments.length &&
        path.every((p, i) => segments[i] === p || (segments[i] === "*" && /^\d+$/.test(p))),
    );
  const node = nodes[a.pick % Math.max(1, nodes.length)];
  return node === undefined ? null : { at: node.at, replacement: a.replacement };
}

interface RecordMutation {
  /** Aimed edits that keep the record JSON (no bare token, no deep nesting), applied in turn. */
  readonly aimed: readonly AimedEdit[];
  /** The last aimed edit, of any kind, applied with the random edits as text. */
  readonly last: AimedEdit | null;
  readonly random: readonly JsonEdit[];
  readonly indent: number | undefined;
}

/** A record mutated: its aimed edits, then its last aimed and random ones; returns the text. */
function editRecord(record: unknown, m: RecordMutation): string {
  let value: unknown = structuredClone(record);
  for (const a of m.aimed) {
    const edit = aim(value, a);
    if (edit !== null) value = JSON.parse(applyJsonEdits(value, [edit])) as unknown;
  }
  const last = m.last === null ? null : aim(value, m.last);
  const edits = [...(last === null ? [] : [last]), ...m.random];
  return edits.length === 0
    ? JSON.stringify(value, null, m.indent)
    : applyJsonEdits(value, edits, m.indent);
}

/** What stays JSON through JSON.parse: every replacement but bare tokens and deep nesting. */
const jsonReplacementSafe = jsonReplacement.filter((r) => r.kind !== "token" && r.kind !== "deep");

/** Aimed and random edits of one record of a format whose fields are `patterns`. */
function recordMutation(patterns: readonly string[]): fc.Arbitrary<RecordMutation> {
  const aimed = (replacement: fc.Arbitrary<JsonReplacement>) =>
    fc.record({ pattern: fc.constantFrom(...patterns), pick: fc.nat(), replacement });
  return fc.record({
    aimed: fc.array(aimed(jsonReplacementSafe), { maxLength: 2 }),
    last: fc.option(aimed(jsonReplacement), { nil: null }),
    random: fc.oneof(fc.constant([] as JsonEdit[]), jsonEdits),
    indent: fc.constantFrom(undefined, 2),
  });
}

const readJson = (path: string): unknown => JSON.parse(readFileSync(path, "utf8")) as unknown;

/** Real-shaped records of one format: what exists of the given files. */
function records(paths: readonly string[]): unknown[] {
  return paths.filter((p) => existsSync(p)).map(readJson);
}

const AGENT_RUNS = 25;

/** How an agent file is loaded: as its own format, detected, or forced into another. */
const agentOptions = (format: string, choice: string): LoadOptions =>
  choice === "case" ? { format } : choice === "detect" ? {} : { format: choice };

/**
 * The property for a format whose file is one JSON document (swe-agent's `.traj`, ATIF's
 * `trajectory.json`): a real-shaped document from `pool`, mutated, under one of `names`.
 */
function fuzzDocuments(
  format: string,
  pool: readonly unknown[],
  patterns: readonly string[],
  names: readonly string[],
): void {
  test.prop(
    [
      fc.nat({ max: pool.length - 1 }),
      recordMutation(patterns),
      loadChoice,
      fc.constantFrom(...names),
    ],
    { numRuns: fuzzRuns(AGENT_RUNS * pool.length) },
  )(
    `a mutated ${names[0]!}: never throws past the boundary, every record accounted for`,
    async (which, m, choice, name) => {
      const text = editRecord(pool[which], m);
      await loadChecked(name, encoder.encode(text), agentOptions(format, choice));
    },
    FUZZ_TIMEOUT,
  );
}

describe("fuzzing the swe-agent loader on real-shaped trajectories", () => {
  const pool = records([
    join(SHARED, "swe-agent/function_calling_simple.traj"),
    join(FIXTURES, "swe-agent/example__calc-7.traj"),
    join(FIXTURES, "swe-agent/marshmallow-code__marshmallow-1867.traj"),
    join(FIXTURES, "swe-agent/mini-swe-agent.traj.json"),
  ]);
  const patterns = [
    "history",
    "history.*",
    "history.*.role",
    "history.*.content",
    "history.*.tool_calls",
    "history.*.tool_calls.*",
    "history.*.tool_calls.*.function",
    "history.*.tool_calls.*.function.arguments",
    "history.*.tool_call_ids",
    "history.*.message_type",
    "trajectory",
    "trajectory.*",
    "trajectory.*.action",
    "trajectory.*.observation",
    "trajectory.*.response",
    "info",
    "info.submission",
    "info.instance_id",
    "replay_config",
    "messages",
    "messages.*.content",
    "trajectory_format",
  ];
  fuzzDocuments("swe-agent", pool, patterns, [
    "a__b-1.traj",
    "run/x__y-2/x__y-2.traj",
    "mini.traj.json",
  ]);
});

describe("fuzzing the openhands loader on real-shaped output lines", () => {
  const real = join(SHARED, "openhands/multi_swe_bench_output.jsonl");
  const lines = [
    ...(existsSync(real) ? readFileSync(real, "utf8").split("\n") : []),
    ...readFileSync(join(FIXTURES, "openhands/output.jsonl"), "utf8").split("\n"),
  ]
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l) as Record<string, unknown>)
    // The real lines' histories are long (up to 100 events of 3 kB); 12 events keep every kind.
    .map((r) => (Array.isArray(r.history) ? { ...r, history: r.history.slice(0, 12) } : r));
  const patterns = [
    "instance_id",
    "instruction",
    "history",
    "history.*",
    "history.*.id",
    "history.*.source",
    "history.*.action",
    "history.*.args",
    "history.*.args.content",
    "history.*.args.thought",
    "history.*.observation",
    "history.*.content",
    "history.*.cause",
    "history.*.extras",
    "history.*.extras.metadata.exit_code",
    "history.*.tool_call_metadata",
    "history.*.tool_call_metadata.tool_call_id",
    "history.*.tool_call_metadata.function_name",
    "history.*.tool_call_metadata.model_response",
    "history.*.tool_call_metadata.model_response.choices.*.message.tool_calls",
    "history.*.0",
    "history.*.1",
    "test_result",
    "test_result.git_patch",
    "test_result.report",
    "metrics",
    "error",
  ];
  const line = fc.record({
    which: fc.nat({ max: lines.length - 1 }),
    mutation: fc.option(recordMutation(patterns), { freq: 2, nil: null }),
  });
  test.prop(
    [
      fc.array(line, { minLength: 1, maxLength: 4 }),
      fc.option(textFileMutation, { freq: 4, nil: null }),
      loadChoice,
    ],
    { numRuns: fuzzRuns(AGENT_RUNS * 3) },
  )(
    "an output.jsonl of mutated lines: never throws past the boundary, every line accounted for",
    async (chosen, damage, choice) => {
      const text = chosen
        .map(({ which, mutation }) =>
          mutation === null
            ? JSON.stringify(lines[which])
            : editRecord(lines[which], { ...mutation, indent: undefined }).replace(/\n/g, " "),
        )
        .join("\n");
      const bytes = damage === null ? encoder.encode(text) : mutateTextFile(text, damage);
      await loadChecked("output.jsonl", bytes, agentOptions("openhands", choice));
    },
    FUZZ_TIMEOUT,
  );
});

describe("fuzzing the atif loader on real-shaped trajectories", () => {
  const jobs = join(FIXTURES, "atif/jobs/2025-10-11__10-30-00");
  const pool = records([
    join(FIXTURES, "atif/trajectory.json"),
    join(FIXTURES, "atif/compact.json"),
    ...readdirSync(jobs)
      .map((trial) => join(jobs, trial, "agent/trajectory.json"))
      .filter((p) => existsSync(p)),
  ]);
  const patterns = [
    "schema_version",
    "session_id",
    "agent",
    "agent.name",
    "steps",
    "steps.*",
    "steps.*.step_id",
    "steps.*.source",
    "steps.*.message",
    "steps.*.reasoning_content",
    "steps.*.tool_calls",
    "steps.*.tool_calls.*",
    "steps.*.tool_calls.*.tool_call_id",
    "steps.*.tool_calls.*.function_name",
    "steps.*.tool_calls.*.arguments",
    "steps.*.observation",
    "steps.*.observation.results",
    "steps.*.observation.results.*",
    "steps.*.observation.results.*.source_call_id",
    "steps.*.observation.results.*.content",
    "steps.*.observation.results.*.subagent_trajectory_ref",
    "final_metrics",
  ];
  fuzzDocuments("atif", pool, patterns, [
    "trajectory.json",
    "jobs/j/hello-world__Ab3dE9x/agent/trajectory.json",
  ]);
});
