/** Zod building blocks whose error messages say what was expected and what was found. */
import { z } from "zod";

/** A short rendering of an offending value for an error message. */
export function describeValue(x: unknown): string {
  if (x === undefined) return "nothing";
  const text = JSON.stringify(x) ?? typeof x;
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
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
