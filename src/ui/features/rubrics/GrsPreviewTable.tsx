/** The GRS preview's table: per rollout its label, R, the s and b inputs, the shaped R and how. */
import { fixed3, plainNumber } from "../../components/numbers.ts";
import type { GrsCell, GrsPreviewRow, GrsTyped } from "./prepareGrsPreview.ts";
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

/** One rollout's row; a pass has the s and b inputs, a failure says it is not scored. */
function GrsRow({
  row,
  onType,
}: {
  row: GrsPreviewRow;
  onType: (id: string, field: keyof GrsTyped, text: string) => void;
}) {
  return (
    <tr data-testid="grs.row" data-rollout-id={row.id} data-status={row.status}>
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
              onChange={(t) => onType(row.id, "solution", t)}
            />
          </td>
          <td>
            <ScoreInput
              id={row.id}
              name="b"
              cell={row.behavior}
              onChange={(t) => onType(row.id, "behavior", t)}
            />
          </td>
        </>
      ) : (
        <td colSpan={2} className={styles.muted}>
          not scored (not a pass)
        </td>
      )}
      <td className={styles.num} data-testid="grs.shaped" data-value={plainNumber(row.shaped)}>
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
          <span className={styles.error}> {row.solution.error ?? row.behavior.error}</span>
        ) : null}
      </td>
    </tr>
  );
}

export function GrsTable({
  rows,
  onType,
}: {
  rows: readonly GrsPreviewRow[];
  onType: (id: string, field: keyof GrsTyped, text: string) => void;
}) {
  return (
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
          {rows.map((row) => (
            <GrsRow key={row.id} row={row} onType={onType} />
          ))}
        </tbody>
      </table>
    </div>
  );
}
