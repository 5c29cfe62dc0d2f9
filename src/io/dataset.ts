/**
 * A loaded dataset as the studio holds it: group summaries (enough for the group list and the
 * trainer's advantages) for every group, and the full rollouts of the groups that have been parsed.
 * Small files are parsed whole; large JSONL files are indexed and parsed a group at a time.
 */
import { rolloutReward, type ChatMessage, type Rollout, type RolloutGroup } from "../core/index.ts";
import type { FormatCandidate, LoadResult, LoadStats } from "./formats/load.ts";
import type { Container } from "./formats/spec.ts";
import type { ParseIssue } from "./issues.ts";

export interface GroupSummary {
  readonly id: string;
  /** Per rollout, in group order: the reward, NaN when it has none (yet). */
  readonly rewards: readonly number[];
  /** A one-line preview of the prompt, when known without parsing the group. */
  readonly prompt: string;
  /** Fewer rollouts than most groups of the file: a group cut short, or split across files. */
  readonly partial: boolean;
  /**
   * The training step the group belongs to: its rows' step column (TRL, verl, or a `step` field a
   * loader kept in meta), else, in a run of several files, the file's step; null for a single file
   * without one.
   */
  readonly step: number | null;
}

/**
 * What a run's own header file says of it (a verifiers `metadata.json` beside `results.jsonl`):
 * one line for the header bar, and every field of the file.
 */
export interface RunHeader {
  /** The header file, as the run names its files. */
  readonly file: string;
  /** "wordle · gpt-5-mini · 5 examples x 3" */
  readonly title: string;
  readonly fields: Readonly<Record<string, unknown>>;
}

export interface LoadedDataset {
  readonly file: string;
  readonly container: Container;
  readonly format: string;
  readonly formatLabel: string;
  readonly groupKey: string;
  readonly candidates: readonly FormatCandidate[];
  readonly stats: LoadStats;
  readonly issues: readonly ParseIssue[];
  readonly summaries: readonly GroupSummary[];
  /** True when rows are parsed on demand from the file (large JSONL); false when all groups are here. */
  readonly indexed: boolean;
  /** Every group when not indexed; when indexed, the groups parsed so far (the first one at least). */
  readonly groups: readonly RolloutGroup[];
  /** The run's header file, when one was read with the data (see runs/runHeader.ts). */
  readonly header?: RunHeader;
}

/** A rollout's own step: a non-negative integer `step` its loader kept in meta (TRL, verl). */
export function rolloutRowStep(rollout: Rollout): number | null {
  const step = rollout.meta.step;
  return typeof step === "number" && Number.isSafeInteger(step) && step >= 0 ? step : null;
}

/** A parsed group's step from its rows: its first rollout's step, null when its rows carry none. */
export function groupRowStep(group: RolloutGroup): number | null {
  const first = group.rollouts[0];
  return first === undefined ? null : rolloutRowStep(first);
}

/**
 * The step in an indexed group's id, for formats whose group key starts with the step (TRL's
 * `(step, prompt)`, verl's `(step, input)`: ids `<step>/<hash>`); null for other formats.
 */
export function groupIdStep(groupKey: string, id: string): number | null {
  if (!groupKey.startsWith("(step,")) return null;
  const m = /^(\d+)\//.exec(id);
  return m === null ? null : Number(m[1]);
}

/**
 * The size below which a group counts as partial: the most common group size when at least half
 * of the groups have it (a trainer's dump, where every prompt got G rollouts), else 0, because a
 * file whose groups vary in size by design has no "expected" size to fall short of.
 */
export function partialBelow(sizes: readonly number[]): number {
  const counts = new Map<number, number>();
  for (const n of sizes) counts.set(n, (counts.get(n) ?? 0) + 1);
  let best = 0;
  let bestCount = 0;
  for (const [n, c] of counts)
    if (c > bestCount || (c === bestCount && n > best)) [best, bestCount] = [n, c];
  return bestCount * 2 >= sizes.length ? best : 0;
}

