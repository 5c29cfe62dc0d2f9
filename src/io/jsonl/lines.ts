/**
 * Line and JSON-array splitting with 1-based line numbers, so every record and every problem can be
 * traced to where it is in the file. Handles a BOM, CRLF, and a missing final newline.
 */

export interface TextLine {
  readonly line: number;
  readonly text: string;
}

/** Strip a UTF-8 byte-order mark. */
export function stripBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** Split text into lines (LF or CRLF), numbered from 1. A final newline does not add an empty line. */
export function splitLines(text: string): TextLine[] {
  const body = stripBom(text);
  if (body === "") return [];
  const parts = body.split("\n");
  if (parts[parts.length - 1] === "") parts.pop();
  return parts.map((raw, i) => ({
    line: i + 1,
    text: raw.endsWith("\r") ? raw.slice(0, -1) : raw,
  }));
}

export interface ArrayElement {
  /** Line of the element's first character. */
  readonly line: number;
  readonly text: string;
}

export interface SplitArrayResult {
  readonly elements: readonly ArrayElement[];
  /** Set when the array is malformed: unterminated, or junk after it. Elements before it are kept. */
  readonly error: { readonly line: number; readonly message: string } | null;
}

/**
 * Split a top-level JSON array into the source text of its elements without parsing them, so one
 * bad element costs one record, not the file. The caller has checked that the text starts with "[".
 */
export function splitJsonArray(text: string): SplitArrayResult {
  const s = stripBom(text);
  const elements: ArrayElement[] = [];
  let i = s.indexOf("[");
  let line = 1;
  for (let k = 0; k < i; k++) if (s.charCodeAt(k) === 10) line++;
  i++;
  let depth = 0;
  let inString = false;
  let start = -1;
  let startLine = line;
  const close = (end: number): void => {
    if (start === -1) return;
    const body = s.slice(start, end).trim();
    if (body !== "") elements.push({ line: startLine, text: body });
    start = -1;
  };
  for (; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 10) line++;
    if (inString) {
      if (c === 92)
        i++; // backslash: skip the escaped character (never a newline in valid JSON)
      else if (c === 34) inString = false;
      continue;
    }
    if (c === 34) {
      inString = true;
      if (start === -1) {
        start = i;
        startLine = line;
      }
      continue;
    }
    if (depth === 0 && (c === 44 || c === 93)) {
      // "," or "]" at the top level ends an element.
      close(i);
      if (c === 93) {
        const rest = s.slice(i + 1).trim();
        return {
          elements,
          error: rest === "" ? null : { line, message: "unexpected text after the closing ]" },
        };
      }
      continue;
    }
    if (c === 123 || c === 91) depth++;
    else if (c === 125 || c === 93) depth--;
    if (start === -1 && c !== 32 && c !== 9 && c !== 10 && c !== 13) {
      start = i;
      startLine = line;
    }
  }
  close(s.length);
  return {
    elements,
    error: { line, message: "the JSON array is not closed: the file ends early (truncated?)" },
  };
}
