/**
 * Chat messages from every dialect, normalised to core's ChatMessage (methods.md 4.3):
 * OpenAI (nested calls, arguments as a JSON string), tau-bench (adds `name` on tool results),
 * TRL (arguments as a dict), tau2-bench (flat calls `{id, name, arguments, requestor}`),
 * Inspect (`{id, function, arguments}`), benchmax (content-part lists).
 */
import type { ChatMessage, ToolCall } from "../../core/index.ts";
import { z } from "zod";

const contentPart = z.looseObject({ type: z.string().optional(), text: z.string().optional() });
const content = z
  .union([z.string(), z.null(), z.array(z.union([z.string(), contentPart]))])
  .optional();

const toolCallSchema = z.union([
  // OpenAI / TRL nested form.
  z.looseObject({
    id: z.union([z.string(), z.null()]).optional(),
    type: z.string().optional(),
    function: z.looseObject({ name: z.string(), arguments: z.unknown().optional() }),
  }),
  // tau2-bench flat form and Inspect's form (`function` is the tool's name there).
  z.looseObject({
    id: z.union([z.string(), z.null()]).optional(),
    name: z.string().optional(),
    function: z.string().optional(),
    arguments: z.unknown().optional(),
    requestor: z.string().optional(),
  }),
]);

export const messageSchema = z.looseObject({
  role: z.string(),
  content,
  tool_calls: z.union([z.array(toolCallSchema), z.null()]).optional(),
  tool_call_id: z.union([z.string(), z.null()]).optional(),
  name: z.union([z.string(), z.null()]).optional(),
  function: z.union([z.string(), z.null()]).optional(),
  id: z.union([z.string(), z.null()]).optional(),
  error: z.unknown().optional(),
});

export const messagesSchema = z.array(messageSchema);

type RawMessage = z.infer<typeof messageSchema>;
type RawToolCall = z.infer<typeof toolCallSchema>;

/** Content as text: strings as they are, content-part lists joined by newlines, null as "". */
export function contentText(raw: RawMessage["content"]): string {
  if (raw === undefined || raw === null) return "";
  if (typeof raw === "string") return raw;
  return raw
    .map((part) =>
      typeof part === "string" ? part : (part.text ?? (part.type ? `[${part.type}]` : "")),
    )
    .join("\n");
}

/** Arguments as JSON text: a string stays exactly as given; a dict is serialised. */
function argumentsText(raw: unknown): string {
  if (raw === undefined || raw === null) return "{}";
  return typeof raw === "string" ? raw : JSON.stringify(raw);
}

function normaliseToolCall(raw: RawToolCall): ToolCall {
  const id = raw.id ?? null;
  if (typeof raw.function === "object" && raw.function !== null) {
    return { id, name: raw.function.name, arguments: argumentsText(raw.function.arguments) };
  }
  const flat = raw as { name?: string; function?: string; arguments?: unknown; requestor?: string };
  const call: ToolCall = {
    id,
    name: flat.name ?? flat.function ?? "",
    arguments: argumentsText(flat.arguments),
  };
  return flat.requestor === undefined ? call : { ...call, requestor: flat.requestor };
}

export function normaliseMessage(raw: RawMessage): ChatMessage {
  const isTool = raw.role === "tool";
  const message: ChatMessage = {
    role: raw.role,
    content: contentText(raw.content),
    toolCalls: (raw.tool_calls ?? []).map(normaliseToolCall),
    // tau2-bench tool results carry the call id in `id`.
    toolCallId: raw.tool_call_id ?? (isTool ? (raw.id ?? null) : null),
    name: raw.name ?? (isTool ? (raw.function ?? null) : null),
  };
  if (raw.error === true || (typeof raw.error === "object" && raw.error !== null))
    return { ...message, error: true };
  return message;
}
