/** TRL's batch layout: `num_generations` consecutive completions per prompt (methods.md 2.6, 3.1). */

/**
 * Split a flat batch into consecutive groups of `groupSize`, as whileai `shape` does.
 *
 * @throws RangeError "… do not split …" when the length is not a multiple of the group size
 */
export function batchSplit<T>(values: readonly T[], groupSize: number): T[][] {
  if (!(Number.isInteger(groupSize) && groupSize >= 1)) {
    throw new RangeError(`group size must be a positive integer, got ${groupSize}`);
  }
  if (values.length % groupSize !== 0) {
    throw new RangeError(`${values.length} rewards do not split into groups of ${groupSize}`);
  }
  const out: T[][] = [];
  for (let i = 0; i < values.length; i += groupSize) out.push(values.slice(i, i + groupSize));
  return out;
}