/**
 * The text that stands for a prompt in a preview: text as it is; for chat messages, the last user
 * turn with text (else the last message's text).
 */
export function promptText(prompt: string | readonly ChatMessage[] | null): string {
  if (prompt === null) return "";
  if (typeof prompt === "string") return prompt;
  const users = prompt.filter((m) => m.role === "user" && m.content.trim() !== "");
  return users[users.length - 1]?.content ?? prompt[prompt.length - 1]?.content ?? "";
}

const PREVIEW_CHARS = 160;

/** What `\s` matches in a JavaScript regular expression (and `trim` removes). */
function isSpace(c: number): boolean {
  if (c <= 0x20) return c === 0x20 || (c >= 0x09 && c <= 0x0d);
  if (c < 0xa0) return false;
  return (
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  );
}

/**
 * A text on one line, cut at 160 characters with an ellipsis: `text.replace(/\s+/g, " ").trim()`,
 * read only as far as the cut (a property test holds it to that expression).
 */
export function flatPreview(text: string): string {
  const preview = flatPreviewOf(text);
  return text.length > 2 * PREVIEW_CHARS ? detached(preview) : preview;
}

/**
 * The same characters in a string of their own. A slice of a long text is a view that keeps the
 * whole text alive in V8 (a summary's 160-character preview kept each group's whole prompt: 2.4 KB
 * a group of a small-row file, a fifth of its index's heap); slicing a concatenation flattens it
 * into a new string first.
 */
function detached(text: string): string {
  return ` ${text}`.slice(1);
}

function flatPreviewOf(text: string): string {
  const n = text.length;
  let out = "";
  let i = 0;
  while (i < n && isSpace(text.charCodeAt(i))) i++;
  let segment = i;
  while (i < n) {
    if (!isSpace(text.charCodeAt(i))) {
      i++;
      // One character past the cut says the text goes on.
      if (out.length + (i - segment) > PREVIEW_CHARS) return `${out}${text.slice(segment, i - 1)}…`;
      continue;
    }
    out += text.slice(segment, i);
    while (i < n && isSpace(text.charCodeAt(i))) i++;
    if (i === n) return out;
    if (out.length === PREVIEW_CHARS) return `${out}…`;
    out += " ";
    segment = i;
  }
  return out + text.slice(segment, n);
}

/** A dataset from a whole-file load: every group is present. */
export function datasetFromLoad(result: LoadResult): LoadedDataset {
  const mode = partialBelow(result.groups.map((g) => g.rollouts.length));
  return {
    file: result.file,
    container: result.container,
    format: result.format,
    formatLabel: result.formatLabel,
    groupKey: result.groupKey,
    candidates: result.candidates,
    stats: result.stats,
    issues: result.issues,
    indexed: false,
    groups: result.groups,
    summaries: result.groups.map((g) => {
      return {
        id: g.id,
        rewards: g.rollouts.map((r) => rolloutReward(r, null)),
        prompt: flatPreview(promptText(g.rollouts[0]?.prompt ?? null)),
        partial: g.rollouts.length < mode,
        step: groupRowStep(g),
      };
    }),
  };
}

/** A group's summary rebuilt from what the full parser accepted (its prompt kept when it had one). */
function parsedSummary(old: GroupSummary, group: RolloutGroup | null): GroupSummary {
  return tallySummary(old, parsedGroupTally({ groupId: old.id, group, issues: [] }));
}

function tallySummary(old: GroupSummary, tally: ParsedGroupTally): GroupSummary {
  return {
    ...old,
    rewards: tally.rewards ?? [],
    prompt: old.prompt !== "" ? old.prompt : tally.prompt,
  };
}

/** One indexed group parsed in full, for `datasetWithParsedGroups`. */
export interface ParsedGroup {
  readonly groupId: string;
  readonly group: RolloutGroup | null;
  readonly issues: readonly ParseIssue[];
}

/**
 * What a parsed group changes in its dataset's summaries and counts, without its rollouts: the CLI
 * keeps this of each group while it streams a file too large to hold (`datasetWithParsedTallies`).
 */
