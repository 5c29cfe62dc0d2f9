/**
 * The guard every record passes before a format reads it (load.ts, stream/indexedFile.ts), for two
 * shapes no format can read safely:
 *
 * - Deep nesting. JSON.parse reads any depth, but JSON.stringify, structuredClone (the worker's
 *   postMessage) and recursive readers (zod, Inspect's attachment resolver) overflow the stack on a
 *   value nested a few thousand levels deep. Such a record would throw a RangeError that loses the
 *   whole file.
 * - A `__proto__` key. JSON.parse makes it an ordinary own key, but every later copy (zod's parse,
 *   spreads into meta, a CSV row built by assignment) turns it into the copy's prototype or drops
 *   it, so the field would vanish without a word.
 *
 * Either becomes an issue naming the record's field, and the record is skipped.
 */
import type { ParseIssue } from "../issues.ts";
import type { RecordRef } from "./spec.ts";

/** Deepest nesting of arrays and objects a record may have; real rollouts stay far below it. */
export const MAX_NESTING = 512;

/** Arrays and objects; Parquet's binary cells are byte arrays, which are leaves. */
const isContainer = (v: unknown): v is object =>
  typeof v === "object" && v !== null && !ArrayBuffer.isView(v);

const fieldName = (field: string | number): string =>
  typeof field === "number" ? `[${field}]` : field;

/**
 * Walk a value without recursion; report it when it nests deeper than `limit` levels (the record
 * itself is level 1) or holds a `__proto__` key. The issue names the top-level field involved.
 */
export function recordGuardIssue(
  ref: RecordRef,
  value: unknown,
  limit: number = MAX_NESTING,
): ParseIssue | null {
  if (!isContainer(value)) return null;
  // Each entry: a container, its depth, and the top-level field it sits under (null for the root).
  const stack: [object, number, string | number | null][] = [[value, 1, null]];
  while (stack.length > 0) {
    const [node, depth, field] = stack.pop()!;
    if (depth > limit) {
      return {
        ...ref,
        ...(field === null ? {} : { field: fieldName(field) }),
        message: `nests arrays and objects more than ${limit} levels deep; the record is skipped`,
      };
    }
    if (Array.isArray(node)) {
      for (let i = 0; i < node.length; i++) {
        const child: unknown = node[i];
        if (isContainer(child)) stack.push([child, depth + 1, field ?? i]);
      }
    } else {
      if (Object.hasOwn(node, "__proto__")) {
        return {
          ...ref,
          field: field === null ? "__proto__" : fieldName(field),
          message:
            'holds a key named "__proto__", which cannot be kept as data (JavaScript would take it for the prototype); the record is skipped',
        };
      }
      const record = node as Record<string, unknown>;
      for (const key of Object.keys(record)) {
        const child = record[key];
        if (isContainer(child)) stack.push([child, depth + 1, field ?? key]);
      }
    }
  }
  return null;
}
