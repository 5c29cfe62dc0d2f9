/**
 * Mounts a view's parts one per task, after the first has painted: a Metrics tab of a 512-rollout
 * group is a 512-row table, three bar charts of 512 bars and two heatmaps, and committed at once
 * it is one main-thread task of about a second. Staged, the table shows first and every later
 * part is its own task, so clicks and keys are answered between them.
 */
import { useEffect, useState } from "react";

/** The next task after the next frame (a frame, so the part just mounted is painted first). */
function afterPaint(run: () => void): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const raf = typeof requestAnimationFrame === "function" ? requestAnimationFrame : null;
  const frame = raf === null ? null : raf(() => (timer = setTimeout(run, 0)));
  if (frame === null) timer = setTimeout(run, 0);
  return () => {
    if (frame !== null) cancelAnimationFrame(frame);
    if (timer !== undefined) clearTimeout(timer);
  };
}

/**
 * How many of `total` parts to show: 1 at first, one more per task until `total`. It starts over
 * at 1 when `resetKey` changes (another group), and follows `total` when it changes.
 */
export function useStaged(total: number, resetKey: unknown): number {
  const [state, setState] = useState({ key: resetKey, shown: 1 });
  const current = state.key === resetKey ? state : { key: resetKey, shown: 1 };
  if (current !== state) setState(current);
  const shown = Math.min(current.shown, total);
  useEffect(() => {
    if (shown >= total) return;
    return afterPaint(() =>
      setState((s) => (s.key === resetKey ? { key: resetKey, shown: s.shown + 1 } : s)),
    );
  }, [shown, total, resetKey]);
  return shown;
}
