/**
 * Load a rollout file from its bytes: find the container (JSONL, JSON array, JSON document, CSV,
 * Parquet, zip) from the content (sniff.ts), read its records (containers/read.ts), detect the
 * format from a sample of records (never the file name), parse every record at the boundary, and
 * account for every record: each becomes a rollout or an issue. Only a file with nothing usable
 * fails as a whole. This file only composes those steps.
 */
import type { RolloutGroup } from "../../core/index.ts";
import { readContainer } from "../containers/read.ts";
import type { RawRecord } from "../containers/types.ts";
import { LoadError, type ParseIssue } from "../issues.ts";
import { recordGuardIssue } from "./recordGuard.ts";
import { groupDrafts, type RolloutDraft } from "./records.ts";
import { FORMATS, formatById } from "./registry.ts";
import { asUtf8, SAMPLE_LINES, sniffFile } from "./sniff.ts";
import { emptyMessage, type Container, type FormatOptions, type FormatSpec } from "./spec.ts";

export interface LoadStats {
  /** Physical lines in the file (0 for binary containers). */
  readonly lines: number;
  /** Records seen: non-blank JSONL lines, array elements, CSV or Parquet rows, zip members, document entries. */
  readonly records: number;
  readonly rollouts: number;
  /** Records that produced no rollout; each has at least one issue. */
  readonly rejected: number;
  /** Blank JSONL lines, which hold no record. */
  readonly blank: number;
  /**
   * Records added by splitting one record into several (FormatSpec.explodeRecord: an Atropos line
   * of n rollouts is n records, n - 1 of them counted here); absent when none was split. For JSONL,
   * records - split + blank = lines.
   */
  readonly split?: number;
}

export interface FormatCandidate {
  readonly id: string;
  readonly label: string;
  readonly score: number;
}

export interface LoadResult {
  readonly file: string;
  readonly container: Container;
  readonly format: string;
  readonly formatLabel: string;
  readonly groupKey: string;
  /** Every format that matched, best first: what the UI offers as overrides. */
  readonly candidates: readonly FormatCandidate[];
  readonly groups: RolloutGroup[];
  readonly issues: ParseIssue[];
  readonly stats: LoadStats;
}

export interface LoadOptions {
  /** Force a format instead of detecting it. */
  readonly format?: string;
  readonly options?: FormatOptions;
}

/** The file matches several formats equally well: the caller must ask which one. */
export class AmbiguousFormatError extends LoadError {
  override name = "AmbiguousFormatError";
  readonly candidates: readonly FormatCandidate[];
  constructor(file: string, candidates: readonly FormatCandidate[]) {
    super(
      file,
      `matches several formats equally well (${candidates.map((c) => c.id).join(", ")}); choose one`,
    );
    this.candidates = candidates;
  }
}

function describeKnown(container: Container): string {
  const fitting = FORMATS.filter((f) => f.containers.includes(container));
  const all = fitting.length > 0 ? fitting : FORMATS;
  return all.map((f) => `${f.label} (keyed by ${f.groupKey})`).join("; ");
}

function rankCandidates(scores: Map<FormatSpec, number>): FormatCandidate[] {
  return [...scores.entries()]
    .filter(([, s]) => s > 0)
    .sort((a, b) => b[1] - a[1])
    .map(([f, score]) => ({ id: f.id, label: f.label, score }));
}

/**
 * Pick the format: the forced one if given (it must fit the container), else the best-scoring match
 * on a sample of records (or on the whole document). A tie is never broken silently.
 *
 * @throws LoadError for an unknown or unfitting forced format, or no match; AmbiguousFormatError on a tie
 */
export function chooseFormat(
  file: string,
  container: Container,
  sample: readonly unknown[],
  document: unknown,
  forcedId: string | undefined,
): { spec: FormatSpec; candidates: FormatCandidate[] } {
  const forced = forcedId === undefined ? undefined : formatById(forcedId);
  if (forcedId !== undefined && forced === undefined) {
    throw new LoadError(
      file,
      `unknown format "${forcedId}"; known: ${FORMATS.map((f) => f.id).join(", ")}`,
    );
  }
  const scores = new Map<FormatSpec, number>();
  for (const f of FORMATS) {
    if (!f.containers.includes(container)) continue;
    if (container === "json-document") scores.set(f, f.explode?.(document) != null ? 3 : 0);
    else scores.set(f, Math.max(0, ...sample.map((v) => f.match(v))));
  }
  const candidates = rankCandidates(scores);
  if (forced !== undefined) {
    if (!forced.containers.includes(container)) {
      throw new LoadError(
        file,
        `${forced.label} is read from ${forced.containers.join(" or ")}, but this file is ${container}`,
      );
    }
    return { spec: forced, candidates };
  }
  const best = candidates[0];
  if (best === undefined) {
    throw new LoadError(
      file,
      `is in no known format. This looks like ${container}; known formats for it: ${describeKnown(container)}.`,
    );
  }
  const tied = candidates.filter((c) => c.score === best.score);
  if (tied.length > 1) throw new AmbiguousFormatError(file, tied);
  return { spec: formatById(best.id)!, candidates };
}

