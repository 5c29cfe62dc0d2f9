/**
 * The group view's annotation keys on the focused rollout (a ranking item, or anything inside a
 * rollout column): p, f, d set the human label (the same key again clears it), h opens the hack
 * form with the text selected in that rollout's transcript. Never while typing.
 */
import { useEffect, useRef, type ReactNode } from "react";
import type { HumanLabel } from "../../../core/index.ts";
import { useStore } from "../../../store/index.ts";
import { isTypingTarget } from "../../components/keyboard.ts";
import { selectionInColumn, useAnnotateUi } from "./annotateUi.ts";
import styles from "./Annotate.module.css";

const KEY_LABELS: Readonly<Record<string, HumanLabel>> = { p: "pass", f: "fail", d: "defer" };

/** The rollout a key event is about: the nearest element with a rollout id around the target. */
function focusedRollout(target: EventTarget | null): string | null {
  if (!(target instanceof Element)) return null;
  const el = target.closest<HTMLElement>("[data-rollout-id]");
  return el?.dataset.rolloutId ?? null;
}

export default function AnnotateKeys({
  groupId,
  children,
}: {
  groupId: string;
  children: ReactNode;
}) {
  const ref = useRef<HTMLDivElement>(null);
  // A keyboard listener is an external system; the handler reads the store when a key comes.
  useEffect(() => {
    const el = ref.current;
    if (el === null) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey || isTypingTarget(e.target))
        return;
      const rolloutId = focusedRollout(e.target);
      if (rolloutId === null) return;
      const label = KEY_LABELS[e.key];
      if (label !== undefined) {
        e.preventDefault();
        const s = useStore.getState();
        const current = s.annotations.groups[groupId]?.labels[rolloutId] ?? null;
        s.setLabel(groupId, rolloutId, current === label ? null : label);
      } else if (e.key === "h") {
        e.preventDefault();
        useAnnotateUi.getState().openHackForm(rolloutId, selectionInColumn(rolloutId));
      }
    };
    el.addEventListener("keydown", onKey);
    return () => el.removeEventListener("keydown", onKey);
  }, [groupId]);
  return (
    <div ref={ref} className={styles.keys}>
      {children}
    </div>
  );
}
