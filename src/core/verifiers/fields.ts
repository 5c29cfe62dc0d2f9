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
 * The paths a loader keeps out of the metadata, as the rollout's own fields, that a verifier may
 * still read as a ground truth: the native format's (and Inspect's) `answer` is the rollout's
 * `answer`. verl's `gts` and a verifiers-library row's `answer` stay in the metadata, where
 * {@link verifierFieldAt} finds them.
 */
export const VERIFIER_ROLLOUT_FIELDS = ["answer"] as const;

/**
 * Where a verifier reads `path` on a rollout: the metadata (the loaders keep every source field
 * they do not map there), else the format's own field of that name (`answer`, see
 * {@link VERIFIER_ROLLOUT_FIELDS}) when the rollout has one.
 *
 * @returns undefined when neither has it
 */
export function verifierRolloutFieldAt(
  rollout: { readonly meta: unknown; readonly answer: string | null },
  path: string,
): unknown {
  const inMeta = verifierFieldAt(rollout.meta, path);
  if (inMeta !== undefined) return inMeta;
  if (path === "answer" && rollout.answer !== null) return rollout.answer;
  return undefined;
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
