/**
 * Hostile inputs for the loader fuzz tests (io/loaders.prop.test.ts, io/stream/indexedFile.prop.test.ts):
 * fast-check arbitraries that describe mutations of a real fixture, and pure functions that apply
 * them. A mutation is data (shrinkable, printable in a counterexample), not a closure.
 *
 * The mutations are the ones a file meets in the wild: a line cut short, a field of the wrong type,
 * Python's bare NaN/Infinity (what `json.dumps` writes) and their text spellings, a byte-order mark,
 * CRLF line ends, NUL and invalid UTF-8 bytes, very long lines, deep nesting, `__proto__` keys, and
 * lines deleted, duplicated, swapped or replaced by garbage.
 */
import { fc } from "@fast-check/vitest";

/** What replaces one node of a JSON value. */
export type JsonReplacement =
  | { readonly kind: "value"; readonly value: unknown }
  /** A bare token, not JSON: what Python's json.dumps writes for float("nan") and the infinities. */
  | { readonly kind: "token"; readonly token: "NaN" | "Infinity" | "-Infinity" }
  | { readonly kind: "deep"; readonly depth: number; readonly shape: "array" | "object" }
  | { readonly kind: "long"; readonly length: number; readonly char: string }
  | { readonly kind: "delete" }
  /** Add a key to the object at (or above) the node: prototype keys, an empty key, a wanted key. */
  | { readonly kind: "addKey"; readonly key: string; readonly value: unknown };

export interface JsonEdit {
  /** Which node, by position in a depth-first listing (modulo the node count). */
  readonly at: number;
  readonly replacement: JsonReplacement;
}

const TEXT_SPELLINGS = ["NaN", "nan", "Infinity", "-Infinity", "inf", "None", "", " ", "1e999"];
const KEYS = [
  "__proto__",
  "constructor",
  "toString",
  "",
  "group_id",
  "id",
  "reward",
  "rewards",
  "messages",
  "content",
  "role",
  "tool_calls",
];

/** A value of some other type than the one the loader expects. */
const wrongValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom<unknown>(null, true, false, 0, -1, 1.5, 1e308, -0, "", "x", [], {}, [null], {
    a: 1,
  }),
  fc.constantFrom(...TEXT_SPELLINGS),
  fc.jsonValue({ maxDepth: 2 }),
  fc.string({ unit: "binary", maxLength: 8 }),
);

export const jsonReplacement: fc.Arbitrary<JsonReplacement> = fc.oneof(
  { weight: 5, arbitrary: wrongValue.map((value) => ({ kind: "value" as const, value })) },
  {
    weight: 2,
    arbitrary: fc
      .constantFrom("NaN" as const, "Infinity" as const, "-Infinity" as const)
      .map((token) => ({ kind: "token" as const, token })),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant("deep" as const),
      depth: fc.constantFrom(64, 1_000, 20_000),
      shape: fc.constantFrom("array" as const, "object" as const),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant("long" as const),
      length: fc.constantFrom(70_000, 300_000),
      char: fc.constantFrom("x", "é", "\\n", "😀"),
    }),
  },
  { weight: 2, arbitrary: fc.constant({ kind: "delete" as const }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant("addKey" as const),
      key: fc.constantFrom(...KEYS),
      value: wrongValue,
    }),
  },
);

export const jsonEdits: fc.Arbitrary<JsonEdit[]> = fc.array(
  fc.record({ at: fc.nat(), replacement: jsonReplacement }),
  { minLength: 1, maxLength: 3 },
);

interface Slot {
  readonly parent: Record<string, unknown> | unknown[] | null;
  readonly key: string | number;
}

/** Every node of a JSON value, depth first; the root has no parent. */
function slots(root: unknown): Slot[] {
  const out: Slot[] = [{ parent: null, key: 0 }];
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) {
      v.forEach((child, i) => {
        out.push({ parent: v, key: i });
        walk(child);
      });
    } else if (typeof v === "object" && v !== null) {
      for (const [k, child] of Object.entries(v)) {
        out.push({ parent: v as Record<string, unknown>, key: k });
        walk(child);
      }
    }
  };
  walk(root);
  return out;
}

const placeholder = (n: number): string => `__FUZZ_PLACEHOLDER_${n}__`;

function rawText(r: JsonReplacement): string | null {
  switch (r.kind) {
    case "token":
      return r.token;
    case "deep":
      return r.shape === "array"
        ? "[".repeat(r.depth) + "]".repeat(r.depth)
        : '{"a":'.repeat(r.depth) + "1" + "}".repeat(r.depth);
    default:
      return null;
  }
}

/**
 * Apply edits to a JSON value (in place: pass a fresh JSON.parse result) and serialise it
 * (`indent` as JSON.stringify's). Bare tokens and deep nesting are spliced in as text after
 * serialising, so the result can be something no JSON value stringifies to.
 */