/**
 * Load a file.
 *
 * @param file the name used in every message
 * @throws LoadError when the file is empty, binary, in no known format, or yields no rollout at all;
 *   AmbiguousFormatError when two formats match equally well and none was chosen
 */
export async function loadBytes(
  file: string,
  bytes: Uint8Array,
  load: LoadOptions = {},
): Promise<LoadResult> {
  const text = asUtf8(bytes);
  const sniffed = sniffFile(file, text, load.format);
  const container = sniffed.container;
  const read = await readContainer(file, text, container, FORMATS);
  const options = load.options ?? {};
  const issues = [...read.issues];
  let records = read.records;
  let seen = read.seen;
  if (container === "json-array" && seen === 0 && issues.length === 0)
    throw new LoadError(file, "holds an empty JSON array ([]): there are no records in it to load");

  const { spec, candidates } = chooseFormat(
    file,
    container,
    sniffed.sample ?? read.records.slice(0, SAMPLE_LINES).map((r) => r.value),
    read.document,
    // A zip is its format's from its members' names, even when no record in it can be read.
    load.format ?? read.format,
  );
  if (container === "json-document") {
    const entries = spec.explode?.(read.document) ?? [];
    records = entries.map((e) => ({ ref: { file, line: 0, member: e.path }, value: e.value }));
    seen = records.length;
    if (seen === 0) throw new LoadError(file, emptyMessage(spec, { document: read.document }));
  }
  let split = 0;
  if (spec.explodeRecord !== undefined) {
    const parts = explodeRecords(records, spec.explodeRecord);
    split = parts.length - records.length;
    records = parts;
    seen += split;
  }

  const drafts: RolloutDraft[] = [];
  let rejected = read.seen - read.records.length;
  for (const r of records) {
    const guarded = recordGuardIssue(r.ref, r.value);
    if (guarded !== null) {
      rejected++;
      issues.push(guarded);
      continue;
    }
    const outcome = spec.record(r.ref, r.value, options);
    if (outcome.ok) drafts.push(outcome.value);
    else {
      rejected++;
      issues.push(...outcome.issues);
    }
  }
  const grouped = groupDrafts(drafts);
  for (const issue of grouped.issues) issues.push(issue); // no spread: it may hold 100,000s
  rejected += grouped.issues.length;
  // Members in natural order: "[2]" before "[10]", "samples[9]" before "samples[10]".
  issues.sort(
    (a, b) =>
      a.line - b.line || (a.member ?? "").localeCompare(b.member ?? "", "en", { numeric: true }),
  );
  const rollouts = grouped.groups.reduce((s, g) => s + g.rollouts.length, 0);
  if (rollouts === 0) {
    const detail = issues
      .slice(0, 3)
      .map(
        (i) =>
          `${i.line > 0 ? `line ${i.line}` : (i.member ?? "")}: ${i.field ? `${i.field}: ` : ""}${i.message}`,
      );
    throw new LoadError(
      file,
      `no rollout could be read as ${spec.label} (${seen} record(s), every one rejected)` +
        (detail.length > 0 ? `; first problems: ${detail.join("; ")}` : ""),
    );
  }
  return {
    file,
    container,
    format: spec.id,
    formatLabel: spec.label,
    groupKey: spec.groupKey,
    candidates,
    groups: grouped.groups,
    issues,
    stats: {
      lines: read.lines,
      records: seen,
      rollouts,
      rejected,
      blank: read.blank,
      ...(split > 0 ? { split } : {}),
    },
  };
}

/**
 * Records split by the format into one per rollout (see FormatSpec.explodeRecord). A record the
 * guard refuses is not split: it stays one record, rejected with the guard's issue.
 */
function explodeRecords(
  records: readonly RawRecord[],
  explode: NonNullable<FormatSpec["explodeRecord"]>,
): RawRecord[] {
  const out: RawRecord[] = [];
  for (const r of records) {
    const parts = recordGuardIssue(r.ref, r.value) === null ? explode(r.value) : null;
    if (parts === null || parts.length === 0) {
      out.push(r);
      continue;
    }
    for (const p of parts) {
      const member = r.ref.member === undefined ? p.member : `${r.ref.member}${p.member}`;
      out.push({ ref: { ...r.ref, member }, value: p.value });
    }
  }
  return out;
}

/** Load from text (tests, small inputs). */
export function loadText(file: string, text: string, load: LoadOptions = {}): Promise<LoadResult> {
  return loadBytes(file, new TextEncoder().encode(text), load);
}
