/**
 * View model of one rollout's transcript: role-styled turns, tool calls with pretty-printed
 * arguments, tool results with a one-line preview (an error's message for a tool error, core
 * `toolResultError`), and where long text folds. Pure; the
 * components in Transcript.tsx render it and decide nothing.
 */
import {
  toolResultError,
  type ChatMessage,
  type Rollout,
  type RolloutGroup,
  type ToolErrorKind,
} from "../../../core/index.ts";
import { HUGE_TEXT_CHARS } from "./hugeText.ts";

/** Text longer than this many characters or lines folds behind "show more". */
export const FOLD_MAX_CHARS = 1200;
export const FOLD_MAX_LINES = 20;
/** Characters of a folded tool result's one-line preview. */
export const PREVIEW_CHARS = 120;
/** Messages rendered at first, and per "show more messages": keeps very long transcripts cheap. */
export const MESSAGE_PAGE = 60;

export type RoleKind = "system" | "user" | "assistant" | "tool" | "other";

/** How a long text folds: the head shown while folded, and what is hidden. */
export interface Fold {
  readonly head: string;
  readonly hiddenLines: number;
  readonly hiddenChars: number;
  /**
   * The text is longer than HUGE_TEXT_CHARS: shown folded with its size and, once opened, in
   * pieces (HugeText.tsx), never whole; `hiddenLines` is then not counted (0).
   */
  readonly huge?: true;
}

export interface ToolCallView {
  readonly key: string;
  readonly name: string;
  readonly id: string | null;
  /** Pretty-printed JSON when the arguments are JSON, else the text as given. */
  readonly args: string;
  readonly argsValid: boolean;
  readonly fold: Fold | null;
}

export type TranscriptItem =
  | {
      readonly kind: "turn";
      readonly key: string;
      readonly role: RoleKind;
      /** The role as the source wrote it. */
      readonly label: string;
      readonly text: string;
      readonly fold: Fold | null;
      readonly calls: readonly ToolCallView[];
      /** "diff" when the text is a unified diff (an agent's patch): shown as code, not markdown. */
      readonly code?: "diff";
    }
  | {
      readonly kind: "result";
      readonly key: string;
      /** The tool's name, from the message or from the call it answers. */
      readonly name: string | null;
      readonly preview: string;
      /** Pretty-printed JSON when the content is JSON, else the content as given. */
      readonly body: string;
      readonly json: boolean;
      /** Why the result is a tool error (core `toolResultError`), or null when it is not one. */
      readonly error: ToolErrorKind | null;
      readonly fold: Fold | null;
    };

export interface TranscriptView {
  readonly items: readonly TranscriptItem[];
  /** Tool calls in the transcript. */
  readonly toolCalls: number;
}

/**
 * Whether a text folds, and its head while folded: at most FOLD_MAX_LINES lines and
 * FOLD_MAX_CHARS characters, cut at a line end or a space when one is near the limit.
 */
export function foldText(
  text: string,
  maxChars = FOLD_MAX_CHARS,
  maxLines = FOLD_MAX_LINES,
): Fold | null {
  if (text.length > HUGE_TEXT_CHARS) {
    // Splitting 50 MB into lines took longer than a frame: the head comes from a slice.
    const head = foldText(text.slice(0, maxChars + 1), maxChars, maxLines)?.head ?? "";
    return { head, hiddenLines: 0, hiddenChars: text.length - head.length, huge: true };
  }
  const lines = text.split("\n");
  if (text.length <= maxChars && lines.length <= maxLines) return null;
  let head = lines.slice(0, maxLines).join("\n");
  if (head.length > maxChars) {
    const cut = head.slice(0, maxChars);
    const space = Math.max(cut.lastIndexOf("\n"), cut.lastIndexOf(" "));
    head = space > maxChars * 0.8 ? cut.slice(0, space) : cut;
  }
  head = head.trimEnd();
  const shownLines = head.split("\n").length;
  return {
    head,
    hiddenLines: lines.length - shownLines,
    hiddenChars: text.length - head.length,
  };
}

/** JSON text pretty-printed with two spaces, or null when it is not JSON (or not an object/array). */
export function prettyJson(text: string): string | null {
  // A huge text is shown in pieces as given: parsing and re-printing it would block the page.
  if (text.length > HUGE_TEXT_CHARS) return null;
  const trimmed = text.trim();
  if (!trimmed.startsWith("{") && !trimmed.startsWith("[")) return null;
  try {
    return JSON.stringify(JSON.parse(trimmed), null, 2);
  } catch {
    return null;
  }
}