export function applyJsonEdits(
  value: unknown,
  edits: readonly JsonEdit[],
  indent?: number,
): string {
  let root: unknown = value;
  const raw: string[] = [];
  for (const edit of edits) {
    const all = slots(root);
    const slot = all[edit.at % all.length]!;
    const r = edit.replacement;
    let next: unknown;
    if (r.kind === "value") next = structuredClone(r.value);
    else if (r.kind === "long") next = r.char.repeat(Math.ceil(r.length / r.char.length));
    else if (r.kind === "delete") next = undefined;
    else if (r.kind === "addKey") {
      const current =
        slot.parent === null ? root : (slot.parent as Record<string, unknown>)[slot.key];
      const target =
        typeof current === "object" && current !== null && !Array.isArray(current)
          ? current
          : !Array.isArray(slot.parent) && slot.parent !== null
            ? slot.parent
            : null;
      // defineProperty, so that "__proto__" becomes an own key as JSON.parse would make it.
      if (target !== null)
        Object.defineProperty(target, r.key, {
          value: structuredClone(r.value),
          enumerable: true,
          writable: true,
          configurable: true,
        });
      continue;
    } else {
      raw.push(rawText(r)!);
      next = placeholder(raw.length - 1);
    }
    if (slot.parent === null) root = next === undefined ? {} : next;
    else if (Array.isArray(slot.parent)) {
      if (next === undefined) slot.parent.splice(slot.key as number, 1);
      else slot.parent[slot.key as number] = next;
    } else if (next === undefined) delete slot.parent[slot.key];
    else
      Object.defineProperty(slot.parent, slot.key, {
        value: next,
        enumerable: true,
        writable: true,
        configurable: true,
      });
  }
  let text = JSON.stringify(root, null, indent) ?? "null";
  raw.forEach((t, n) => {
    text = text.replace(`"${placeholder(n)}"`, () => t);
  });
  return text;
}

/** One edit of a line-based file (JSONL or CSV), by line position (modulo the line count). */
export type LineEdit =
  | { readonly kind: "truncate"; readonly line: number; readonly at: number }
  | { readonly kind: "json"; readonly line: number; readonly edits: readonly JsonEdit[] }
  | { readonly kind: "cell"; readonly line: number; readonly cell: number; readonly text: string }
  | { readonly kind: "delete"; readonly line: number }
  | { readonly kind: "duplicate"; readonly line: number }
  | { readonly kind: "swap"; readonly line: number; readonly other: number }
  | { readonly kind: "insert"; readonly line: number; readonly text: string }
  | { readonly kind: "long"; readonly line: number; readonly length: number };

/** Garbage and blank lines: fragments that look like JSON or CSV often enough to get somewhere. */
const lineText: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    "",
    " ",
    "\t",
    "{",
    "}",
    "[1,2]",
    "null",
    '"text"',
    "{}",
    '{"group_id": NaN}',
    '{"a": Infinity, "b": -Infinity}',
    '{"__proto__": {"x": 1}}',
    "a,b,c",
    '"unclosed,quote',
    '""",""',
    "\u2028",
    "\u202e\u200b",
  ),
  fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)),
  fc.string({ unit: "binary", maxLength: 40 }),
);

const CELL_TEXT = [
  "NaN",
  "nan",
  "inf",
  "-Infinity",
  "",
  '"',
  '""',
  '"a,b"',
  '"open',
  "1e999",
  "x",
  "-0",
  "\u202e",
];

export const lineEdit: fc.Arbitrary<LineEdit> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({ kind: fc.constant("truncate" as const), line: fc.nat(), at: fc.nat() }),
  },
  {
    weight: 6,
    arbitrary: fc.record({ kind: fc.constant("json" as const), line: fc.nat(), edits: jsonEdits }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant("cell" as const),
      line: fc.nat(),
      cell: fc.nat(),
      text: fc.oneof(fc.constantFrom(...CELL_TEXT), fc.string({ maxLength: 6 })),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("delete" as const), line: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("duplicate" as const), line: fc.nat() }) },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant("swap" as const), line: fc.nat(), other: fc.nat() }),
  },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant("insert" as const), line: fc.nat(), text: lineText }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant("long" as const),
      line: fc.nat(),
      length: fc.constantFrom(70_000, 300_000),
    }),
  },
);

/** Byte-level damage, applied after encoding: NUL, invalid UTF-8, a cut, overwritten bytes. */
export type ByteEdit =
  | { readonly kind: "insert"; readonly at: number; readonly bytes: readonly number[] }
  | { readonly kind: "overwrite"; readonly at: number; readonly bytes: readonly number[] }
  | { readonly kind: "cut"; readonly at: number };

export const byteEdit: fc.Arbitrary<ByteEdit> = fc.oneof(
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant("insert" as const),
      at: fc.nat(),
      bytes: fc.oneof(
        fc.constantFrom([0x00], [0xff], [0xc3], [0xed, 0xa0, 0x80], [0xef, 0xbb, 0xbf], [0x0d]),
        fc.array(fc.integer({ min: 0, max: 255 }), { minLength: 1, maxLength: 4 }),
      ),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant("overwrite" as const),
      at: fc.nat(),
      bytes: fc.array(fc.integer({ min: 0, max: 255 }), { minLength: 1, maxLength: 16 }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("cut" as const), at: fc.nat() }) },
);

