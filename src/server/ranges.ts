/**
 * The `Range` header of `GET /api/files/:id` (RFC 9110 section 14). Pure. One byte range per
 * request (`bytes=a-b`, `bytes=a-`, `bytes=-n`): the studio reads a file in slices and never asks
 * for several at once, so anything else (several ranges, another unit, a malformed or
 * unsatisfiable range) is answered 416 with the file's size, and the client knows exactly what it
 * got.
 */

export type RangeRequest =
  | { readonly kind: "whole" }
  /** Inclusive byte offsets, as Content-Range writes them. */
  | { readonly kind: "range"; readonly start: number; readonly end: number }
  | { readonly kind: "unsatisfiable" };

/**
 * Read a Range header against a file of `size` bytes.
 *
 * @param header the header's value, or null when the request has none (the whole file)
 */
export function rangeParse(header: string | null, size: number): RangeRequest {
  if (header === null) return { kind: "whole" };
  const m = /^\s*bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(header);
  if (m === null) return { kind: "unsatisfiable" };
  const [, a = "", b = ""] = m;
  if (a === "" && b === "") return { kind: "unsatisfiable" };
  if (a === "") {
    // A suffix: the last n bytes (all of them when n exceeds the size).
    const n = Number(b);
    if (n === 0 || size === 0) return { kind: "unsatisfiable" };
    return { kind: "range", start: Math.max(0, size - n), end: size - 1 };
  }
  const start = Number(a);
  const end = b === "" ? size - 1 : Math.min(Number(b), size - 1);
  if (!Number.isSafeInteger(start) || start >= size || (b !== "" && Number(b) < start))
    return { kind: "unsatisfiable" };
  return { kind: "range", start, end };
}
