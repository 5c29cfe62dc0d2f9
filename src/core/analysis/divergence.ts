/**
 * Where a group's trajectories part ways: each rollout becomes a list of steps (a text turn, a
 * tool call, a tool result), and the group's steps form a prefix tree whose first split is the
 * first step at which the rollouts differ. The studio's divergence view draws this tree.
 */
import type { ChatMessage, Rollout } from "../types.ts";

/**
 * One step of a trajectory. `key` is what steps are compared by: whitespace runs collapsed,
 * JSON (tool arguments, tool results) re-serialised with sorted keys. The other fields are for
 * display: the text as given (trimmed), the arguments canonicalised.
 */
export type DivergenceStep =
  | {
      readonly kind: "turn";
      readonly key: string;
      /** The message's role ("assistant", "user", ...). */
      readonly role: string;
      readonly text: string;
    }
  | {
      readonly kind: "call";
      readonly key: string;
      readonly name: string;
      /** Canonical JSON (sorted keys), or the whitespace-normalised text when it is not JSON. */
      readonly args: string;
      readonly argsValid: boolean;
    }
  | {
      readonly kind: "result";
      readonly key: string;
      /** The tool's name when the source gives it. */
      readonly name: string | null;
      readonly text: string;
      readonly error: boolean;
    };

export interface DivergenceOptions {
  /**
   * Compare tool results too (default true). Off, results are left out of the trajectories, so
   * two rollouts that made the same calls stay together even if the environment answered them
   * differently (generated reference numbers, timestamps).
   */
  readonly results?: boolean;
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

function turnStep(role: string, content: string): DivergenceStep {
  return {
    kind: "turn",
    key: ["turn", role, divergenceNormalizeText(content)].join(SEP),
    role,
    text: content.trim(),
  };
}

function messageSteps(m: ChatMessage, results: boolean): DivergenceStep[] {
  if (m.role === "tool") {
    if (!results) return [];
    const json = divergenceCanonicalJson(m.content);
    const body = json ?? divergenceNormalizeText(m.content);
    return [
      {
        kind: "result",
        key: ["result", m.name ?? "", m.error === true ? "error" : "", body].join(SEP),
        name: m.name,
        text: m.content.trim(),
        error: m.error === true,
      },
    ];
  }
  const steps: DivergenceStep[] = [];
  if (m.content.trim() !== "") steps.push(turnStep(m.role, m.content));
  for (const call of m.toolCalls) {
    const json = divergenceCanonicalJson(call.arguments);
    const args = json ?? divergenceNormalizeText(call.arguments);
    steps.push({
      kind: "call",
      key: ["call", call.name, args].join(SEP),
      name: call.name,
      args,
      argsValid: json !== null,
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
  const steps = rollout.messages.flatMap((m) => messageSteps(m, results));
  if (rollout.completion !== null && rollout.completion.trim() !== "") {
    steps.push(turnStep("assistant", rollout.completion));
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

/** The prefix tree of a group's rollouts (members are indices in the group). */
export function divergenceOfRollouts(
  rollouts: readonly Rollout[],
  options: DivergenceOptions = {},
): DivergenceNode {
  return divergenceTree(rollouts.map((r) => divergenceSteps(r, options)));
}

/** The index of the first step at which a node's members differ, or null when they never do. */
export function divergenceFirstSplit(tree: DivergenceNode): number | null {
  return tree.branches.length === 0 ? null : tree.start + tree.steps.length;
}