/** One line of at most `max` characters: whitespace collapsed, an ellipsis when cut. */
export function previewLine(text: string, max = PREVIEW_CHARS): string {
  // Collapsed from a slice: a tool result of megabytes is previewed without reading it whole.
  const read = max * 8;
  const flat = text.slice(0, read).replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max)}…` : text.length > read ? `${flat}…` : flat;
}

export function roleKind(role: string): RoleKind {
  switch (role) {
    case "system":
    case "developer":
      return "system";
    case "user":
    case "human":
      return "user";
    case "assistant":
    case "model":
    case "ai":
      return "assistant";
    case "tool":
    case "function":
    case "ipython":
      return "tool";
    default:
      return "other";
  }
}

function callView(call: ChatMessage["toolCalls"][number], key: string): ToolCallView {
  const pretty = prettyJson(call.arguments);
  const args = pretty ?? call.arguments;
  return {
    key,
    name: call.name,
    id: call.id,
    args,
    // Huge arguments are not parsed (prettyJson): shown as given, without a verdict on them.
    argsValid:
      pretty !== null || call.arguments.trim() === "" || call.arguments.length > HUGE_TEXT_CHARS,
    fold: foldText(args),
  };
}

function messageItem(
  m: ChatMessage,
  key: string,
  callNames: ReadonlyMap<string, string>,
): TranscriptItem {
  const kind = roleKind(m.role);
  if (kind === "tool") {
    const pretty = prettyJson(m.content);
    const body = pretty ?? m.content;
    const error = toolResultError(m);
    return {
      kind: "result",
      key,
      name: m.name ?? (m.toolCallId === null ? null : (callNames.get(m.toolCallId) ?? null)),
      // An error's preview is its message, so the folded line says what failed.
      preview: previewLine(
        error !== null && error.message.trim() !== "" ? error.message : m.content,
      ),
      body,
      json: pretty !== null,
      error: error?.kind ?? null,
      fold: foldText(body),
    };
  }
  return {
    kind: "turn",
    key,
    role: kind,
    label: m.role,
    text: m.content,
    fold: foldText(m.content),
    calls: m.toolCalls.map((c, j) => callView(c, `${key}.c${j}`)),
    ...diffCode(m.content),
  };
}

/**
 * A unified diff (`git diff`, SWE-agent's submission, OpenHands' git_patch) as markdown loses its
 * line breaks and turns `+`/`-` lines into lists; it is shown as code instead.
 */
export function isUnifiedDiff(text: string): boolean {
  const t = text.trimStart();
  if (t.startsWith("diff --git ")) return true;
  return /^--- \S[^\n]*\n\+\+\+ \S[^\n]*\n@@ /.test(t);
}

const diffCode = (text: string): { code?: "diff" } => (isUnifiedDiff(text) ? { code: "diff" } : {});

/** The turns of a list of messages (a prompt or a transcript), keyed by `prefix` and position. */
export function prepareMessages(
  messages: readonly ChatMessage[],
  prefix: string,
): TranscriptItem[] {
  const callNames = new Map<string, string>();
  return messages.map((m, i) => {
    for (const c of m.toolCalls) if (c.id !== null) callNames.set(c.id, c.name);
    return messageItem(m, `${prefix}${i}`, callNames);
  });
}

/** A prompt as turns: a text prompt is one user turn; null is none. */
export function preparePrompt(prompt: Rollout["prompt"]): TranscriptItem[] {
  if (prompt === null) return [];
  if (typeof prompt === "string") {
    return prompt.trim() === ""
      ? []
      : [
          {
            kind: "turn",
            key: "p0",
            role: "user",
            label: "prompt",
            text: prompt,
            fold: foldText(prompt),
            calls: [],
          },
        ];
  }
  return prepareMessages(prompt, "p");
}

/**
 * A rollout's transcript after the prompt. A plain completion is an assistant turn after the
 * messages (sources give one or the other; both are shown when both exist).
 */
export function prepareTranscript(rollout: Rollout): TranscriptView {
  const items = prepareMessages(rollout.messages, "m");
  if (rollout.completion !== null) {
    items.push({
      kind: "turn",
      key: "completion",
      role: "assistant",
      label: rollout.messages.length === 0 ? "assistant" : "completion",
      text: rollout.completion,
      fold: foldText(rollout.completion),
      calls: [],
      ...diffCode(rollout.completion),
    });
  }
  const toolCalls = rollout.messages.reduce((s, m) => s + m.toolCalls.length, 0);
  return { items, toolCalls };
}

function samePrompt(a: Rollout["prompt"], b: Rollout["prompt"]): boolean {
  return a === b || JSON.stringify(a) === JSON.stringify(b);
}

/**
 * The prompt every rollout of the group shares, shown once above the columns; null when the
 * rollouts' prompts differ (each column then shows its own) or the group has none.
 */
export function sharedPrompt(group: RolloutGroup): Rollout["prompt"] {
  const first = group.rollouts[0];
  if (first === undefined || first.prompt === null) return null;
  return group.rollouts.every((r) => samePrompt(r.prompt, first.prompt)) ? first.prompt : null;
}

/** Whether a text has a fenced code block (and so wants the lazily loaded highlighter). */
export function hasCodeFence(text: string): boolean {
  return /(^|\n)[ \t]{0,3}(```|~~~)/.test(text);
}

/**
 * A code block as a markdown fence that its content cannot close: the fence is longer than any
 * run of backticks in the code (CommonMark 4.5).
 */
export function codeFence(code: string, language: string): string {
  const longest = Math.max(0, ...Array.from(code.matchAll(/`+/g), (m) => m[0].length));
  const fence = "`".repeat(Math.max(3, longest + 1));
  return `${fence}${language}\n${code}\n${fence}`;
}
