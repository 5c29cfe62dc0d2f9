/** Test helper: a JSONL file's rows as written, parsed independently of the loaders under test. */
import { readFileSync } from "node:fs";

export type JsonRow = Record<string, unknown>;

/** Every non-blank line of a JSONL file, parsed with JSON.parse. */
export function jsonlRows(path: string): JsonRow[] {
  return readFileSync(path, "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l) as JsonRow);
}
