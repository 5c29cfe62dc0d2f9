/** Which text of a rollout judges read and diversity clustering compares (methods.md 1.3 and 6.5). */
import { toolCallSymbols, type SimilarityInput } from "../ngram/toolCalls.ts";
import type { ChatMessage, Rollout } from "../types.ts";

/**
 * - "final-assistant" (default): the last assistant message that has text. Agent transcripts often end
 *   on a user or tool turn (every tau-bench trajectory does), where the strict rule gives "". A
 *   transcript with no assistant turn at all (a sample that stopped before the model answered) is
 *   read by its last message that has text, so judges and clustering read something.
 * - "benchmax": current benchmax `extract_completion_text`: the last message's stripped content if it
 *   is an assistant message with text, else "".
 * - "all-assistant": the older benchmax helper: every non-blank assistant content, joined by "\n".
 */
export type CompletionRule = "final-assistant" | "benchmax" | "all-assistant";

export const COMPLETION_RULES: readonly CompletionRule[] = [
  "final-assistant",
  "benchmax",
  "all-assistant",
];

/** The text of a transcript under a rule. */
export function textFromMessages(messages: readonly ChatMessage[], rule: CompletionRule): string {
  if (rule === "benchmax") {
    const last = messages[messages.length - 1];
    return last?.role === "assistant" ? last.content.trim() : "";
  }
  const assistant = messages.filter((m) => m.role === "assistant" && m.content.trim() !== "");
  if (rule === "all-assistant") return assistant.map((m) => m.content.trim()).join("\n");
  if (!messages.some((m) => m.role === "assistant")) return lastText(messages);
  return assistant[assistant.length - 1]?.content.trim() ?? "";
}

/** The last message's text (skipping turns without text, such as bare tool calls), trimmed. */
function lastText(messages: readonly ChatMessage[]): string {
  for (let i = messages.length - 1; i >= 0; i--) {
    const text = messages[i]!.content.trim();
    if (text !== "") return text;
  }
  return "";
}

/**
 * Characters of one text that the text-reading analyses take (diversity clusters, "find similar",
 * divergence): the setting "text analysed per rollout", `AnalysisSettings.textChars`. A 50 MB
 * completion would otherwise cost seconds in each of them; lengths are still the full ones.
 */
export const TEXT_CHARS_DEFAULT = 200_000;

/** Whether `textChars` is a usable bound: a whole number of characters, at least 1. */
export function textCharsValid(x: number): boolean {
  return Number.isInteger(x) && x >= 1;
}

/**
 * The first `limit` UTF-16 code units of a text (the text itself when it is no longer), never
 * ending inside a surrogate pair: a pair cut in half would be a lone surrogate that n-grams and
 * display read as U+FFFD. Cheap: a slice, no copy of the rest.
 *
 * @param limit code units, at least 1 (see {@link textCharsValid})
 */
export function textBounded(text: string, limit: number): string {
  if (text.length <= limit) return text;
  const last = text.charCodeAt(limit - 1);
  const end = last >= 0xd800 && last <= 0xdbff ? limit - 1 : limit;
  return text.slice(0, end);
}

/** Of these texts, how many are longer than `limit` (and so cut by {@link textBounded}). */
export function textCutCount(texts: Iterable<string>, limit: number): number {
  let cut = 0;
  for (const t of texts) if (t.length > limit) cut++;
  return cut;
}

/** A rollout's text: its plain completion when the source has one, else its transcript under the rule. */
export function rolloutText(rollout: Rollout, rule: CompletionRule): string {
  if (rollout.completion !== null) return rollout.completion.trim();
  return textFromMessages(rollout.messages, rule);
}

/** Number of tool calls in a rollout's transcript. */
export function rolloutToolCalls(rollout: Rollout): number {
  return rollout.messages.reduce((sum, m) => sum + m.toolCalls.length, 0);
}

/**
 * The first `limit` characters of {@link rolloutText}: the same as `textBounded(rolloutText(...))`,
 * but "all-assistant" joins only what the prefix needs (each message cut to what is left), so a
 * transcript with a 50 MB message is never copied whole to be cut.
 */
export function rolloutTextBounded(rollout: Rollout, rule: CompletionRule, limit: number): string {
  if (rollout.completion !== null || rule !== "all-assistant")
    return textBounded(rolloutText(rollout, rule), limit);
  const parts: string[] = [];
  let length = 0;
  for (const m of rollout.messages) {
    if (length >= limit) break;
    if (m.role !== "assistant") continue;
    const text = m.content.trim();
    if (text === "") continue;
    if (parts.length > 0) length += 1; // the "\n" joining it to the one before
    parts.push(textBounded(text, Math.max(1, limit - length)));
    length += text.length;
  }
  return textBounded(parts.join("\n"), limit);
}

/**
 * What the similarity settings compare of a rollout: the first `textChars` characters of its text
 * under the rule (see {@link rolloutTextBounded}), and its tool calls.
 */
export function rolloutSimilarityInput(
  rollout: Rollout,
  rule: CompletionRule,
  textChars: number,
): SimilarityInput {
  return {
    text: rolloutTextBounded(rollout, rule, textChars),
    calls: toolCallSymbols(rollout.messages),
  };
}
