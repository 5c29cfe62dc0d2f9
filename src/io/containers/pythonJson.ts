/**
 * Python's `json.dumps` writes NaN, Infinity and -Infinity by default (allow_nan=True), so verl and
 * TRL dumps can hold them. They are not JSON. When a record fails to parse and holds such tokens
 * outside strings, they become the strings "NaN", "Infinity" and "-Infinity": each format then
 * decides what they mean (TRL's reward columns read "NaN" as "not applicable", a native or verl
 * reward rejects them by name as non-finite), and nothing is turned into a number silently.
 */

const TOKENS: readonly [string, string][] = [
  ["-Infinity", '"-Infinity"'],
  ["Infinity", '"Infinity"'],
  ["NaN", '"NaN"'],
];

const isWordChar = (c: string | undefined): boolean => c !== undefined && /[A-Za-z0-9_]/.test(c);

/** Rewrite the non-JSON tokens outside strings; null when there are none. */
export function rewritePythonTokens(text: string): string | null {
  if (!/NaN|Infinity/.test(text)) return null;
  let out = "";
  let changed = false;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (inString) {
      out += c;
      if (c === "\\") out += text[++i] ?? "";
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') {
      inString = true;
      out += c;
      continue;
    }
    const hit = TOKENS.find(
      ([token]) =>
        text.startsWith(token, i) &&
        !isWordChar(text[i - 1]) &&
        !isWordChar(text[i + token.length]),
    );
    if (hit !== undefined) {
      out += hit[1];
      i += hit[0].length - 1;
      changed = true;
      continue;
    }
    out += c;
  }
  return changed ? out : null;
}

/** JSON.parse, accepting Python's NaN and infinities as described above. */
export function parseJsonLenient(
  text: string,
): { ok: true; value: unknown } | { ok: false; message: string } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (e) {
    const rewritten = rewritePythonTokens(text);
    if (rewritten !== null) {
      try {
        return { ok: true, value: JSON.parse(rewritten) as unknown };
      } catch {
        // Fall through to the original error, which points at the real problem.
      }
    }
    return { ok: false, message: e instanceof Error ? e.message : String(e) };
  }
}