export interface ParsedGroupTally {
  readonly groupId: string;
  /** Each accepted rollout's reward; null when the full parser accepted none (no group). */
  readonly rewards: readonly number[] | null;
  /** The first rollout's prompt preview, for a summary that has none. */
  readonly prompt: string;
  readonly issues: readonly ParseIssue[];
}

export function parsedGroupTally({ groupId, group, issues }: ParsedGroup): ParsedGroupTally {
  return {
    groupId,
    rewards: group === null ? null : group.rollouts.map((r) => rolloutReward(r, null)),
    prompt: flatPreview(promptText(group?.rollouts[0]?.prompt ?? null)),
    issues,
  };
}

/**
 * `datasetWithParsedGroup` applied for each of `parsed` in order (their group ids distinct), in one
 * pass: the CLI parses every group of an indexed file, and one call per group copied the summaries
 * and sorted the issues each time, so 20,000 groups took 54 s instead of 2.6 s (bench/README.md,
 * runs).
 */
export function datasetWithParsedGroups(
  dataset: LoadedDataset,
  parsed: readonly ParsedGroup[],
): LoadedDataset {
  const replaced = new Set<string>();
  const added: RolloutGroup[] = [];
  for (const { groupId, group } of parsed)
    if (group !== null) {
      replaced.add(groupId);
      added.push(group);
    }
  return {
    ...datasetWithParsedTallies(dataset, parsed.map(parsedGroupTally)),
    groups: [...dataset.groups.filter((g) => !replaced.has(g.id)), ...added],
  };
}

/**
 * {@link datasetWithParsedGroups} from the groups' tallies: the summaries, issues and counts, with
 * the dataset's parsed groups left as they were.
 */
export function datasetWithParsedTallies(
  dataset: LoadedDataset,
  tallies: readonly ParsedGroupTally[],
): LoadedDataset {
  const at = new Map<string, number>();
  dataset.summaries.forEach((s, i) => {
    if (!at.has(s.id)) at.set(s.id, i);
  });
  const summaries = [...dataset.summaries];
  const issues = [...dataset.issues];
  let delta = 0;
  for (const tally of tallies) {
    const index = at.get(tally.groupId);
    const before = index === undefined ? 0 : summaries[index]!.rewards.length;
    delta += (tally.rewards?.length ?? 0) - before;
    if (index !== undefined) summaries[index] = tallySummary(summaries[index]!, tally);
    for (const issue of tally.issues) issues.push(issue);
  }
  // One stable sort gives what a stable sort after every step gave: equal lines keep input order.
  issues.sort((a, b) => a.line - b.line);
  return {
    ...dataset,
    summaries,
    issues,
    stats: {
      ...dataset.stats,
      rollouts: dataset.stats.rollouts + delta,
      rejected: dataset.stats.rejected - delta,
    },
  };
}

/**
 * The dataset once one of its indexed groups has been parsed in full: the group's summary is
 * rebuilt from what the full parser accepted (it may reject rows the index let through), its issues
 * join the list, and the counts still add up (every record a rollout or an issue).
 */
export function datasetWithParsedGroup(
  dataset: LoadedDataset,
  group: RolloutGroup | null,
  groupId: string,
  issues: readonly ParseIssue[],
): LoadedDataset {
  const index = dataset.summaries.findIndex((s) => s.id === groupId);
  const before = index === -1 ? 0 : dataset.summaries[index]!.rewards.length;
  const after = group?.rollouts.length ?? 0;
  const summaries = [...dataset.summaries];
  if (index !== -1) summaries[index] = parsedSummary(summaries[index]!, group);
  const allIssues = [...dataset.issues, ...issues].sort((a, b) => a.line - b.line);
  return {
    ...dataset,
    summaries,
    issues: allIssues,
    stats: {
      ...dataset.stats,
      rollouts: dataset.stats.rollouts - before + after,
      rejected: dataset.stats.rejected + before - after,
    },
    groups:
      group === null ? dataset.groups : [...dataset.groups.filter((g) => g.id !== groupId), group],
  };
}
