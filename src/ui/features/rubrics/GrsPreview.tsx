/**
 * The GRS preview table (methods.md 2.4): per rollout, R x max(floor, s) x max(floor, b) for the
 * passes, live as the floor or a score changes; failures keep R. Scores come from the newest rubric
 * run that has the group; typing s or b overrides it for a what-if (kept in this view only: see
 * README.md). Numbers and the judge's run info are shown as text.
 */
import { useId, useMemo, useState } from "react";
import type { HumanLabel } from "../../../core/index.ts";
import { fixed3, plainNumber } from "../../components/numbers.ts";
import {
  prepareGrsPreview,
  type GrsCell,
  type GrsJudgeScores,
  type GrsTyped,
} from "./prepareGrsPreview.ts";
import styles from "./Rubrics.module.css";

const STATUS_TEXT = {
  shaped: "shaped",
  unscored: "no usable score: keeps R",
  failure: "failure: keeps R",
  "no-reward": "no reward",
} as const;

function ScoreInput({
  id,
  name,
  cell,
  onChange,
}: {
  id: string;
  name: "s" | "b";
  cell: GrsCell;
  onChange: (text: string) => void;
}) {
  return (
    <>
      <input
        type="text"
        inputMode="decimal"
        className={styles.scoreInput}
        value={cell.text}
        placeholder={cell.judge === null ? "0–1" : plainNumber(cell.judge)}
        aria-label={`${name === "s" ? "Solution" : "Behavior"} score ${name} of ${id}`}
        aria-invalid={cell.error !== null}
        title={
          cell.error ??
          (cell.judge === null ? "Type a score in [0, 1]" : `judge: ${plainNumber(cell.judge)}`)
        }
        data-testid={`grs.${name}`}
        onChange={(e) => onChange(e.currentTarget.value)}
      />
      <span className={styles.source} data-testid={`grs.${name}.source`}>
        {" "}
        {cell.source === "none" ? "" : cell.source}
      </span>
    </>
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
  const floorId = useId();
  const preview = useMemo(
    () => prepareGrsPreview({ rollouts, passThreshold, floorText, judge, typed, staleLabels }),
    [rollouts, passThreshold, floorText, judge, typed, staleLabels],
  );
  const type = (id: string, field: keyof GrsTyped, text: string): void =>
    setTyped((t) => ({ ...t, [id]: { ...t[id], [field]: text } }));
  return (
    <section className={styles.section} data-testid="grs.preview">
      <h4 className={styles.title}>GRS preview: R × max(floor, s) × max(floor, b)</h4>
      <p className={styles.muted} data-testid="grs.judge">
        {judge === null
          ? "No rubric run has scored this group: type s and b per pass to preview."
          : `Scores from rubric run ${judge.run.id} (${judge.run.source === "heuristic" ? "heuristic" : judge.run.model}${
              judge.rubricVersion === null ? "" : `, rubric v${judge.rubricVersion}`
            }).`}
        {judge !== null &&
        judge.rubricVersion !== null &&
        currentVersion !== null &&
        judge.rubricVersion < currentVersion
          ? ` The rubric is at v${currentVersion} now: these scores are from an older version.`
          : ""}{" "}
        Typed values override the judge's in this view only; they are not saved.
      </p>
      {judge?.error != null ? (
        <p className={styles.error} data-testid="grs.judge-error">
          The run failed on this group: {judge.error}
        </p>
      ) : null}
      <div className={styles.toolbar}>
        <label htmlFor={floorId}>Floor</label>
        <input
          id={floorId}
          type="text"
          inputMode="decimal"
          className={styles.scoreInput}
          value={floorText}
          aria-invalid={preview.floorError !== null}
          aria-describedby={`${floorId}-hint`}
          data-testid="grs.floor"
          onChange={(e) => setFloorText(e.currentTarget.value)}
        />
        <span id={`${floorId}-hint`} className={styles.muted}>
          in [0, 1); default 0. Scores below the floor count as the floor.
        </span>
        {preview.floorError === null ? null : (
          <span className={styles.error} role="alert" data-testid="grs.floor-error">
            {preview.floorError}
          </span>
        )}
      </div>
      <p className={styles.muted} data-testid="grs.summary">
        {preview.shaped} of {preview.passes} passes shaped; {preview.unscored} keep R for want of a
        usable score.
      </p>
      <div className={styles.tableWrap}>
        <table className={styles.table}>
          <thead>
            <tr>
              <th>Rollout</th>
              <th>Label</th>
              <th className={styles.num}>R</th>
              <th>s</th>
              <th>b</th>
              <th className={styles.num}>Shaped R</th>
              <th className={styles.num}>s·b</th>
              <th>How</th>
            </tr>
          </thead>
          <tbody>
            {preview.rows.map((row) => (
              <tr
                key={row.id}
                data-testid="grs.row"
                data-rollout-id={row.id}
                data-status={row.status}
              >
                <td>
                  <code>{row.id}</code>
                  {row.judgeFailed ? <span className={styles.source}> judge failed</span> : null}
                </td>
                <td>
                  {row.label ?? ""}
                  {row.staleLabel ? (
                    <span
                      className={styles.staleTag}
                      title="Labelled under an older rubric version"
                      data-testid="grs.stale-label"
                    >
                      stale
                    </span>
                  ) : null}
                </td>
                <td className={styles.num}>{fixed3(row.reward)}</td>
                {row.passed ? (
                  <>
                    <td>
                      <ScoreInput
                        id={row.id}
                        name="s"
                        cell={row.solution}
                        onChange={(t) => type(row.id, "solution", t)}
                      />
                    </td>
                    <td>
                      <ScoreInput
                        id={row.id}
                        name="b"
                        cell={row.behavior}
                        onChange={(t) => type(row.id, "behavior", t)}
                      />
                    </td>
                  </>
                ) : (
                  <td colSpan={2} className={styles.muted}>
                    not scored (not a pass)
                  </td>
                )}
                <td
                  className={styles.num}
                  data-testid="grs.shaped"
                  data-value={plainNumber(row.shaped)}
                >
                  {fixed3(row.shaped)}
                </td>
                <td className={styles.num}>{fixed3(row.product)}</td>
                <td data-testid="grs.formula">
                  {row.formula === "" ? (
                    <span className={styles.muted}>{STATUS_TEXT[row.status]}</span>
                  ) : (
                    row.formula
                  )}
                  {(row.solution.error ?? row.behavior.error) ? (
                    <span className={styles.error}>
                      {" "}
                      {row.solution.error ?? row.behavior.error}
                    </span>
                  ) : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
