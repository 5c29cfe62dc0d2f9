/**
 * Helpers the format readers share: plain-object checks, dotted field paths, numbers that arrive as
 * text (CSV) or NaN (Parquet), the prompt/transcript split, and "everything else goes to meta".
 */
import { z } from "zod";
import type { ChatMessage } from "../../core/index.ts";
import type { ParseIssue } from "../issues.ts";
import { shortHash } from "./hash.ts";
import { describeValue } from "./schemaParts.ts";
import type { RecordRef } from "./spec.ts";
import { fieldPath } from "./zodIssues.ts";

/** True for a JSON object (not an array, not null). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A zod error callback: "is required (what)" for a missing value, else "expected what, got …". */
export const expected = (what: string) => (issue: { input: unknown }) =>
  issue.input === undefined
    ? `is required (${what})`
    : `expected ${what}, got ${describeValue(issue.input)}`;

/**
 * An integer, or integer text such as TRL's string steps ("40", or pandas' "40.0" from a float
 * column); returned as a number.
 */
export const integerLike = z.union(
  [
    z.number().check(z.int()),
    z
      .string()
      .regex(/^-?\d+(\.0*)?$/)
      .transform((s) => Number(s)),
  ],
  { error: expected("an integer") },
);

/**
 * Look a field up by path: the whole path as one key first (CSV headers may contain dots), then
 * dot-separated keys, where a numeric segment or `[i]` indexes an array ("meta.scores[0].value").
 * Returns undefined when any step is missing.
 */
export function fieldAt(record: unknown, path: string): unknown {
  if (isPlainObject(record) && Object.hasOwn(record, path)) return record[path];
  const segments = path
    .replace(/\[(\d+)\]/g, ".$1")
    .split(".")
    .filter((s) => s !== "");
  let at: unknown = record;
  for (const segment of segments) {
    if (Array.isArray(at) && /^\d+$/.test(segment)) at = at[Number(segment)];
    else if (isPlainObject(at) && Object.hasOwn(at, segment)) at = at[segment];
    else return undefined;
  }
  return at;
}

/** Text spellings of a missing number: pandas writes NaN as "" in CSV; Python prints nan/NaN/None. */
const MISSING_TEXT = new Set(["", "nan", "none", "null", "na", "n/a"]);
const NUMBER_TEXT = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
const INFINITE_TEXT = /^[+-]?(inf|infinity)$/i;

/** What a reward-like cell holds. */
export type NumericCell =
  | { readonly kind: "number"; readonly value: number }
  /** null, NaN, "", "nan", "None": the component does not apply (TRL's None reward). */
  | { readonly kind: "missing" }
  /** ±Infinity, as a number or as text: never a usable reward. */
  | { readonly kind: "infinite" }
  /** Anything else: text, objects, booleans. */
  | { readonly kind: "other" };

/** Classify a cell that should hold a number; numeric text (CSV) counts as a number. */
export function numericCell(value: unknown): NumericCell {
  if (value === null || value === undefined) return { kind: "missing" };
  if (typeof value === "number") {
    if (Number.isNaN(value)) return { kind: "missing" };
    return Number.isFinite(value) ? { kind: "number", value } : { kind: "infinite" };
  }
  if (typeof value === "string") {
    const text = value.trim();
    if (MISSING_TEXT.has(text.toLowerCase())) return { kind: "missing" };
    if (NUMBER_TEXT.test(text)) return { kind: "number", value: Number(text) };
    if (INFINITE_TEXT.test(text)) return { kind: "infinite" };
  }
  return { kind: "other" };
}

/**
 * A reward-like cell as number | null, or an issue naming the field: missing → null; text that is
 * not a number, booleans, objects and infinities are rejected.
 */
export function rewardCell(
  ref: RecordRef,
  field: string,
  value: unknown,
): { ok: true; value: number | null } | { ok: false; issue: ParseIssue } {
  const cell = numericCell(value);
  if (cell.kind === "number") return { ok: true, value: cell.value };
  if (cell.kind === "missing") return { ok: true, value: null };
  const shown = typeof value === "number" ? String(value) : describeValue(value);
  const what =
    cell.kind === "infinite"
      ? "a finite number (or empty/NaN for none)"
      : "a number (or empty/NaN for none)";
  return {
    ok: false,
    issue: { ...ref, field, message: `expected ${what}, got ${shown}` },
  };
}

/** An optional reward-like field: absent or missing is null; a bad value adds its issue (null). */
export function optionalReward(
  ref: RecordRef,
  field: string,
  value: unknown,
  issues: ParseIssue[],
): number | null {
  if (value === undefined) return null;
  const cell = rewardCell(ref, field, value);
  if (cell.ok) return cell.value;
  issues.push(cell.issue);
  return null;
}

/** A chat transcript split into the prompt a rollout answers and the turns it took. */
export interface TranscriptSplit {
  /** The turns before the first assistant turn; null when there are none or no assistant turn. */
  readonly prompt: ChatMessage[] | null;
  /** From the first assistant turn on; every turn when there is no assistant turn at all. */
  readonly messages: ChatMessage[];
  /**
   * The turns before the first assistant turn (every turn when there is none): what grouping by
   * equal prompts compares, so a row without a reply still joins its prompt's group.
   */
  readonly lead: ChatMessage[];
}

