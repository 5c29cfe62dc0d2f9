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

/** A rollout's text: its plain completion when the source has one, else its transcript under the rule. */
export function rolloutText(rollout: Rollout, rule: CompletionRule): string {
  if (rollout.completion !== null) return rollout.completion.trim();
  return textFromMessages(rollout.messages, rule);
}

/** Number of tool calls in a rollout's transcript. */
export function rolloutToolCalls(rollout: Rollout): number {
  return rollout.messages.reduce((sum, m) => sum + m.toolCalls.length, 0);
}

/** What the similarity settings compare of a rollout: its text under the rule and its tool calls. */
export function rolloutSimilarityInput(rollout: Rollout, rule: CompletionRule): SimilarityInput {
  return { text: rolloutText(rollout, rule), calls: toolCallSymbols(rollout.messages) };
}
