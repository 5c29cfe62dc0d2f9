/**
 * Strict parsing of an LLM clusterer's assignments (benchmax `LLMDiversityConfig`, methods.md 1.4).
 * Any omitted, repeated or out-of-range index is an error for the whole group: it is shown as a judge
 * error and never silently mis-scored.
 */
import type { ClusterResult } from "./cluster.ts";

/** benchmax raises `JudgeError("diversity clustering failed: …")` on any of these. */
export class ClusterAssignmentError extends Error {
  override name = "ClusterAssignmentError";
  constructor(detail: string) {
    super(`diversity clustering failed: ${detail}`);
  }
}

function isRecord(x: unknown): x is Record<string, unknown> {
  return typeof x === "object" && x !== null && !Array.isArray(x);
}

/**
 * Validate `{"assignments": [{"index": int, "cluster_id": str, "label"?: str}]}` for n texts.
 * Ids and labels are trimmed; divisors count each cluster id. Numeric cluster indices follow the
 * order of each cluster's smallest member, as n-gram clusters do.
 *
 * @throws ClusterAssignmentError naming the first problem ("out of range", "repeated", "omitted indices", …)
 */
export function clusterFromAssignments(n: number, reply: unknown): ClusterResult {
  if (!isRecord(reply) || !Array.isArray(reply.assignments)) {
    throw new ClusterAssignmentError("assignments is not a list");
  }
  const ids = new Array<string | undefined>(n).fill(undefined);
  const labels = new Array<string>(n).fill("");
  for (const entry of reply.assignments as unknown[]) {
    if (!isRecord(entry)) throw new ClusterAssignmentError("an assignment is not an object");
    const index = entry.index;
    if (typeof index !== "number" || !Number.isInteger(index)) {
      throw new ClusterAssignmentError(`index ${JSON.stringify(index)} is not an integer`);
    }
    if (index < 0 || index >= n)
      throw new ClusterAssignmentError(`index ${index} is out of range 0..${n - 1}`);
    if (ids[index] !== undefined) throw new ClusterAssignmentError(`index ${index} is repeated`);
    const clusterId = typeof entry.cluster_id === "string" ? entry.cluster_id.trim() : "";
    if (clusterId === "")
      throw new ClusterAssignmentError(`index ${index} has an empty cluster_id`);
    if (entry.label !== undefined && typeof entry.label !== "string") {
      throw new ClusterAssignmentError(`the label of index ${index} is not a string`);
    }
    ids[index] = clusterId;
    labels[index] = typeof entry.label === "string" ? entry.label.trim() : "";
  }
  const omitted = ids.flatMap((id, i) => (id === undefined ? [i] : []));
  if (omitted.length > 0) throw new ClusterAssignmentError(`omitted indices ${omitted.join(", ")}`);
  const clusterIds = ids as string[];
  const counts = new Map<string, number>();
  const order = new Map<string, number>();
  for (const id of clusterIds) {
    counts.set(id, (counts.get(id) ?? 0) + 1);
    if (!order.has(id)) order.set(id, order.size);
  }
  return {
    clusterIds,
    clusterIndex: clusterIds.map((id) => order.get(id)!),
    divisors: clusterIds.map((id) => counts.get(id)!),
    labels,
    nClusters: counts.size,
  };
}
