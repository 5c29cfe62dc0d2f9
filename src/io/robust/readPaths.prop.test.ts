/**
 * The two read paths of a JSONL file agree (issue 15, item 6): the whole-file load (loadBytes) and
 * the byte index that every file of 32 MB or more takes (indexBlobIfPossible, then each group
 * parsed as the studio parses it when opened). Whitespace, byte-order marks, blank lines, CRLF, NUL
 * bytes, bad lines and a missing final newline must read the same through both: the same
 * detection, the same rollouts (line, id, group, reward) and the same issues (line, field).
 *
 * The first case is the reproduction of the bug that started this: a file that begins with 10 MB
 * of whitespace loaded whole but was "empty" through the index, which sniffed only its head.
 */
import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import { FUZZ_TIMEOUT, fuzzRuns } from "../../test/fuzzInputs.ts";
import { concatBytes } from "../containers/bytes.ts";
import { datasetWithParsedGroup, type LoadedDataset } from "../dataset.ts";
import { loadBytes } from "../formats/load.ts";
import { LoadError } from "../issues.ts";
import { indexBlobIfPossible, readIndexedGroup } from "../stream/indexedFile.ts";

const callbacks = {
  isCancelled: () => false,
  onProgress: () => undefined,
  onFirstGroup: () => undefined,
};

type Rollouts = LoadedDataset["groups"];

/** Each rollout as [line, id, group, reward], in line order. */
const rollouts = (groups: readonly Rollouts[number][]) =>
  groups
    .flatMap((g) => g.rollouts.map((r) => [r.source.line, r.id, g.id, r.reward ?? NaN] as const))
    .sort((a, b) => a[0] - b[0]);

/** The fields each line's issues name ("" for the line as a whole), by line. */
const issueFields = (list: LoadedDataset["issues"]): Map<number, Set<string>> => {
  const out = new Map<number, Set<string>>();
  for (const i of list) {
    const fields = out.get(i.line) ?? new Set<string>();
    fields.add(i.field ?? "");
    out.set(i.line, fields);
  }
  return out;
};

/**
 * The same lines have issues, and every field the index names is one the full parser names too.
 * (The index stops at the first key it finds wrong; the full parser lists every wrong field.)
 */
function expectSameIssues(index: LoadedDataset["issues"], whole: LoadedDataset["issues"]): void {
  const i = issueFields(index);
  const w = issueFields(whole);
  expect([...i.keys()].sort((a, b) => a - b)).toEqual([...w.keys()].sort((a, b) => a - b));
  for (const [line, fields] of i)
    for (const field of fields) expect(w.get(line), `line ${line}`).toContain(field);
}

type Outcome =
  | { readonly kind: "refused"; readonly message: string }
  | {
      readonly kind: "loaded";
      readonly result: Pick<LoadedDataset, "format" | "issues" | "stats" | "groups">;
    };

async function whole(name: string, bytes: Uint8Array, format?: string): Promise<Outcome> {
  try {
    return { kind: "loaded", result: await loadBytes(name, bytes, { format }) };
  } catch (e) {
    if (e instanceof LoadError) return { kind: "refused", message: e.message };
    throw e;
  }
}

/** The indexed load with every group parsed; null when the index declines the file. */
async function indexed(name: string, bytes: Uint8Array, format?: string): Promise<Outcome | null> {
  const file = new File([bytes as Uint8Array<ArrayBuffer>], name);
  let read: Awaited<ReturnType<typeof indexBlobIfPossible>>;
  try {
    read = await indexBlobIfPossible(file, format, callbacks);
  } catch (e) {
    if (e instanceof LoadError) return { kind: "refused", message: e.message };
    throw e;
  }
  if (read === null) return null;
  let dataset = read.dataset;
  for (const { id } of read.dataset.summaries.slice(1)) {
    const parsed = await readIndexedGroup(read.state, id);
    dataset = datasetWithParsedGroup(dataset, parsed.group, id, parsed.issues);
  }
  return { kind: "loaded", result: dataset };
}

