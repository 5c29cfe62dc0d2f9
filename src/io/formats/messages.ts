/**
 * Chat messages from every dialect, normalised to core's ChatMessage (methods.md 4.3), in one place
 * for every chat-bearing format and the field mapping:
 *
 * - OpenAI chat: nested calls `{id, type, function: {name, arguments}}`, arguments as a JSON string
 *   (kept exactly as given, valid JSON or not) or as an object (serialised); tool results are
 *   `role: "tool"` messages with `tool_call_id`. tau-bench adds `name` on tool results; TRL gives
 *   arguments as a dict.
 * - A whole tool call written as a JSON string (verifiers' `sanitize_tool_calls` writes
 *   `tool_calls: ["{\"id\": ..., \"function\": {...}}"]`): parsed, then read as any other call; a
 *   string that is not a JSON object is kept as the call's arguments text, never a rejected row.
 * - Flat calls `{id, name, arguments}` (tau2-bench, with `requestor`; verifiers' pydantic ToolCall),
 *   Inspect's `{id, function: "<name>", arguments}`.
 * - OpenAI Responses API items in a message list (NeMo Gym, the Agents SDK): `message` items (content
 *   parts `input_text` / `output_text`), `function_call` {call_id, name, arguments} (consecutive
 *   calls join the assistant turn before them, as parallel calls), `function_call_output` {call_id,
 *   output} as tool results, `reasoning` {summary[], content[]} as a "reasoning" turn.
 * - Anthropic content blocks: `tool_use` {id, name, input} as the message's tool calls,
 *   `tool_result` {tool_use_id, content, is_error} as tool results (one tool turn each, after any
 *   text of the message that carried them).
 * - benchmax's content-part lists; content parts without text show as `[type]`.
 */
import type { ChatMessage, ToolCall } from "../../core/index.ts";
import { z } from "zod";
import { parseJsonLenient } from "../containers/pythonJson.ts";

const contentPart = z.looseObject({ type: z.string().optional(), text: z.string().optional() });
const content = z
  .union([z.string(), z.null(), z.array(z.union([z.string(), contentPart]))])
  .optional();

const idLikeOrNull = z.union([z.string(), z.number(), z.null()]).optional();

const objectToolCall = z.union([
  // OpenAI / TRL nested form.
  z.looseObject({
    id: idLikeOrNull,
    type: z.string().optional(),
    function: z.looseObject({ name: z.string(), arguments: z.unknown().optional() }),
  }),
  // tau2-bench flat form, Inspect's form (`function` is the tool's name there), a Responses API
  // `function_call` item (`call_id`), an Anthropic `tool_use` block (`input`).
  z.looseObject({
    id: idLikeOrNull,
    call_id: idLikeOrNull,
    name: z.string().optional(),
    function: z.string().optional(),
    arguments: z.unknown().optional(),
    input: z.unknown().optional(),
    requestor: z.string().optional(),
  }),
]);

/** A tool call in any dialect: an object, or the whole call as JSON text. */
const toolCallSchema = z.union([objectToolCall, z.string()]);

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

/** A Responses API item that is not a message: it has a `type` and no `role`. */
export const responsesItemSchema = z.looseObject({
  type: z.string(),
  role: z.undefined().optional(),
});

/** Raw entries of a message list: chat messages, and Responses API items between them. */
export const rawMessagesSchema = z.array(z.union([messageSchema, responsesItemSchema]));

/** A message list in any dialect, normalised. */
export const messagesSchema = rawMessagesSchema.transform((raw) => normaliseMessages(raw));

type RawMessage = z.infer<typeof messageSchema>;
type RawEntry = z.infer<typeof rawMessagesSchema>[number];
type RawToolCall = z.infer<typeof toolCallSchema>;

const isRecord = (x: unknown): x is Record<string, unknown> =>
  typeof x === "object" && x !== null && !Array.isArray(x);

/** Content parts that are tool traffic, not text: Anthropic's blocks. */
const TOOL_BLOCKS = new Set(["tool_use", "tool_result"]);

/** The text of one content part: its `text`, else `[type]`. */
function partText(part: unknown): string {
  if (typeof part === "string") return part;
  if (!isRecord(part)) return "";
  if (typeof part.text === "string") return part.text;
  return typeof part.type === "string" ? `[${part.type}]` : "";
}

