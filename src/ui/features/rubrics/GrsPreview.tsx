/**
 * The GRS preview table (methods.md 2.4): per rollout, R x max(floor, s) x max(floor, b) for the
 * passes, live as the floor or a score changes; failures keep R. Scores come from the newest rubric
 * run that has the group; typing s or b overrides it for a what-if (kept in this view only: see
 * README.md). Numbers and the judge's run info are shown as text.
 */
import { useId, useMemo, useState } from "react";
import type { HumanLabel } from "../../../core/index.ts";
import {
  grsJudgeNote,
  prepareGrsPreview,
  type GrsJudgeScores,
  type GrsTyped,
} from "./prepareGrsPreview.ts";
import { GrsTable } from "./GrsPreviewTable.tsx";
import styles from "./Rubrics.module.css";

/** Where the scores come from (and whether from an older rubric), and the run's failure on the group. */
function GrsJudgeNote({
  judge,
  currentVersion,
}: {
  judge: GrsJudgeScores | null;
  currentVersion: number | null;
}) {
  const note = grsJudgeNote(judge, currentVersion);
  return (
    <>
      <p className={styles.muted} data-testid="grs.judge">
        {note.scores}
        {note.older} Typed values override the judge's in this view only; they are not saved.
      </p>
      {judge?.error != null ? (
        <p className={styles.error} data-testid="grs.judge-error">
          The run failed on this group: {judge.error}
        </p>
      ) : null}
    </>
  );
}

/** The floor's input, its hint and its error. */
function GrsFloor({
  text,
  error,
  onChange,
}: {
  text: string;
  error: string | null;
  onChange: (text: string) => void;
}) {
  const floorId = useId();
  return (
    <div className={styles.toolbar}>
      <label htmlFor={floorId}>Floor</label>
      <input
        id={floorId}
        type="text"
        inputMode="decimal"
        className={styles.scoreInput}
        value={text}
        aria-invalid={error !== null}
        aria-describedby={`${floorId}-hint`}
        data-testid="grs.floor"
        onChange={(e) => onChange(e.currentTarget.value)}
      />
      <span id={`${floorId}-hint`} className={styles.muted}>
        in [0, 1); default 0. Scores below the floor count as the floor.
      </span>
      {error === null ? null : (
        <span className={styles.error} role="alert" data-testid="grs.floor-error">
          {error}
        </span>
      )}
    </div>
  );
}

export function GrsPreview({
  rollouts,
  passThreshold,
  judge,
  staleLabels,
  currentVersion,
}: {
  rollouts: readonly { id: string; reward: number; humanLabel: HumanLabel | null }[];
  passThreshold: number;
  judge: GrsJudgeScores | null;
  staleLabels: ReadonlySet<string>;
  currentVersion: number | null;
}) {
  const [floorText, setFloorText] = useState("0");
  const [typed, setTyped] = useState<Readonly<Record<string, GrsTyped>>>({});
  const preview = useMemo(
    () => prepareGrsPreview({ rollouts, passThreshold, floorText, judge, typed, staleLabels }),
    [rollouts, passThreshold, floorText, judge, typed, staleLabels],
  );
  const type = (id: string, field: keyof GrsTyped, text: string): void =>
    setTyped((t) => ({ ...t, [id]: { ...t[id], [field]: text } }));
  return (
    <section className={styles.section} data-testid="grs.preview">
      <h4 className={styles.title}>GRS preview: R × max(floor, s) × max(floor, b)</h4>
      <GrsJudgeNote judge={judge} currentVersion={currentVersion} />
      <GrsFloor text={floorText} error={preview.floorError} onChange={setFloorText} />
      <p className={styles.muted} data-testid="grs.summary">
        {preview.shaped} of {preview.passes} passes shaped; {preview.unscored} keep R for want of a
        usable score.
      </p>
      <GrsTable rows={preview.rows} onType={type} />
    </section>
  );
}
