/**
 * A rollout column's transcript. Opening a 64-rollout group of long transcripts rendered every
 * transcript in one main-thread task of 140-240 ms (T3, bench/README.md). Now only the columns on
 * screen at first (the visible ones, one more, and the pinned ones) mount their transcript with the
 * group; the others mount theirs in a transition after the first paint, which React renders in
 * slices that yield to input and paint.
 */
import { Transcript } from "../../components/transcript/Transcript.tsx";
import { useDeferredMount } from "../../components/transcript/useDeferredMount.ts";
import type { Rollout } from "../../../core/index.ts";
import { useState } from "react";
import styles from "./Rollouts.module.css";

/** Columns past the visible ones whose transcripts still mount with the group (scrolled to first). */
export const EAGER_OVERSCAN = 1;

/** Whether the column at `index` mounts its transcript with the group. */
export function eagerTranscript(index: number, visible: number, pinned: boolean): boolean {
  return pinned || index < visible + EAGER_OVERSCAN;
}

export default function ColumnTranscript({
  rollout,
  showPrompt,
  eager,
}: {
  rollout: Rollout;
  showPrompt: boolean;
  /** Read at mount only: a column keeps its transcript once it has one. */
  eager: boolean;
}) {
  const [mountNow] = useState(eager);
  const deferred = useDeferredMount();
  if (!mountNow && !deferred)
    return (
      <p className={styles.muted} data-testid="rollout-column.pending">
        Rendering…
      </p>
    );
  return <Transcript rollout={rollout} showPrompt={showPrompt} />;
}