export interface TextFileMutation {
  readonly lines: readonly LineEdit[];
  readonly bom: boolean;
  readonly crlf: boolean;
  /** true: end with a newline; false: drop the final newline; null: leave it. */
  readonly finalNewline: boolean | null;
  readonly bytes: readonly ByteEdit[];
}

export const textFileMutation: fc.Arbitrary<TextFileMutation> = fc.record({
  lines: fc.array(lineEdit, { maxLength: 4 }),
  bom: fc.boolean(),
  crlf: fc.boolean(),
  finalNewline: fc.constantFrom(true, false, null),
  bytes: fc.oneof(
    { weight: 4, arbitrary: fc.constant([]) },
    { weight: 1, arbitrary: fc.array(byteEdit, { minLength: 1, maxLength: 2 }) },
  ),
});

/** Split a CSV line on commas, ignoring quotes: crude on purpose, the result only has to be hostile. */
function editCell(line: string, cell: number, text: string): string {
  const cells = line.split(",");
  cells[cell % cells.length] = text;
  return cells.join(",");
}

function applyLineEdit(lines: string[], edit: LineEdit): void {
  if (lines.length === 0) {
    if (edit.kind === "insert") lines.push(edit.text);
    return;
  }
  const i = edit.line % lines.length;
  const line = lines[i]!;
  switch (edit.kind) {
    case "truncate":
      lines[i] = line.slice(0, edit.at % (line.length + 1));
      return;
    case "json":
      // A line that is not JSON, or nested too deeply to serialise again, stays as it is.
      try {
        lines[i] = applyJsonEdits(JSON.parse(line), edit.edits);
      } catch {
        // Left unchanged.
      }
      return;
    case "cell":
      lines[i] = editCell(line, edit.cell, edit.text);
      return;
    case "delete":
      lines.splice(i, 1);
      return;
    case "duplicate":
      lines.splice(i, 0, line);
      return;
    case "swap": {
      const j = edit.other % lines.length;
      [lines[i], lines[j]] = [lines[j]!, line];
      return;
    }
    case "insert":
      lines.splice(i, 0, edit.text);
      return;
    case "long":
      // Into the middle of the line, so it stays JSON when the middle is inside a string.
      lines[i] =
        line.slice(0, line.length >> 1) + "y".repeat(edit.length) + line.slice(line.length >> 1);
      return;
  }
}

/** Apply byte edits in order (positions modulo the current length). */
export function applyByteEdits(bytes: Uint8Array, edits: readonly ByteEdit[]): Uint8Array {
  let out = bytes;
  for (const e of edits) {
    const at = e.at % (out.length + 1);
    if (e.kind === "cut") out = out.slice(0, at);
    else if (e.kind === "insert") {
      const next = new Uint8Array(out.length + e.bytes.length);
      next.set(out.subarray(0, at), 0);
      next.set(e.bytes, at);
      next.set(out.subarray(at), at + e.bytes.length);
      out = next;
    } else {
      out = out.slice();
      e.bytes.forEach((b, k) => {
        if (at + k < out.length) out[at + k] = b;
      });
    }
  }
  return out;
}

const encoder = new TextEncoder();

/** Mutate a line-based text file (JSONL, CSV, or pretty-printed JSON) and encode it. */
export function mutateTextFile(text: string, m: TextFileMutation): Uint8Array<ArrayBuffer> {
  const hadFinal = text.endsWith("\n");
  const lines = text.replace(/\r?\n$/, "").split(/\r?\n/);
  for (const edit of m.lines) applyLineEdit(lines, edit);
  const eol = m.crlf ? "\r\n" : "\n";
  const final = (m.finalNewline ?? hadFinal) ? eol : "";
  const body = (m.bom ? "\uFEFF" : "") + lines.join(eol) + final;
  const bytes = encoder.encode(body);
  return m.bytes.length === 0 ? bytes : new Uint8Array(applyByteEdits(bytes, m.bytes));
}

/** Random records for the "random input" half: JSON values, as objects most of the time. */
export const randomRecord: fc.Arbitrary<unknown> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.dictionary(
      fc.oneof(
        fc.constantFrom(...KEYS, "task_id", "traj", "prompt", "completion", "score"),
        fc.string({ maxLength: 5 }),
      ),
      fc.oneof(wrongValue, fc.jsonValue({ maxDepth: 3 })),
      { maxKeys: 8 },
    ),
  },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
);

/**
 * A fuzz test's run count: `runs` by default, sized to keep the fuzz suite near 20 s on the 2-core
 * CI machine; `FUZZ_SCALE=20 npx vitest run …prop.test.ts` fuzzes 20 times harder locally.
 */
export function fuzzRuns(runs: number): number {
  const scale = Number(import.meta.env.FUZZ_SCALE ?? 1);
  return Math.max(1, Math.round(runs * (Number.isFinite(scale) && scale > 0 ? scale : 1)));
}

/** Per-test timeout for fuzz tests: generous, since FUZZ_SCALE multiplies their work. */
export const FUZZ_TIMEOUT = 600_000;
