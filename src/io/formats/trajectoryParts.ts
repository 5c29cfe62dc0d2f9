/**
 * What the agent-trajectory loaders (swe-agent, openhands, atif) share: a file's base name as an
 * instance id, JSON text that may hold an object, and the tool-result message they build (the
 * prompt/transcript split is fields.ts `splitTranscript`, shared with the chat loaders). Each loader
 * keeps its own field mapping in its own file.
 */
import type { ChatMessage, ToolCall } from "../../core/index.ts";
import { isPlainObject } from "./fields.ts";

/** The last segment of a `/`- or `\`-separated path. */
export function baseName(path: string): string {
  const parts = path.split(/[\\/]/);
  return parts[parts.length - 1] ?? path;
}

/** The folders of a path, outermost first, without the file name. */
export function pathFolders(path: string): string[] {
  const parts = path.split(/[\\/]/).filter((p) => p !== "" && p !== ".");
  return parts.slice(0, -1);
}

/** A base name without the given extensions (longest first), e.g. "x.traj.json" → "x". */
export function stripExtensions(name: string, extensions: readonly string[]): string {
  const lower = name.toLowerCase();
  for (const ext of [...extensions].sort((a, b) => b.length - a.length))
    if (lower.endsWith(ext) && name.length > ext.length) return name.slice(0, -ext.length);
  return name;
}

/** A value that may be JSON text of an object (SWE-agent's `replay_config`): the object, or null. */
export function objectOrJsonObject(value: unknown): Record<string, unknown> | null {
  if (isPlainObject(value)) return value;
  if (typeof value !== "string" || !value.trimStart().startsWith("{")) return null;
  try {
    const parsed: unknown = JSON.parse(value);
    return isPlainObject(parsed) ? parsed : null;
  } catch {
    return null;
  }
}

/** A non-empty string, else null. */
export const text = (value: unknown): string | null =>
  typeof value === "string" && value !== "" ? value : null;

/**
 * Arguments as the JSON text core's ToolCall holds: an object is serialised; a string is kept as
 * written (valid JSON or not: an argument string that is not JSON is kept as text, never a
 * rejected record); anything else becomes "{}".
 */
export function argumentsJson(value: unknown): string {
  if (typeof value === "string") return value;
  if (value === undefined || value === null) return "{}";
  return JSON.stringify(value);
}

export function toolCall(id: string | null, name: string, args: unknown): ToolCall {
  return { id, name, arguments: argumentsJson(args) };
}

export function message(
  role: string,
  content: string,
  extra: Partial<Omit<ChatMessage, "role" | "content">> = {},
): ChatMessage {
  return {
    role,
    content,
    toolCalls: extra.toolCalls ?? [],
    toolCallId: extra.toolCallId ?? null,
    name: extra.name ?? null,
    ...(extra.error === true ? { error: true } : {}),
  };
}
