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
  mutateTextFile,
  randomRecord,
  textFileMutation,
  type ByteEdit,
  type JsonEdit,
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
