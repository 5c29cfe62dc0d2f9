/**
 * Where a group's trajectories part ways: each rollout becomes a list of steps (a text turn, a
 * tool call, a tool result), and the group's steps form a prefix tree whose first split is the
 * first step at which the rollouts differ. The studio's divergence view draws this tree.
 */
import type { ChatMessage, Rollout } from "../types.ts";
import { TEXT_CHARS_DEFAULT, textBounded } from "./text.ts";

/**
 * One step of a trajectory. `key` is what steps are compared by: whitespace runs collapsed,
 * JSON (tool arguments, tool results) re-serialised with sorted keys. The other fields are for
 * display: the text as given (trimmed), the arguments canonicalised. A text longer than the
 * options' `textChars` is read, compared and shown by its first `textChars` characters only
 * (`cut` is true); JSON that long is not parsed.
 */
export type DivergenceStep =
  | {
      readonly kind: "turn";
      readonly key: string;
      /** The message's role ("assistant", "user", ...). */
      readonly role: string;
      readonly text: string;
      /** The text was longer than `textChars`: `text` and `key` hold its first `textChars`. */
      readonly cut: boolean;
    }
  | {
      readonly kind: "call";
      readonly key: string;
      readonly name: string;
      /** Canonical JSON (sorted keys), or the whitespace-normalised text when it is not JSON. */
      readonly args: string;
      readonly argsValid: boolean;
      readonly cut: boolean;
    }
  | {
      readonly kind: "result";
      readonly key: string;
      /** The tool's name when the source gives it. */
      readonly name: string | null;
      readonly text: string;
      readonly error: boolean;
      readonly cut: boolean;
    };

export interface DivergenceOptions {
  /**
   * Compare tool results too (default true). Off, results are left out of the trajectories, so
   * two rollouts that made the same calls stay together even if the environment answered them
   * differently (generated reference numbers, timestamps).
   */
  readonly results?: boolean;
  /**
   * Characters of each text (a turn, a call's arguments, a tool result) that are compared: the
   * setting "text analysed per rollout" (default TEXT_CHARS_DEFAULT). A 50 MB completion costs
   * its whitespace normalisation and JSON parse otherwise; two texts that share this prefix are
   * the same step.
   */
  readonly textChars?: number;
}

/**
 * A node of the prefix tree over a group's trajectories. The root holds every rollout and the
 * common prefix; each branch starts at the step where its members left their siblings.
 */
export interface DivergenceNode {
  /** Index, in each member's trajectory, of this node's first step. */
  readonly start: number;
  /**
   * The steps every member shares from `start` on. In a branch, the first of them is the step
   * that differs from the sibling branches; an empty `steps` in a branch means its members'
   * trajectories end where the siblings' continue.
   */
  readonly steps: readonly DivergenceStep[];
  /** The members, as indices into the trajectories given, ascending. */
  readonly members: readonly number[];
  /**
   * The branches after `steps`, ordered by their smallest member. Empty when every member's
   * trajectory ends with `steps` (identical trajectories never split).
   */
  readonly branches: readonly DivergenceNode[];
}

/** Text with every whitespace run as one space, trimmed. */
export function divergenceNormalizeText(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) {
      out[key] = canonical((value as Record<string, unknown>)[key]);
    }
    return out;
  }
  return value;
}

/**
 * JSON text re-serialised compactly with object keys sorted at every depth, or null when the
 * text is not JSON. Two argument strings that differ only in key order or spacing give the same.
 */
export function divergenceCanonicalJson(text: string): string | null {
  const trimmed = text.trim();
  if (trimmed === "") return null;
  try {
    return JSON.stringify(canonical(JSON.parse(trimmed)));
  } catch {
    return null;
  }
}

const SEP = "\u0000";

/** A text's trimmed first `limit` characters, and whether that cut it. */
function bounded(text: string, limit: number): { text: string; cut: boolean } {
  const trimmed = text.trim();
  return { text: textBounded(trimmed, limit), cut: trimmed.length > limit };
}

function turnStep(role: string, content: string, limit: number): DivergenceStep {
  const { text, cut } = bounded(content, limit);
  return {
    kind: "turn",
    key: ["turn", role, divergenceNormalizeText(text)].join(SEP),
    role,
    text,
    cut,
  };
}

