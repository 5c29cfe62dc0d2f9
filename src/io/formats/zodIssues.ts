/** Turn zod's issues into ParseIssues that name the file, the line and the field. */
import type { z } from "zod";
import type { ParseIssue } from "../issues.ts";
import type { RecordRef } from "./spec.ts";

export function fieldPath(path: readonly PropertyKey[], prefix = ""): string {
  let out = prefix;
  for (const key of path) {
    if (typeof key === "number") out += `[${key}]`;
    else out += out === "" ? String(key) : `.${String(key)}`;
  }
  return out;
}

export function zodIssues(ref: RecordRef, error: z.ZodError, prefix = ""): ParseIssue[] {
  return error.issues.map((issue) => ({
    ...ref,
    field: fieldPath(issue.path, prefix) || undefined,
    message: issue.message,
  }));
}
