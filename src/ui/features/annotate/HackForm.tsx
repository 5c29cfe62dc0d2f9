/**
 * The hack form of one rollout: a reason from the taxonomy, a note, and the quoted offending text
 * (prefilled from the selection in that rollout's transcript when the form opened; editable).
 */
import { useEffect, useId, useRef, useState } from "react";
import type { HackDetail } from "../../../core/index.ts";
import styles from "./Annotate.module.css";

export default function HackForm({
  rolloutId,
  reasons,
  initial,
  marked,
  onSave,
  onUnmark,
  onCancel,
}: {
  rolloutId: string;
  reasons: readonly string[];
  initial: HackDetail;
  marked: boolean;
  onSave: (detail: HackDetail) => void;
  onUnmark: () => void;
  onCancel: () => void;
}) {
  const [reason, setReason] = useState(initial.reason);
  const [note, setNote] = useState(initial.note);
  const [quote, setQuote] = useState(initial.quote);
  const id = useId();
  const first = useRef<HTMLSelectElement>(null);
  // The form opens from a button or the h key: the focus moves into it (DOM focus is external).
  useEffect(() => first.current?.focus(), []);
  // Ctrl+Enter (Cmd+Enter) saves from any field, the notes' text areas too; Escape cancels. One
  // listener on the form for its fields (a keyboard listener is an external system).
  const form = useRef<HTMLFormElement>(null);
  useEffect(() => {
    const el = form.current;
    if (el === null) return;
    const onKey = (e: KeyboardEvent): void => {
      if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) {
        e.preventDefault();
        el.requestSubmit();
      } else if (e.key === "Escape") {
        e.preventDefault();
        onCancel();
      }
    };
    el.addEventListener("keydown", onKey);
    return () => el.removeEventListener("keydown", onKey);
  }, [onCancel]);
  // A reason removed from the taxonomy since it was chosen stays selectable for this hack.
  const choices = reasons.includes(reason) || reason === "" ? reasons : [...reasons, reason];
  return (
    <form
      className={styles.hackForm}
      aria-label={`Hack details of ${rolloutId}`}
      data-testid="annotate.hack-form"
      onSubmit={(e) => {
        e.preventDefault();
        onSave({ reason, note: note.trim(), quote: quote.trim() });
      }}
      ref={form}
    >
      <label htmlFor={`${id}-reason`}>Reason</label>
      <select
        ref={first}
        id={`${id}-reason`}
        value={reason}
        data-testid="annotate.hack-reason"
        onChange={(e) => setReason(e.currentTarget.value)}
      >
        {choices.map((r) => (
          <option key={r} value={r}>
            {r}
          </option>
        ))}
      </select>
      <label htmlFor={`${id}-note`}>Note</label>
      <textarea
        id={`${id}-note`}
        rows={2}
        value={note}
        data-testid="annotate.hack-note"
        onChange={(e) => setNote(e.currentTarget.value)}
      />
      <label htmlFor={`${id}-quote`}>Quoted text (select it in the transcript first)</label>
      <textarea
        id={`${id}-quote`}
        rows={2}
        value={quote}
        data-testid="annotate.hack-quote"
        onChange={(e) => setQuote(e.currentTarget.value)}
      />
      <div className={styles.row}>
        <button type="submit" data-testid="annotate.hack-save">
          {marked ? "Save" : "Mark as hack"}
        </button>
        {marked ? (
          <button type="button" data-testid="annotate.hack-unmark" onClick={onUnmark}>
            Unmark
          </button>
        ) : null}
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
