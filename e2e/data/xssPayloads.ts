/**
 * The hostile-text corpus (issue 8 part 3), read from xss-payloads.json: at least 50 payloads in
 * categories (script tags, event handlers, SVG, MathML, javascript:/data: links in markdown, CSS
 * injection, HTML entities, bidi controls, zero-width and tag characters, template injection and
 * polyglots). Every payload sets `window.__xss` (or `parent.__xss`) or opens a dialog if it ever
 * runs. Specs that render user or model text (transcripts, notes, rubrics) reuse it with the
 * checks in ../harness/xss.ts.
 */
import { readFileSync } from "node:fs";

export interface XssPayload {
  /** Stable id, `<category>-<n>`. */
  readonly id: string;
  readonly category: string;
  readonly payload: string;
  /** What the payload tries. */
  readonly note: string;
}

function isPayload(value: unknown): value is XssPayload {
  if (typeof value !== "object" || value === null) return false;
  const v = value as Record<string, unknown>;
  return ["id", "category", "payload", "note"].every((k) => typeof v[k] === "string");
}

function read(): XssPayload[] {
  const raw = JSON.parse(
    readFileSync(new URL("./xss-payloads.json", import.meta.url), "utf8"),
  ) as unknown;
  const list =
    typeof raw === "object" && raw !== null ? (raw as { payloads?: unknown }).payloads : undefined;
  if (!Array.isArray(list) || !list.every(isPayload))
    throw new Error(
      "e2e/data/xss-payloads.json: expected { payloads: [{ id, category, payload, note }] }",
    );
  return list;
}

export const XSS_PAYLOADS: readonly XssPayload[] = read();

/** The categories, in corpus order. */
export const XSS_CATEGORIES: readonly string[] = [...new Set(XSS_PAYLOADS.map((p) => p.category))];
