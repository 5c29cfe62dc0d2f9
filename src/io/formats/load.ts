/**
 * Load a rollout file from its text: detect the format from the content (never the file name), parse
 * every record at the boundary, and account for every line: each non-blank line (or array element)
 * becomes a rollout or an issue.
 */
import type { RolloutGroup } from "../../core/index.ts";
import { LoadError, type ParseIssue } from "../issues.ts";
import { splitJsonArray, splitLines, stripBom } from "../jsonl/lines.ts";
import { nativeLooksLike, nativeRecord } from "./native.ts";
import { groupDrafts, type RecordOutcome, type RolloutDraft } from "./records.ts";
import { tauBenchLooksLike, tauBenchRecord } from "./tauBench.ts";

export type FormatId = "native" | "tau-bench";

interface FormatSpec {
  readonly id: FormatId;
  readonly label: string;
  readonly container: "jsonl" | "json-array";
  readonly groupKey: string;
  readonly looksLike: (value: unknown) => boolean;
  readonly record: (file: string, line: number, value: unknown) => RecordOutcome;
}

export const FORMATS: readonly FormatSpec[] = [
  {
    id: "native",
    label: "Rollout Studio JSONL",
    container: "jsonl",
    groupKey: "group_id",
    looksLike: nativeLooksLike,
    record: nativeRecord,
  },
  {
    id: "tau-bench",
    label: "tau-bench results",
    container: "json-array",
    groupKey: "task_id",
    looksLike: tauBenchLooksLike,
    record: tauBenchRecord,
  },
];

export interface LoadStats {
  /** Physical lines in the file. */
  readonly lines: number;
  /** Records seen: non-blank JSONL lines, or JSON array elements. */
  readonly records: number;
  readonly rollouts: number;
  /** Records that produced no rollout; each has at least one issue. */
  readonly rejected: number;
  /** Blank JSONL lines, which hold no record. */
  readonly blank: number;
}

export interface LoadResult {
  readonly file: string;
  readonly format: FormatId;
  readonly formatLabel: string;
  readonly groupKey: string;
  readonly groups: RolloutGroup[];
  readonly issues: ParseIssue[];
  readonly stats: LoadStats;
}

interface RawRecord {
  readonly line: number;
  readonly text: string;
}

function tryParse(text: string): { ok: true; value: unknown } | { ok: false; message: string } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (e) {
    return { ok: false, message: e instanceof Error ? e.message : String(e) };
  }
}

function preview(text: string): string {
  return text.length > 60 ? `${text.slice(0, 60)}…` : text;
}

/**
 * Load a file's text.
 *
 * @param file the name used in every message
 * @param format force a format instead of detecting it
 * @throws LoadError when the file is empty or in no known format
 */
export function loadText(file: string, text: string, format?: FormatId): LoadResult {
  const body = stripBom(text);
  const trimmed = body.trimStart();
  if (trimmed === "") throw new LoadError(file, "the file is empty");
  const lineCount = splitLines(body).length;
  const issues: ParseIssue[] = [];
  let records: RawRecord[];
  let container: "jsonl" | "json-array";
  if (trimmed.startsWith("[")) {
    container = "json-array";
    const split = splitJsonArray(body);
    records = [...split.elements];
    if (split.error) issues.push({ file, line: split.error.line, message: split.error.message });
  } else {
    container = "jsonl";
    records = splitLines(body).filter((l) => l.text.trim() !== "");
  }
  const blank = container === "jsonl" ? lineCount - records.length : 0;

  const parsed: ({ line: number; value: unknown } | null)[] = records.map((r) => {
    const p = tryParse(r.text);
    if (p.ok) return { line: r.line, value: p.value };
    issues.push({
      file,
      line: r.line,
      message: `not valid JSON (${p.message}): ${preview(r.text.trim())}`,
    });
    return null;
  });

  const spec =
    format === undefined ? detect(file, container, parsed) : FORMATS.find((f) => f.id === format)!;
  if (spec.container !== container) {
    throw new LoadError(
      file,
      `${spec.label} files are ${spec.container === "jsonl" ? "JSON lines" : "a JSON array"}, but this file is not`,
    );
  }
  const drafts: RolloutDraft[] = [];
  let rejected = parsed.filter((p) => p === null).length;
  for (const p of parsed) {
    if (p === null) continue;
    const outcome = spec.record(file, p.line, p.value);
    if (outcome.ok) drafts.push(outcome.value);
    else {
      rejected++;
      issues.push(...outcome.issues);
    }
  }
  const grouped = groupDrafts(drafts);
  issues.push(...grouped.issues);
  rejected += grouped.issues.length;
  issues.sort((a, b) => a.line - b.line);
  const rollouts = grouped.groups.reduce((s, g) => s + g.rollouts.length, 0);
  return {
    file,
    format: spec.id,
    formatLabel: spec.label,
    groupKey: spec.groupKey,
    groups: grouped.groups,
    issues,
    stats: { lines: lineCount, records: records.length, rollouts, rejected, blank },
  };
}

function detect(
  file: string,
  container: "jsonl" | "json-array",
  parsed: readonly ({ value: unknown } | null)[],
): FormatSpec {
  const sample = parsed.filter((p) => p !== null).slice(0, 20);
  const candidates = FORMATS.filter(
    (f) => f.container === container && sample.some((p) => f.looksLike(p.value)),
  );
  if (candidates.length === 1) return candidates[0]!;
  const known = FORMATS.map(
    (f) =>
      `${f.label} (${f.container === "jsonl" ? "JSON lines" : "JSON array"} keyed by ${f.groupKey})`,
  ).join(", ");
  if (candidates.length === 0) {
    throw new LoadError(file, `is in no known format. Known formats: ${known}.`);
  }
  throw new LoadError(
    file,
    `matches several formats (${candidates.map((c) => c.label).join(", ")}); choose one`,
  );
}