/** Load through both paths and compare; returns what the whole-file path gave. */
async function expectSamePaths(name: string, bytes: Uint8Array, format?: string): Promise<Outcome> {
  const w = await whole(name, bytes, format);
  const i = await indexed(name, bytes, format);
  if (i === null) {
    // Declined: the studio loads it whole. Only files the whole path does not read as JSONL
    // (or a first value longer than the head) are declined.
    if (w.kind === "loaded")
      expect(w.result.format === "native" || w.result.format === "verl").toBe(false);
    return w;
  }
  if (i.kind === "refused") {
    expect(w.kind, `whole-file load of what the index refused (${i.message})`).toBe("refused");
    return w;
  }
  if (w.kind === "refused") {
    // "No rollout could be read": the index finds none either, once every group is parsed.
    expect(w.message).toMatch(/no rollout could be read/);
    expect(i.result.stats.rollouts).toBe(0);
    return w;
  }
  expect(i.result.format).toBe(w.result.format);
  expect(rollouts(i.result.groups)).toEqual(rollouts(w.result.groups));
  expectSameIssues(i.result.issues, w.result.issues);
  expect(i.result.stats).toEqual(w.result.stats);
  return w;
}

const encode = (text: string): Uint8Array => new TextEncoder().encode(text);
const concat = (...parts: Uint8Array[]): Uint8Array => concatBytes(parts);

const NATIVE = [
  '{"group_id": "g1", "id": "a", "completion": "4", "reward": 1}',
  '{"group_id": "g1", "id": "b", "completion": "5", "reward": 0}',
  '{"group_id": "g2", "id": "c", "completion": "6", "reward": 0.5}',
];

describe("a file that starts with whitespace reads the same through both paths", () => {
  for (const [label, size] of [
    ["10 MB", 10 << 20],
    ["300 KB (past the first 256 KB head)", 300 << 10],
    ["5 MB of blank lines", 5 << 20],
  ] as const) {
    it(
      label,
      async () => {
        const space = new Uint8Array(size).fill(label.includes("blank") ? 0x0a : 0x20);
        const bytes = concat(encode("\uFEFF"), space, encode(`\n${NATIVE.join("\n")}\n`));
        const w = await expectSamePaths("spaced.jsonl", bytes);
        expect(w.kind).toBe("loaded");
        if (w.kind === "loaded") expect(w.result.stats.rollouts).toBe(3);
        expect(await indexed("spaced.jsonl", bytes)).not.toBeNull();
      },
      60_000,
    );
  }

  for (const [label, rowBytes, lead] of [
    ["rows of 30 KB: the sample's 50 lines need a head of 1.5 MB", 30 << 10, 0],
    ["rows of 70 KB after 5 KB of spaces: the head grows to the 4 MB window", 70 << 10, 5 << 10],
    ["rows of 4 KB after 3 KB of spaces: the text starts within the first read", 4 << 10, 3 << 10],
  ] as const)
    it(
      label,
      async () => {
        const rows = Array.from({ length: 60 }, (_, i) => {
          const pad = "x".repeat(rowBytes);
          return `{"group_id": "g${i >> 2}", "id": "r${i}", "completion": "${pad}", "reward": ${i % 2}}`;
        });
        const bytes = concat(new Uint8Array(lead).fill(0x20), encode(`${rows.join("\n")}\n`));
        const w = await expectSamePaths("long.jsonl", bytes);
        expect(w.kind === "loaded" && w.result.stats.rollouts).toBe(60);
        expect(await indexed("long.jsonl", bytes)).not.toBeNull();
      },
      60_000,
    );

  it("a UTF-16 file is declined by the index and decoded whole, and says so through both", async () => {
    const text = `\uFEFF${NATIVE.join("\r\n")}\r\n`;
    const utf16 = new Uint8Array(text.length * 2);
    for (let i = 0; i < text.length; i++) {
      utf16[2 * i] = text.charCodeAt(i) & 0xff;
      utf16[2 * i + 1] = text.charCodeAt(i) >> 8;
    }
    expect(await indexed("ps.jsonl", utf16)).toBeNull();
    const w = await whole("ps.jsonl", utf16);
    expect(w.kind === "loaded" && w.result.stats.rollouts).toBe(3);
    const noBom = utf16.subarray(2);
    const i = await indexed("ps.jsonl", noBom);
    expect(i).toEqual({ kind: "refused", message: expect.stringMatching(/UTF-16LE/) as string });
    expect(await whole("ps.jsonl", noBom)).toEqual(i);
  });

  it("a file of only whitespace is empty through both", async () => {
    const bytes = new Uint8Array(2 << 20).fill(0x20);
    const w = await expectSamePaths("blank.jsonl", bytes);
    expect(w).toEqual({ kind: "refused", message: "blank.jsonl: the file is empty" });
  }, 60_000);
});

