/**
 * A notes textarea that saves as you type: the draft is committed to the store 600 ms after the
 * last keystroke and on blur, so undo steps are whole edits, not characters. While no draft is
 * pending it shows the stored text (an undo or an import shows at once).
 */
import { useEffect, useRef, useState } from "react";
import styles from "./Annotate.module.css";

const COMMIT_DELAY_MS = 600;

export default function NoteField({
  value,
  onCommit,
  label,
  testId,
  rows = 2,
  focusOnMount = false,
  onDone,
}: {
  value: string;
  onCommit: (text: string) => void;
  label: string;
  testId: string;
  rows?: number;
  /** Take the focus when shown (a field opened on demand). */
  focusOnMount?: boolean;
  /** Called after the field loses the focus (and its draft is saved). */
  onDone?: () => void;
}) {
  const [draft, setDraft] = useState<string | null>(null);
  const field = useRef<HTMLTextAreaElement>(null);
  // Focus is DOM state (an external system); once, when a field opened on demand appears.
  useEffect(() => {
    if (focusOnMount) field.current?.focus();
  }, [focusOnMount]);
  // The timer and the pending text live outside render: the timer is an external system.
  const pending = useRef<{ text: string; timer: ReturnType<typeof setTimeout> } | null>(null);
  const commit = useRef(onCommit);
  useEffect(() => {
    commit.current = onCommit;
  }, [onCommit]);
  const flush = () => {
    const p = pending.current;
    pending.current = null;
    if (p === null) return;
    clearTimeout(p.timer);
    commit.current(p.text);
    setDraft(null);
  };
  // A pending draft is saved when the field goes away.
  useEffect(
    () => () => {
      const p = pending.current;
      pending.current = null;
      if (p === null) return;
      clearTimeout(p.timer);
      commit.current(p.text);
    },
    [],
  );
  return (
    <label className={styles.note}>
      <span className={styles.noteLabel}>{label}</span>
      <textarea
        ref={field}
        rows={rows}
        value={draft ?? value}
        data-testid={testId}
        onChange={(e) => {
          const text = e.currentTarget.value;
          setDraft(text);
          if (pending.current !== null) clearTimeout(pending.current.timer);
          pending.current = { text, timer: setTimeout(flush, COMMIT_DELAY_MS) };
        }}
        onBlur={() => {
          flush();
          onDone?.();
        }}
      />
    </label>
  );
}