function messageSteps(m: ChatMessage, results: boolean, limit: number): DivergenceStep[] {
  if (m.role === "tool") {
    if (!results) return [];
    const { text, cut } = bounded(m.content, limit);
    const json = cut ? null : divergenceCanonicalJson(text);
    const body = json ?? divergenceNormalizeText(text);
    return [
      {
        kind: "result",
        key: ["result", m.name ?? "", m.error === true ? "error" : "", body].join(SEP),
        name: m.name,
        text,
        error: m.error === true,
        cut,
      },
    ];
  }
  const steps: DivergenceStep[] = [];
  if (m.content.trim() !== "") steps.push(turnStep(m.role, m.content, limit));
  for (const call of m.toolCalls) {
    const { text, cut } = bounded(call.arguments, limit);
    const json = cut ? null : divergenceCanonicalJson(text);
    const args = json ?? divergenceNormalizeText(text);
    steps.push({
      kind: "call",
      key: ["call", call.name, args].join(SEP),
      name: call.name,
      args,
      argsValid: json !== null,
      cut,
    });
  }
  return steps;
}

/**
 * A rollout's trajectory after the prompt: per message, its text (when not blank) and then its
 * tool calls in order; a tool message is one result step. A plain completion is one assistant
 * turn after the messages (when it is not blank). Call ids never enter a step: they are random.
 */
export function divergenceSteps(
  rollout: Rollout,
  options: DivergenceOptions = {},
): DivergenceStep[] {
  const results = options.results ?? true;
  const limit = options.textChars ?? TEXT_CHARS_DEFAULT;
  const steps = rollout.messages.flatMap((m) => messageSteps(m, results, limit));
  if (rollout.completion !== null && rollout.completion.trim() !== "") {
    steps.push(turnStep("assistant", rollout.completion, limit));
  }
  return steps;
}

function node(
  trajectories: readonly (readonly DivergenceStep[])[],
  members: readonly number[],
  start: number,
): DivergenceNode {
  const first = trajectories[members[0]!]!;
  let end = start;
  while (end < first.length) {
    const key = first[end]!.key;
    if (!members.every((m) => trajectories[m]![end]?.key === key)) break;
    end++;
  }
  const steps = first.slice(start, end);
  if (members.every((m) => trajectories[m]!.length === end)) {
    return { start, steps, members, branches: [] };
  }
  // Members are ascending, so a Map in insertion order lists branches by smallest member.
  const byKey = new Map<string, number[]>();
  for (const m of members) {
    const step = trajectories[m]![end];
    const key = step === undefined ? "" : `${SEP}${step.key}`;
    const branch = byKey.get(key);
    if (branch === undefined) byKey.set(key, [m]);
    else branch.push(m);
  }
  const branches = [...byKey.values()].map((b) => node(trajectories, b, end));
  return { start, steps, members, branches };
}

/**
 * The prefix tree of some trajectories (compared by `key`). The root's `steps` are the common
 * prefix of all of them; it has no branches when they are all identical (or there are none).
 * Runs in O(total steps x depth of the tree); recursion depth is at most the number of splits.
 */
export function divergenceTree(
  trajectories: readonly (readonly DivergenceStep[])[],
): DivergenceNode {
  if (trajectories.length === 0) return { start: 0, steps: [], members: [], branches: [] };
  return node(
    trajectories,
    trajectories.map((_, i) => i),
    0,
  );
}

/**
 * The prefix tree of a group's rollouts (members are indices in the group), and how many of the
 * rollouts had a text cut to `options.textChars` (see {@link DivergenceOptions.textChars}).
 */
export function divergenceOfRollouts(
  rollouts: readonly Rollout[],
  options: DivergenceOptions = {},
): DivergenceNode & { readonly textsCut: number } {
  const trajectories = rollouts.map((r) => divergenceSteps(r, options));
  const textsCut = trajectories.filter((t) => t.some((s) => s.cut)).length;
  return { ...divergenceTree(trajectories), textsCut };
}

/** The index of the first step at which a node's members differ, or null when they never do. */
export function divergenceFirstSplit(tree: DivergenceNode): number | null {
  return tree.branches.length === 0 ? null : tree.start + tree.steps.length;
}