/** What one line of a fuzzed file is. */
const nativeRow = fc
  .record(
    {
      group_id: fc.constantFrom("g1", "g2", "g3", 4),
      id: fc.oneof(fc.constantFrom("a", "b", "c", "d", "e"), fc.nat(4)),
      completion: fc.string({ maxLength: 6 }),
      reward: fc.oneof(fc.double({ noNaN: true, min: -2, max: 2 }), fc.constantFrom(null, "x")),
    },
    { requiredKeys: ["group_id"] },
  )
  .map((r) => JSON.stringify(r));

const verlRow = fc
  .record({
    input: fc.constantFrom("user\nA\nassistant\n", "user\nB\nassistant\n"),
    output: fc.oneof(fc.string({ maxLength: 5 }), fc.constant(null)),
    gts: fc.constant("4"),
    score: fc.oneof(fc.double({ noNaN: true, min: -1, max: 1 }), fc.constant("1.0")),
    step: fc.oneof(fc.nat(3), fc.constant("2")),
  })
  .map((r) => JSON.stringify(r));

/** A line as the wild writes it: a row, or a blank, whitespace, bad or spoiled one. */
const line = (row: fc.Arbitrary<string>): fc.Arbitrary<string> =>
  fc.oneof(
    { weight: 10, arbitrary: row },
    { weight: 1, arbitrary: fc.constantFrom("", " ", "\t \t", " ".repeat(300)) },
    { weight: 1, arbitrary: fc.constantFrom("{bad", "garbage", "[1, 2", "}", "null", '"x"') },
    // Cut short, a BOM before it, a NUL inside it, a run of whitespace around it.
    { weight: 1, arbitrary: fc.tuple(row, fc.nat()).map(([r, n]) => r.slice(0, n % r.length)) },
    { weight: 1, arbitrary: row.map((r) => `\uFEFF${r}`) },
    {
      weight: 1,
      arbitrary: fc.tuple(row, fc.nat()).map(([r, n]) => {
        const at = n % (r.length + 1);
        return `${r.slice(0, at)}\0${r.slice(at)}`;
      }),
    },
    { weight: 1, arbitrary: row.map((r) => `   ${r}\t  `) },
  );

const file = (row: fc.Arbitrary<string>) =>
  fc.record({
    lines: fc.array(line(row), { minLength: 1, maxLength: 14 }),
    bom: fc.boolean(),
    lead: fc.constantFrom("", "\n", "\n\n  \n", " ".repeat(2000), "\r\n\r\n"),
    crlf: fc.boolean(),
    finalNewline: fc.boolean(),
  });

const render = (f: {
  lines: string[];
  bom: boolean;
  lead: string;
  crlf: boolean;
  finalNewline: boolean;
}): Uint8Array => {
  const eol = f.crlf ? "\r\n" : "\n";
  return encode((f.bom ? "\uFEFF" : "") + f.lead + f.lines.join(eol) + (f.finalNewline ? eol : ""));
};

describe("fuzzed JSONL files read the same through the byte index and the whole-file path", () => {
  test.prop([file(nativeRow), fc.boolean()], { numRuns: fuzzRuns(300) })(
    "native rows: same detection, rollouts and issues",
    async (f, forced) => {
      await expectSamePaths("rows.jsonl", render(f), forced ? "native" : undefined);
    },
    FUZZ_TIMEOUT,
  );
  test.prop([file(verlRow), fc.boolean()], { numRuns: fuzzRuns(200) })(
    "verl rows: same detection, rollouts and issues",
    async (f, forced) => {
      await expectSamePaths("12.jsonl", render(f), forced ? "verl" : undefined);
    },
    FUZZ_TIMEOUT,
  );
});