/** Content as text: strings as they are, content-part lists joined by newlines, null as "". */
export function contentText(raw: unknown): string {
  if (raw === undefined || raw === null) return "";
  if (typeof raw === "string") return raw;
  if (!Array.isArray(raw)) return partText(raw);
  return raw
    .filter((part) => !(isRecord(part) && TOOL_BLOCKS.has(String(part.type))))
    .map(partText)
    .join("\n");
}

/** Arguments as JSON text: a string stays exactly as given; anything else is serialised. */
function argumentsText(raw: unknown): string {
  if (raw === undefined || raw === null) return "{}";
  return typeof raw === "string" ? raw : (JSON.stringify(raw) ?? "{}");
}

const idText = (x: string | number | null | undefined): string | null =>
  x === undefined || x === null ? null : String(x);

/** One tool call, whatever its dialect; a string that is no JSON object is kept as text. */
export function normaliseToolCall(raw: RawToolCall): ToolCall {
  if (typeof raw === "string") {
    const parsed = parseJsonLenient(raw);
    const call = parsed.ok ? objectToolCall.safeParse(parsed.value) : null;
    return call?.success === true
      ? normaliseToolCall(call.data)
      : { id: null, name: "", arguments: raw };
  }
  if (typeof raw.function === "object" && raw.function !== null) {
    const fn = raw.function as { name: string; arguments?: unknown };
    return { id: idText(raw.id), name: fn.name, arguments: argumentsText(fn.arguments) };
  }
  const flat = raw as {
    id?: string | number | null;
    call_id?: string | number | null;
    name?: string;
    function?: string;
    arguments?: unknown;
    input?: unknown;
    requestor?: string;
  };
  const call: ToolCall = {
    // A Responses item's `id` is the item's ("fc_…"); results answer its `call_id`.
    id: idText(flat.call_id ?? flat.id),
    name: flat.name ?? flat.function ?? "",
    arguments: argumentsText(flat.arguments ?? flat.input),
  };
  return flat.requestor === undefined ? call : { ...call, requestor: flat.requestor };
}

/** Anthropic `tool_use` blocks of a content list, as tool calls. */
function toolUseCalls(raw: unknown): ToolCall[] {
  if (!Array.isArray(raw)) return [];
  const out: ToolCall[] = [];
  for (const part of raw) {
    if (!isRecord(part) || part.type !== "tool_use") continue;
    const parsed = objectToolCall.safeParse(part);
    if (parsed.success) out.push(normaliseToolCall(parsed.data));
  }
  return out;
}

/** The name of the call with this id among the messages so far, for results that omit it. */
function callName(messages: readonly ChatMessage[], id: string | null): string | null {
  if (id === null) return null;
  for (let i = messages.length - 1; i >= 0; i--)
    for (const c of messages[i]!.toolCalls) if (c.id === id) return c.name;
  return null;
}

/** Anthropic `tool_result` blocks of a content list, as tool results. */
function toolResults(raw: unknown, before: readonly ChatMessage[]): ChatMessage[] {
  if (!Array.isArray(raw)) return [];
  const out: ChatMessage[] = [];
  for (const part of raw) {
    if (!isRecord(part) || part.type !== "tool_result") continue;
    const id = typeof part.tool_use_id === "string" ? part.tool_use_id : null;
    const result: ChatMessage = {
      role: "tool",
      content: contentText(part.content),
      toolCalls: [],
      toolCallId: id,
      name: callName([...before, ...out], id),
    };
    out.push(part.is_error === true ? { ...result, error: true } : result);
  }
  return out;
}

/** One chat message (without Anthropic tool results: see normaliseMessages). */
export function normaliseMessage(raw: RawMessage): ChatMessage {
  const isTool = raw.role === "tool";
  const message: ChatMessage = {
    role: raw.role,
    content: contentText(raw.content),
    toolCalls: [...(raw.tool_calls ?? []).map(normaliseToolCall), ...toolUseCalls(raw.content)],
    // tau2-bench tool results carry the call id in `id`.
    toolCallId: raw.tool_call_id ?? (isTool ? (raw.id ?? null) : null),
    name: raw.name ?? (isTool ? (raw.function ?? null) : null),
  };
  if (raw.error === true || (typeof raw.error === "object" && raw.error !== null))
    return { ...message, error: true };
  return message;
}

/** A tool call joined to the assistant turn before it (parallel calls, a call after text). */
function appendCall(out: ChatMessage[], call: ToolCall): void {
  const last = out[out.length - 1];
  if (last !== undefined && last.role === "assistant")
    out[out.length - 1] = { ...last, toolCalls: [...last.toolCalls, call] };
  else
    out.push({ role: "assistant", content: "", toolCalls: [call], toolCallId: null, name: null });
}

