/** A cluster's id, framed in its colour. `pending` while the worker computes the clusters. */
import { clusterColor } from "./clusterColor.ts";

export default function ClusterChip({
  cluster,
  size,
  pending = false,
  testId,
}: {
  cluster: number;
  size: number;
  pending?: boolean;
  /** The stable test id of the plain cluster id (`metric-cluster` in rollout columns). */
  testId?: string;
}) {
  if (pending) {
    return (
      <span className="cluster-chip cluster-chip--pending" aria-label="clusters being computed">
        <span data-testid={testId} />…
      </span>
    );
  }
  return (
    <span
      className="cluster-chip"
      // The colour marks the border and the dot; the text keeps the page's text colour, since
      // several cluster colours (orange, sky blue) are too light for text (WCAG AA, axe).
      style={{ borderColor: clusterColor(cluster) }}
      title={`cluster ${cluster}, ${size} rollout${size === 1 ? "" : "s"}`}
    >
      <span
        aria-hidden="true"
        className="cluster-chip__dot"
        style={{ background: clusterColor(cluster) }}
      />
      <span data-testid={testId}>{cluster}</span>
      {size > 1 ? <span className="cluster-chip__size">×{size}</span> : null}
    </span>
  );
}
