/**
 * Shows one rollout of the open group: scrolls its column into view, marks it
 * (`data-calibration-focus`, styled by Calibration.module.css) and focuses it, so the annotation
 * keys (p, f, d) act on it at once. The store selects groups, not rollouts, and features never
 * import each other, so the column is reached through its stable attributes (`rollout-column`,
 * `data-rollout-id`), which the rollouts feature and the e2e page objects already rely on.
 *
 * Opening a group renders its columns a little later (an indexed file parses the group first), so
 * this waits for the column with a MutationObserver, up to a deadline.
 */

/** The attribute that marks the revealed column (one at a time). */
export const REVEAL_ATTRIBUTE = "data-calibration-focus";

/** How long to wait for the column: an indexed file parses the group in the worker first. */
export const REVEAL_DEADLINE_MS = 5000;

function columnOf(rolloutId: string): HTMLElement | null {
  const selector = `[data-testid="rollout-column"][data-rollout-id="${CSS.escape(rolloutId)}"]`;
  return document.querySelector<HTMLElement>(selector);
}

function mark(column: HTMLElement): void {
  for (const el of document.querySelectorAll(`[${REVEAL_ATTRIBUTE}]`))
    el.removeAttribute(REVEAL_ATTRIBUTE);
  column.setAttribute(REVEAL_ATTRIBUTE, "true");
  // Focusable from script only, so the keys reach it; the tab order stays as it was.
  if (!column.hasAttribute("tabindex")) column.tabIndex = -1;
  column.scrollIntoView({ block: "nearest", inline: "center" });
  column.focus({ preventScroll: true });
}

/** Removes the mark (when the walk through the disagreements ends). */
export function revealClear(): void {
  for (const el of document.querySelectorAll(`[${REVEAL_ATTRIBUTE}]`))
    el.removeAttribute(REVEAL_ATTRIBUTE);
}

/**
 * Resolves true once the rollout's column is shown and marked; false when it did not appear
 * before the deadline (another tab of the group is open, say) or the reveal was aborted.
 */
export function revealRollout(rolloutId: string, signal: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal.aborted) {
      resolve(false);
      return;
    }
    let settled = false;
    const finish = (column: HTMLElement | null): void => {
      if (settled) return;
      settled = true;
      observer.disconnect();
      clearTimeout(timer);
      signal.removeEventListener("abort", onAbort);
      if (column !== null) mark(column);
      resolve(column !== null);
    };
    const onAbort = (): void => finish(null);
    const observer = new MutationObserver(() => {
      const column = columnOf(rolloutId);
      if (column !== null) finish(column);
    });
    const timer = setTimeout(() => finish(null), REVEAL_DEADLINE_MS);
    signal.addEventListener("abort", onAbort);
    observer.observe(document.body, { childList: true, subtree: true });
    // The group may already be open; the new one renders after this event handler returns.
    requestAnimationFrame(() => {
      const column = columnOf(rolloutId);
      if (column !== null) finish(column);
    });
  });
}