const itemId = (x: unknown): string | null =>
  typeof x === "string" || typeof x === "number" ? String(x) : null;

/** JSON text of an item without its bookkeeping keys, for item types read generically. */
function itemJson(item: Record<string, unknown>): string {
  const rest: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(item))
    if (k !== "type" && k !== "id" && k !== "status") rest[k] = v;
  return JSON.stringify(rest);
}

/**
 * A Responses API item appended to the messages so far: `function_call` and `custom_tool_call`
 * as calls, their `*_output` items as results, `reasoning` as a reasoning turn. Any other
 * `<tool>_call` item (web_search_call, computer_call, mcp_call, ...) is a call of `<tool>` whose
 * arguments are the item's fields, its `<tool>_call_output` a result; any other item is a turn
 * whose role is its type, so nothing a row holds is dropped or makes it fail.
 */
function appendResponsesItem(out: ChatMessage[], item: Record<string, unknown>): void {
  const type = String(item.type);
  if (type === "function_call" || type === "custom_tool_call") {
    const parsed = objectToolCall.safeParse(item);
    appendCall(
      out,
      parsed.success
        ? normaliseToolCall(parsed.data)
        : { id: itemId(item.call_id), name: "", arguments: argumentsText(item.arguments) },
    );
    return;
  }
  if (type.endsWith("_call_output")) {
    const id = itemId(item.call_id) ?? itemId(item.id);
    const output = item.output;
    out.push({
      role: "tool",
      content:
        typeof output === "string"
          ? output
          : Array.isArray(output)
            ? contentText(output)
            : JSON.stringify(output ?? null),
      toolCalls: [],
      toolCallId: id,
      name: callName(out, id),
    });
    return;
  }
  if (type.endsWith("_call")) {
    appendCall(out, {
      id: itemId(item.call_id) ?? itemId(item.id),
      name: typeof item.name === "string" ? item.name : type.slice(0, -"_call".length),
      arguments: itemJson(item),
    });
    return;
  }
  if (type === "reasoning") {
    // Its summary, else its content (reasoning_text parts).
    const summary = contentText(item.summary);
    out.push({
      role: "reasoning",
      content: summary !== "" ? summary : contentText(item.content),
      toolCalls: [],
      toolCallId: null,
      name: null,
    });
    return;
  }
  out.push({
    role: type,
    content: item.content !== undefined ? contentText(item.content) : itemJson(item),
    toolCalls: [],
    toolCallId: null,
    name: null,
  });
}

/** A message list in any dialect (see the module header), normalised. */
export function normaliseMessages(raw: readonly RawEntry[]): ChatMessage[] {
  const out: ChatMessage[] = [];
  for (const entry of raw) {
    if (!("role" in entry) || typeof entry.role !== "string") {
      appendResponsesItem(out, entry);
      continue;
    }
    const message = normaliseMessage(entry);
    const results = toolResults(entry.content, out);
    // A user turn that only carries tool results is those results, not an empty user turn.
    if (results.length === 0 || message.content !== "" || message.toolCalls.length > 0)
      out.push(message);
    for (const r of results) out.push(r);
  }
  return pairResults(out);
}

/**
 * Tool results that name no call (verifiers' results.jsonl loses `tool_call_id` when the
 * datasets library writes it) answer the calls of the assistant turn before them in order, as
 * chat APIs require them to; a result left over, or with no calls before it, stays unnamed.
 */
function pairResults(messages: ChatMessage[]): ChatMessage[] {
  let open: ToolCall[] = [];
  let answered = new Set<string>();
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i]!;
    if (m.role === "assistant" && m.toolCalls.length > 0) {
      open = [...m.toolCalls];
      answered = new Set();
      continue;
    }
    if (m.role !== "tool") continue;
    if (m.toolCallId !== null) {
      answered.add(m.toolCallId);
      continue;
    }
    const next = open.find((c) => c.id !== null && !answered.has(c.id));
    if (next === undefined || next.id === null) continue;
    answered.add(next.id);
    messages[i] = { ...m, toolCallId: next.id, name: m.name ?? next.name };
  }
  return messages;
}

/** A tool call's arguments as a value: the parsed JSON when they are JSON, else the text as given. */
export function toolArgumentsValue(call: ToolCall): unknown {
  const parsed = parseJsonLenient(call.arguments);
  return parsed.ok ? parsed.value : call.arguments;
}