/**
 * The one prompt/transcript split every chat-bearing loader uses (chat rows, tau-bench, tau2,
 * Inspect, benchmax, whileai, the mapping, and the agent trajectories): the turns before the first
 * assistant turn are the prompt, the rest the transcript. With no assistant turn at all (a sample
 * that errored before the model answered, a transcript of tool output), every turn is the transcript
 * and there is no prompt, so the rollout is not empty: its final text is the last message's text
 * (core's `textFromMessages`), and judges and clustering read it.
 */
export function splitTranscript(turns: readonly ChatMessage[]): TranscriptSplit {
  const at = turns.findIndex((m) => m.role === "assistant");
  if (at === -1) return { prompt: null, messages: [...turns], lead: [...turns] };
  const lead = turns.slice(0, at);
  return { prompt: lead.length > 0 ? lead : null, messages: turns.slice(at), lead };
}

/** A stable hash of prompt messages: roles, contents and tool calls, not ids or timestamps. */
export function messagesHash(messages: readonly ChatMessage[]): string {
  return shortHash(
    JSON.stringify(
      messages.map((m) => [m.role, m.content, m.toolCalls.map((c) => [c.name, c.arguments])]),
    ),
  );
}

/** The record's fields minus the given keys, for meta. */
export function omitKeys(
  record: Readonly<Record<string, unknown>>,
  keys: Iterable<string>,
): Record<string, unknown> {
  // A loop over the keys, not Object.fromEntries(Object.entries(...).filter(...)): every row's meta
  // is built here, and the entry arrays were a tenth of a verl run's load.
  const drop = Array.isArray(keys) ? (keys as readonly string[]) : [...keys];
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(record)) {
    if (drop.includes(k)) continue;
    // An own "__proto__" key stays a key, as Object.fromEntries keeps it (assignment would not).
    if (k === "__proto__")
      Object.defineProperty(out, k, {
        value: record[k],
        enumerable: true,
        writable: true,
        configurable: true,
      });
    else out[k] = record[k];
  }
  return out;
}

/** The same issue for a record that is not a JSON object, in the zod wording the loaders share. */
export function notAnObject(ref: RecordRef, value: unknown): ParseIssue {
  return {
    ...ref,
    message: `expected a JSON object, got ${Array.isArray(value) ? "an array" : describeValue(value)}`,
  };
}

interface FlatIssue {
  readonly path: readonly PropertyKey[];
  readonly message: string;
}

/**
 * Zod reports a failed union as one vague "Invalid input" at the union's path. Look inside: when a
 * branch got further into the value (a tool call whose `function.name` is missing), report that
 * branch's deepest problem; when every branch failed on the value itself, list what was expected.
 */
function flattenIssue(issue: z.core.$ZodIssue, base: readonly PropertyKey[]): FlatIssue[] {
  const path = [...base, ...issue.path];
  if (issue.code === "invalid_type" && /received undefined$/.test(issue.message)) {
    return [{ path, message: `is required (${String(issue.expected)})` }];
  }
  // A union with its own message (schemaParts' idLike) already says what it wanted.
  if (
    issue.code !== "invalid_union" ||
    issue.errors.length === 0 ||
    issue.message !== "Invalid input"
  ) {
    return [{ path, message: issue.message }];
  }
  const branches = issue.errors.map((branch) => branch.flatMap((i) => flattenIssue(i, path)));
  const depth = (branch: FlatIssue[]) => Math.max(0, ...branch.map((i) => i.path.length));
  const deepest = Math.max(...branches.map(depth));
  if (deepest > path.length) return branches.find((b) => depth(b) === deepest)!;
  const atRoot = issue.errors.flat().filter((i) => i.path.length === 0);
  const wanted = [
    ...new Set(atRoot.flatMap((i) => (i.code === "invalid_type" ? [String(i.expected)] : []))),
  ];
  const received = /received (\w+)/.exec(atRoot[0]?.message ?? "")?.[1];
  if (wanted.length === 0 || received === undefined) return [{ path, message: issue.message }];
  const list =
    wanted.length === 1
      ? wanted[0]!
      : `${wanted.slice(0, -1).join(", ")} or ${wanted[wanted.length - 1]!}`;
  return [{ path, message: `Invalid input: expected ${list}, received ${received}` }];
}

/**
 * ParseIssues from a zod error, naming the file, line or member, and the field path; failed unions
 * are reported by their most specific problem (see flattenIssue).
 */
export function schemaIssues(ref: RecordRef, error: z.ZodError, prefix = ""): ParseIssue[] {
  return error.issues
    .flatMap((issue) => flattenIssue(issue, []))
    .map((issue) => ({
      ...ref,
      field: fieldPath(issue.path, prefix) || undefined,
      message: issue.message,
    }));
}
