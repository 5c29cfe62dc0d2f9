/**
 * What a judge reads of a group: the task (the shared prompt) and each rollout as text. A rollout
 * with a plain completion is that completion; an agent transcript is every turn in order, with its
 * role, tool calls (name and arguments) and tool results, since grounding in what the tools
 * returned is what the graders are asked to check. Long texts keep their head and tail around a
 * marker that says how much was cut, so one huge rollout cannot crowd out the others.
 */
import type { ChatMessage, Rollout, RolloutGroup } from "../types.ts";

/** The default cap per rollout (and for the task), in characters. */
export const JUDGE_TEXT_MAX_CHARS = 12_000;

/** Keep the head and the tail of a long text, with a marker saying how many characters were cut. */
export function judgeClip(text: string, maxChars: number = JUDGE_TEXT_MAX_CHARS): string {
  if (text.length <= maxChars) return text;
  const head = Math.ceil(maxChars * 0.6);
  const tail = Math.max(0, maxChars - head);
  const cut = text.length - head - tail;
  return `${text.slice(0, head)}\n[… ${cut} characters cut …]\n${tail === 0 ? "" : text.slice(text.length - tail)}`;
}

function messageText(m: ChatMessage): string {
  const who = m.role === "tool" && m.name !== null ? `tool ${m.name}` : m.role;
  const lines: string[] = [];
  if (m.content.trim() !== "")
    lines.push(`[${who}${m.error === true ? ", error" : ""}] ${m.content}`);
  for (const call of m.toolCalls) lines.push(`[${who} calls ${call.name}] ${call.arguments}`);
  if (lines.length === 0) lines.push(`[${who}] (empty)`);
  return lines.join("\n");
}

/** A transcript as text, one turn per block. */
export function judgeMessagesText(messages: readonly ChatMessage[]): string {
  return messages.map(messageText).join("\n\n");
}

/** A rollout as the judge reads it (see the module comment), clipped to `maxChars`. */
export function judgeRolloutText(
  rollout: Rollout,
  maxChars: number = JUDGE_TEXT_MAX_CHARS,
): string {
  const text =
    rollout.completion !== null ? rollout.completion.trim() : judgeMessagesText(rollout.messages);
  return judgeClip(text === "" ? "(empty)" : text, maxChars);
}

/** The group's task: its first rollout's prompt (text, or the prompt's messages), clipped. */
export function judgeTaskText(
  group: RolloutGroup,
  maxChars: number = JUDGE_TEXT_MAX_CHARS,
): string {
  const prompt = group.rollouts[0]?.prompt ?? null;
  const text =
    prompt === null
      ? ""
      : typeof prompt === "string"
        ? prompt.trim()
        : judgeMessagesText(prompt.filter((m) => m.role !== "assistant"));
  return judgeClip(text === "" ? `(no prompt recorded; group ${group.id})` : text, maxChars);
}
