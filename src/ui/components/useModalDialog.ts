/**
 * A `<dialog>` shown as a modal once, when it mounts: the top layer, an inert page, the focus kept
 * inside, Escape closing it, and the focus given back when it closes. Opening it is a DOM call, not
 * derived state, so it happens in a layout effect (before any passive effect focuses a field in it).
 * jsdom has no showModal: the open attribute still shows the dialog there.
 */
import { useLayoutEffect, useRef, type RefObject } from "react";

export function useModalDialog(): RefObject<HTMLDialogElement | null> {
  const ref = useRef<HTMLDialogElement>(null);
  useLayoutEffect(() => {
    const dialog = ref.current;
    if (dialog === null || dialog.open) return;
    if (typeof dialog.showModal === "function") dialog.showModal();
    else dialog.setAttribute("open", "");
  }, []);
  return ref;
}
