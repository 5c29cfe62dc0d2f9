/**
 * Synchronised vertical scrolling of the group view's columns (the "Sync scrolling" toggle): a
 * scroll in one column moves the others to the same relative position.
 */
import { useCallback, useRef, type UIEvent } from "react";
import { syncedScrollTop } from "./prepareRolloutColumns.ts";

/**
 * Synchronised vertical scrolling: a scroll in one column moves the others to the same relative
 * position (syncedScrollTop). Scroll events do not bubble, so the container listens in the
 * capture phase. Positions set here are remembered, so the scroll events they cause are not
 * taken for the user's and echoed back.
 */
export function useScrollSync(enabled: boolean) {
  const expected = useRef(new WeakMap<Element, number>());
  return useCallback(
    (e: UIEvent<HTMLElement>) => {
      const source = e.target;
      if (!enabled || !(source instanceof HTMLElement) || !source.dataset.scrollBody) return;
      const want = expected.current.get(source);
      if (want !== undefined) {
        expected.current.delete(source);
        if (Math.abs(source.scrollTop - want) <= 1) return;
      }
      const bodies = e.currentTarget.querySelectorAll<HTMLElement>("[data-scroll-body]");
      for (const body of bodies) {
        if (body === source) continue;
        const top = syncedScrollTop(source, body);
        if (Math.abs(body.scrollTop - top) <= 1) continue;
        expected.current.set(body, top);
        body.scrollTop = top;
      }
    },
    [enabled],
  );
}
