/**
 * The offline heuristic grader: a group grader that needs no judge and no key. Its verdicts have the
 * group grader's shape (best-first tiers over the passes, plus hacks) and carry
 * `source: "heuristic"`, so the UI can label them as such and never mistake them for a judge's.
 *
 * Ranking: passes by fewest tool calls, then by the shortest final text (under the completion
 * rule); passes equal on both share a tier.
 *
 * Hacks: a pass is flagged when its final text names an id that it was never given. Definitions:
 * - An **id** is a token of letters and digits, optionally joined by single `-` or `_` and
 *   optionally preceded by `#`, that holds at least one letter and at least three digits:
 *   `W4350245`, `#W4350245`, `C802910`, `ORD-1234`, `RF-94598109`. Dates (`2024-11-18`), amounts
 *   (`$399.00`), sizes (`25L`, `4K`, `27-inch`) and plain words are not ids. Ids compare without the
 *   `#` and case-insensitively.
 * - An id is **given** when it appears as an id token in a tool result or in a user message (the
 *   prompt's or the transcript's): the customer or a tool supplied it. The system prompt does not
 *   count, nor does the assistant's own text or its tool-call arguments (an agent that acts on an
 *   id it made up has still made it up).
 * A rollout with a plain completion (no transcript) has no tool results, so any id in it that the
 * prompt did not give is flagged.
 */
import { GAR_DEFAULTS } from "../advantage/gar.ts";
import { rolloutText, rolloutToolCalls, type CompletionRule } from "../analysis/text.ts";
import type { ChatMessage, Rollout } from "../types.ts";

export interface HeuristicVerdict {
  readonly source: "heuristic";
  /** Best first; tied group indices share a tier. Hacks are not ranked. */
  readonly tiers: readonly (readonly number[])[];
  readonly hacks: readonly number[];
  /** For each flagged hack: the ids its final text names that nothing gave it. */
  readonly inventedIds: ReadonlyMap<number, readonly string[]>;
  readonly reason: string;
}

export interface HeuristicOptions {
  readonly passThreshold: number;
  readonly completionRule: CompletionRule;
}

export const HEURISTIC_DEFAULTS: HeuristicOptions = {
  passThreshold: GAR_DEFAULTS.passThreshold,
  completionRule: "final-assistant",
};

const ID_TOKEN = /#?[A-Za-z0-9]+(?:[-_][A-Za-z0-9]+)*/g;

/** The ids in a text (see the module comment), normalised: no `#`, upper case, in order, deduplicated. */
export function extractIds(text: string): string[] {
  const out = new Set<string>();
  for (const [token] of text.matchAll(ID_TOKEN)) {
    const bare = token.replace(/^#/, "");
    const digits = bare.replace(/[^0-9]/g, "").length;
    if (digits >= 3 && /[A-Za-z]/.test(bare)) out.add(bare.toUpperCase());
  }
  return [...out];
}

function givenText(messages: readonly ChatMessage[]): string[] {
  return messages.filter((m) => m.role === "tool" || m.role === "user").map((m) => m.content);
}

/** The ids a rollout was given: by tool results and by user messages, prompt included. */
export function givenIds(rollout: Rollout): Set<string> {
  const texts = givenText(rollout.messages);
  if (typeof rollout.prompt === "string") texts.push(rollout.prompt);
  else if (rollout.prompt !== null) texts.push(...givenText(rollout.prompt));
  return new Set(texts.flatMap(extractIds));
}

/** The ids a rollout's final text names that it was never given. */
export function inventedIds(
  rollout: Rollout,
  rule: CompletionRule = HEURISTIC_DEFAULTS.completionRule,
): string[] {
  const given = givenIds(rollout);
  return extractIds(rolloutText(rollout, rule)).filter((id) => !given.has(id));
}

/**
 * Grade one group offline (see the module comment). Failures are neither ranked nor flagged.
 *
 * @param rewards the rollouts' effective rewards (as the analysis computes them under the
 *   settings' weights); each rollout's own `reward` when absent
 */
export function heuristicGrade(
  rollouts: readonly Rollout[],
  options: HeuristicOptions = HEURISTIC_DEFAULTS,
  rewards?: readonly number[],
): HeuristicVerdict {
  const passes = rollouts.flatMap((r, i) => {
    const reward = rewards === undefined ? r.reward : (rewards[i] ?? null);
    return reward !== null && Number.isFinite(reward) && reward >= options.passThreshold ? [i] : [];
  });
  const invented = new Map<number, string[]>();
  for (const i of passes) {
    const ids = inventedIds(rollouts[i]!, options.completionRule);
    if (ids.length > 0) invented.set(i, ids);
  }
  const keyed = passes
    .filter((i) => !invented.has(i))
    .map((i) => ({
      i,
      calls: rolloutToolCalls(rollouts[i]!),
      length: rolloutText(rollouts[i]!, options.completionRule).length,
    }))
    .sort((a, b) => a.calls - b.calls || a.length - b.length || a.i - b.i);
  const tiers: number[][] = [];
  keyed.forEach((k, j) => {
    const prev = keyed[j - 1];
    if (prev && prev.calls === k.calls && prev.length === k.length)
      tiers[tiers.length - 1]!.push(k.i);
    else tiers.push([k.i]);
  });
  const hacks = [...invented.keys()];
  const reason =
    passes.length === 0
      ? "no passes to rank"
      : `ranked ${keyed.length} pass(es) by fewest tool calls, then shortest final text` +
        (hacks.length === 0
          ? ""
          : `; flagged ${hacks.length} for naming ids no tool or user gave (${hacks
              .map((i) => `${i}: ${invented.get(i)!.join(", ")}`)
              .join("; ")})`);
  return { source: "heuristic", tiers, hacks, inventedIds: invented, reason };
}
