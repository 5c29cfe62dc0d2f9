/**
 * Annotation controls in one rollout column's header (composed into the rollouts feature's
 * column slot by ui/app): the human label (pass, fail, defer; again to clear), the hack mark with
 * its form and "find similar", and the rollout's note. It reads only this rollout's part of the
 * annotation, so a ranking change elsewhere never re-renders it.
 */
import { lazy, memo, Suspense, useRef, useState } from "react";
import { GROUP_ANNOTATION_EMPTY, type HackDetail, type HumanLabel } from "../../../core/index.ts";
import { useStore } from "../../../store/index.ts";
import { selectionInColumn, useAnnotateUi } from "./annotateUi.ts";
import NoteField from "./NoteField.tsx";
import styles from "./Annotate.module.css";

// Shown on demand only: kept out of the initial bundle.
const FindSimilar = lazy(() => import("./FindSimilar.tsx"));
const HackForm = lazy(() => import("./HackForm.tsx"));

const LABELS: readonly HumanLabel[] = ["pass", "fail", "defer"];
const NO_DETAIL: HackDetail = { reason: "", note: "", quote: "" };

function ColumnTools({ groupId, rolloutId }: { groupId: string; rolloutId: string }) {
  const label = useStore((s) => s.annotations.groups[groupId]?.labels[rolloutId] ?? null);
  const hacked = useStore((s) =>
    (s.annotations.groups[groupId] ?? GROUP_ANNOTATION_EMPTY).hacks.includes(rolloutId),
  );
  const detail = useStore((s) => s.annotations.groups[groupId]?.hackDetails[rolloutId]);
  const note = useStore((s) => s.annotations.groups[groupId]?.rolloutNotes[rolloutId] ?? "");
  const reasons = useStore((s) => s.annotations.hackReasons);
  const setLabel = useStore((s) => s.setLabel);
  const markHack = useStore((s) => s.markHack);
  const unmarkHack = useStore((s) => s.unmarkHack);
  const setRolloutNote = useStore((s) => s.setRolloutNote);
  const formOpen = useAnnotateUi((s) => s.hackFormFor === rolloutId);
  const quote = useAnnotateUi((s) => s.quote);
  const openHackForm = useAnnotateUi((s) => s.openHackForm);
  const closeHackForm = useAnnotateUi((s) => s.closeHackForm);
  // The note's textarea exists only while it is edited: 64 textareas in the column headers made
  // every header update force a synchronous layout of the group (about 19 ms per setting change).
  const [editingNote, setEditingNote] = useState(false);
  // The selection is read on pointer down, before the click can move it.
  const selected = useRef("");
  const initial: HackDetail = {
    ...(detail ?? NO_DETAIL),
    reason: detail?.reason ?? reasons[0] ?? "other",
    quote: quote !== "" ? quote : (detail?.quote ?? ""),
  };
  return (
    <div className={styles.tools} data-testid="annotate.column-tools">
      <div className={styles.row} role="group" aria-label={`Human label of ${rolloutId}`}>
        {LABELS.map((l) => (
          <button
            key={l}
            type="button"
            className={styles.labelButton}
            aria-pressed={label === l}
            data-testid={`annotate.label.${l}`}
            title={`Human label: ${l} (key ${l[0]}); again to clear`}
            onClick={() => setLabel(groupId, rolloutId, label === l ? null : l)}
          >
            {l}
          </button>
        ))}
        <button
          type="button"
          className={hacked ? styles.hackOn : undefined}
          aria-expanded={formOpen}
          data-testid="annotate.hack-toggle"
          data-hack={hacked ? "true" : "false"}
          title="Mark as a hack with a reason, a note and quoted text (key h)"
          onPointerDown={() => (selected.current = selectionInColumn(rolloutId))}
          onClick={() => {
            if (formOpen) closeHackForm();
            else openHackForm(rolloutId, selected.current || selectionInColumn(rolloutId));
            selected.current = "";
          }}
        >
          {hacked ? "Hack ✓" : "Hack…"}
        </button>
      </div>
      {hacked && detail !== undefined && !formOpen ? (
        <p className={styles.hackSummary} data-testid="annotate.hack-summary">
          <b>{detail.reason}</b>
          {detail.note === "" ? null : <> — {detail.note}</>}
          {detail.quote === "" ? null : (
            <q className={styles.quote} data-testid="annotate.hack-summary-quote">
              {detail.quote}
            </q>
          )}
        </p>
      ) : null}
      {formOpen ? (
        <Suspense fallback={null}>
          <HackForm
            key={`${rolloutId}\u0000${quote}`}
            rolloutId={rolloutId}
            reasons={reasons}
            initial={initial}
            marked={hacked}
            onSave={(d) => {
              markHack(groupId, rolloutId, d);
              closeHackForm();
            }}
            onUnmark={() => {
              unmarkHack(groupId, rolloutId);
              closeHackForm();
            }}
            onCancel={closeHackForm}
          />
        </Suspense>
      ) : null}
      {hacked ? (
        <Suspense fallback={null}>
          <FindSimilar groupId={groupId} rolloutId={rolloutId} />
        </Suspense>
      ) : null}
      {editingNote ? (
        <NoteField
          value={note}
          label="Note"
          testId="annotate.rollout-note"
          rows={2}
          focusOnMount
          onDone={() => setEditingNote(false)}
          onCommit={(text) => setRolloutNote(groupId, rolloutId, text.trim() === "" ? "" : text)}
        />
      ) : (
        <div className={styles.row}>
          {note === "" ? null : (
            <p className={styles.noteText} data-testid="annotate.rollout-note-text">
              {note}
            </p>
          )}
          <button
            type="button"
            data-testid="annotate.rollout-note-edit"
            title={note === "" ? "Add a note on this rollout" : "Edit the note on this rollout"}
            onClick={() => setEditingNote(true)}
          >
            {note === "" ? "Note…" : "Edit note"}
          </button>
        </div>
      )}
    </div>
  );
}

export default memo(ColumnTools);
