/**
 * A judge's reply text to JSON, as benchmax `Judge.request_json` reads it (methods.md 1.4):
 * remove `<think>…</think>` blocks, unwrap a ``` fence, try the whole text, then decode from each `{`
 * in turn until one yields an object. Models wrap JSON in prose; this takes the first object.
 */

export type ReplyJson =
  { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly error: string };

/** Drop reasoning blocks, including an unclosed one at the end. */
export function stripThink(text: string): string {
  return text.replace(/<think>[\s\S]*?<\/think>/gi, "").replace(/<think>[\s\S]*$/i, "");
}

/** The body of the first ``` fence (any info string), or the text itself. */
export function unwrapFence(text: string): string {
  const match = /```[^\n`]*\n([\s\S]*?)```/.exec(text);
  return match ? match[1]! : text;
}

/** The end of the JSON object starting at `start` (a "{"), string-aware; -1 if it never closes. */
function objectEnd(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === "\\") i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === "{") depth++;
    else if (c === "}" && --depth === 0) return i + 1;
  }
  return -1;
}

export function parseReplyJson(reply: string): ReplyJson {
  const text = unwrapFence(stripThink(reply)).trim();
  if (text === "") return { ok: false, error: "the reply is empty" };
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    // fall through to scanning for an embedded object
  }
  for (let start = text.indexOf("{"); start !== -1; start = text.indexOf("{", start + 1)) {
    const end = objectEnd(text, start);
    if (end === -1) continue;
    try {
      const value = JSON.parse(text.slice(start, end)) as unknown;
      if (typeof value === "object" && value !== null && !Array.isArray(value))
        return { ok: true, value };
    } catch {
      // not an object here; try the next "{"
    }
  }
  return {
    ok: false,
    error: `no JSON object in the reply: ${text.length > 80 ? `${text.slice(0, 80)}…` : text}`,
  };
}
