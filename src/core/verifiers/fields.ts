/** Metadata paths: where a verifier finds a rollout's ground truth or its schema. */

function isPlainObject(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Look a value up by path, with the field mapping's rules (io `fieldAt`): the whole path as one key
 * first (a source field may contain dots), then dot-separated keys, where a numeric segment or
 * `[i]` indexes an array ("reward_model.ground_truth", "answers[0]").
 *
 * @returns undefined when any step is missing
 */
export function verifierFieldAt(record: unknown, path: string): unknown {
  if (isPlainObject(record) && Object.hasOwn(record, path)) return record[path];
  const segments = path
    .replace(/\[(\d+)\]/g, ".$1")
    .split(".")
    .filter((s) => s !== "");
  if (segments.length === 0) return undefined;
  let at: unknown = record;
  for (const segment of segments) {
    if (Array.isArray(at) && /^\d+$/.test(segment))
      at = (at as readonly unknown[])[Number(segment)];
    else if (isPlainObject(at) && Object.hasOwn(at, segment)) at = at[segment];
    else return undefined;
  }
  return at;
}

/**
 * The metadata paths with a value in any of the records, for a field picker: every key, and the
 * keys of nested objects joined with dots, depth-first in first-seen order. Arrays are leaves (a
 * list of accepted answers is one field). At most `limit` paths.
 */
export function verifierFieldPaths(
  records: Iterable<Readonly<Record<string, unknown>>>,
  limit = 200,
  maxDepth = 3,
): string[] {
  const seen = new Set<string>();
  const walk = (value: Readonly<Record<string, unknown>>, prefix: string, depth: number): void => {
    for (const [key, child] of Object.entries(value)) {
      if (seen.size >= limit) return;
      const path = prefix === "" ? key : `${prefix}.${key}`;
      seen.add(path);
      if (isPlainObject(child) && depth < maxDepth) walk(child, path, depth + 1);
    }
  };
  for (const record of records) {
    if (seen.size >= limit) break;
    walk(record, "", 1);
  }
  return [...seen];
}
