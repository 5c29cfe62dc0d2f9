/** Zod building blocks whose error messages say what was expected and what was found. */
import { z } from "zod";

const PREVIEW = 40;

/**
 * The start of a value's JSON text, as JSON.stringify writes it, stopping once `limit` characters
 * are written: a 300 MB value or one nested 20,000 levels deep is never serialised whole (that
 * would take its size in time, or overflow the stack) just to show its first 40 characters.
 */
function jsonPrefix(x: unknown, limit: number): string {
  let out = "";
  const write = (v: unknown, inArray: boolean): void => {
    if (out.length > limit) return;
    if (typeof v === "string") out += JSON.stringify(v.slice(0, limit + 2));
    else if (typeof v === "number") out += Number.isFinite(v) ? String(v) : "null";
    else if (typeof v === "boolean" || v === null) out += String(v);
    else if (typeof v === "bigint") out += v.toString();
    else if (typeof v !== "object") out += inArray ? "null" : "";
    else if (Array.isArray(v)) {
      out += "[";
      for (let i = 0; i < v.length && out.length <= limit; i++) {
        if (i > 0) out += ",";
        write(v[i], true);
      }
      out += "]";
    } else {
      out += "{";
      let first = true;
      for (const [k, child] of Object.entries(v)) {
        if (out.length > limit) break;
        if (child === undefined || typeof child === "function" || typeof child === "symbol")
          continue;
        out += `${first ? "" : ","}${JSON.stringify(k)}:`;
        first = false;
        write(child, false);
      }
      out += "}";
    }
  };
  write(x, false);
  return out;
}

/** A short rendering of an offending value for an error message: its JSON text, cut at 40 characters. */
export function describeValue(x: unknown): string {
  if (x === undefined) return "nothing";
  if (typeof x === "function" || typeof x === "symbol") return typeof x;
  const text = jsonPrefix(x, PREVIEW);
  return text.length > PREVIEW ? `${text.slice(0, PREVIEW)}…` : text;
}

const got = (what: string) => (issue: { input: unknown }) =>
  issue.input === undefined
    ? `is required (${what})`
    : `expected ${what}, got ${describeValue(issue.input)}`;

/** A finite number. JSON cannot hold NaN or Infinity, so "NaN" and "Infinity" arrive as strings: rejected. */
export const finiteNumber = z.number({ error: got("a finite number") });

/** A non-empty string or an integer, as a group or rollout id; returned as given. */
export const idLike = z.union([z.string().min(1), z.number().check(z.int())], {
  error: got("a non-empty string or an integer"),
});
