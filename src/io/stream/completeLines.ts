/**
 * A file being written (issue 14, live follow): a trainer appending JSONL leaves a half-written
 * last line between two writes. Read while following, such a file is taken up to its last complete
 * line, and the rest is held back until it is complete: a half line is never an issue, and it is
 * read once, whole, when its newline arrives. A last line without a newline that parses as JSON is
 * complete (a finished file need not end with one). Only JSON-lines files are cut this way.
 */
import { capped, type ByteSource } from "./byteSource.ts";

const TAIL = 1 << 20;
const NEWLINE = 0x0a;

/** True for names the follow rule applies to: JSON lines. */
export function isJsonLinesName(name: string): boolean {
  return /\.(jsonl|ndjson)$/i.test(name);
}

function parsesWhole(bytes: Uint8Array): boolean {
  const text = new TextDecoder().decode(bytes).trim();
  if (text === "") return true;
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * The size of a followed file's complete part, and the bytes held back after it. Reads the file's
 * end (1 MB, further back when its last line is longer), never the whole file at once.
 */
export async function completeLinesSize(
  source: Pick<ByteSource, "size" | "slice" | "name">,
): Promise<{ readonly size: number; readonly heldBack: number }> {
  const { size } = source;
  if (size === 0 || !isJsonLinesName(source.name)) return { size, heldBack: 0 };
  let span = TAIL;
  for (;;) {
    const start = Math.max(0, size - span);
    const tail = new Uint8Array(await source.slice(start, size).arrayBuffer());
    if (tail[tail.length - 1] === NEWLINE) return { size, heldBack: 0 };
    const last = tail.lastIndexOf(NEWLINE);
    if (last !== -1 || start === 0) {
      const lineStart = last === -1 ? 0 : start + last + 1;
      const line = tail.subarray(last + 1);
      return parsesWhole(line)
        ? { size, heldBack: 0 }
        : { size: lineStart, heldBack: size - lineStart };
    }
    span *= 4;
  }
}

/** A source cut to its first `size` bytes. */
export function sourcePrefix<S extends ByteSource>(source: S, size: number): ByteSource {
  if (size >= source.size) return source;
  return {
    name: source.name,
    size,
    stream: () => capped(source.stream(), size),
    slice: (start, end) => source.slice(Math.min(start, size), Math.min(end, size)),
  };
}
