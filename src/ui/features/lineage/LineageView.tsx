/**
 * The group view's Lineage tab (issue 19): the open group's prompt at every step of the run, one
 * row per step with core's numbers (n, passes, pass rate, std, clusters, mean length, the spread
 * check, hack marks), sparklines of pass rate, mean length and clusters across the steps, a click
 * on a row to open that step's group, and two ticked rows opened side by side. The side-by-side
 * view is another feature's (the column view): ui/app passes it in as `renderPair`.
 */
import { useId, useMemo, useState, type ReactNode } from "react";
import { useLineage } from "../../../store/lineage.ts";
import {
  exactAttr,
  lineageModel,
  pickedPair,
  togglePick,
  type LineageRow,
} from "./lineageModel.ts";
import { Sparkline } from "./Sparkline.tsx";
import styles from "./Lineage.module.css";

/** One half of the side-by-side view: a group of the dataset on screen and what to call it. */
export interface LineagePairSide {
  readonly groupId: string;
  readonly label: string;
}

export type RenderLineagePair = (
  left: LineagePairSide,
  right: LineagePairSide,
  onClose: () => void,
  /** The prompt both groups are of. */
  prompt: string,
) => ReactNode;

const stepName = (row: LineageRow): string =>
  row.step === null ? `Group ${row.groupId} (no step)` : `Step ${row.step}`;

function Row({
  row,
  picked,
  onPick,
  onOpen,
}: {
  row: LineageRow;
  picked: boolean;
  onPick: (groupId: string) => void;
  onOpen: (groupId: string) => void;
}) {
  const p = row.point;
  return (
    <tr
      className={row.current ? `${styles.row} ${styles.current}` : styles.row}
      data-testid="lineage-row"
      data-step={row.step ?? ""}
      data-group-id={row.groupId}
      data-state={row.state}
      data-current={row.current}
      data-n={p?.n ?? ""}
      data-passes={p?.passes ?? ""}
      data-pass-rate={exactAttr(p?.passRate ?? null)}
      data-std={exactAttr(p?.std ?? null)}
      data-clusters={p?.clusters ?? ""}
      data-mean-chars={exactAttr(p?.meanChars ?? null)}
      data-spread={p?.spread ?? ""}
    >
      <td className={styles.pick}>
        <input
          type="checkbox"
          checked={picked}
          aria-label={`Choose ${stepName(row)} to open side by side`}
          data-testid="lineage-pick"
          onChange={() => onPick(row.groupId)}
        />
      </td>
      <td>
        <button
          type="button"
          className={styles.open}
          title={`Open ${row.groupId}`}
          data-testid="lineage-open"
          onClick={() => onOpen(row.groupId)}
        >
          {row.stepLabel}
        </button>
      </td>
      <td className={styles.id} title={row.groupId}>
        {row.groupId}
      </td>
      {row.state === "parsed" ? (
        <>
          <td className={styles.num}>{row.cells.n}</td>
          <td className={styles.num}>{row.cells.passes}</td>
          <td className={styles.num}>{row.cells.passRate}</td>
          <td className={styles.num}>{row.cells.std}</td>
          <td className={styles.num}>{row.cells.clusters}</td>
          <td className={styles.num}>{row.cells.meanChars}</td>
          <td data-spread={row.cells.spread}>{row.cells.spread}</td>
          <td className={styles.marks}>{row.cells.marks}</td>
        </>
      ) : (
        <td colSpan={8} className={styles.pending}>
          {row.state === "reading" ? "being parsed…" : "not loaded: open it to parse it"}
        </td>
      )}
    </tr>
  );
}

const HEADERS: readonly { label: string; title: string; num?: boolean }[] = [
  { label: "n", title: "Rollouts in the group", num: true },
  { label: "Passes", title: "Rollouts at or above the pass threshold", num: true },
  { label: "Pass rate", title: "Passes / n", num: true },
  { label: "Std", title: "Population std of the group's total rewards", num: true },
  {
    label: "Clusters",
    title: "Diversity clusters under the n-gram settings (… while being computed)",
    num: true,
  },
  {
    label: "Mean length",
    title: "Mean characters of the rollouts' texts (the completion rule's text)",
    num: true,
  },
  { label: "Spread", title: "The spread check: yes, no, or n/a with fewer than two scores" },
  { label: "Marks", title: "Rollouts marked as hacks: by a person, the heuristic grader, a judge" },
];

export default function LineageView({
  groupId,
  onOpenGroup,
  renderPair,
}: {
  groupId: string;
  /** Open a group of the lineage (the workspace shows its rollouts). */
  onOpenGroup: (groupId: string) => void;
  renderPair: RenderLineagePair;
}) {
  const view = useLineage(groupId);
  const model = useMemo(
    () => (view === null ? null : lineageModel(view, groupId)),
    [view, groupId],
  );
  const [picked, setPicked] = useState<readonly string[]>([]);
  const [pairOpen, setPairOpen] = useState(false);
  const captionId = useId();
  if (view === null || model === null) return null;
  const pair = pickedPair(model.rows, picked);
  if (pairOpen && pair !== null)
    return renderPair(
      { groupId: pair.left.groupId, label: stepName(pair.left) },
      { groupId: pair.right.groupId, label: stepName(pair.right) },
      () => setPairOpen(false),
      view.prompt,
    );
  const current = model.rows.find((r) => r.current) ?? null;
  return (
    <section
      className={styles.lineage}
      aria-labelledby={captionId}
      data-testid="lineage-tab"
      data-prompt={view.prompt}
      data-members={view.members.length}
      data-steps={model.steps}
      data-indexed={view.indexed}
    >
      <div className={styles.head}>
        <p id={captionId} className={styles.caption}>
          Prompt <code title={view.prompt}>{view.prompt}</code> at {model.steps} step
          {model.steps === 1 ? "" : "s"} ({view.members.length} group
          {view.members.length === 1 ? "" : "s"}). Click a step to open its group; tick two to
          compare them.
        </p>
        <button
          type="button"
          className={styles.pairButton}
          disabled={pair === null}
          data-testid="lineage-open-pair"
          onClick={() => setPairOpen(true)}
        >
          {pair === null
            ? "Open two steps side by side"
            : `Open ${stepName(pair.left).toLowerCase()} and ${stepName(pair.right).toLowerCase()} side by side`}
        </button>
      </div>
      {model.steps < 2 ? (
        <p className={styles.note} role="status">
          This prompt has a group at one step only: there is no lineage to follow.
        </p>
      ) : (
        <div className={styles.sparks}>
          {model.series.map((s) => (
            <Sparkline key={s.id} series={s} currentStep={current?.step ?? null} />
          ))}
        </div>
      )}
      {model.coverage === null ? null : (
        <p className={styles.note} role="status" data-testid="lineage-coverage">
          {model.coverage}
        </p>
      )}
      <div className={styles.tableBox}>
        <table className={styles.table}>
          <thead>
            <tr>
              <th scope="col" className={styles.pick}>
                <span className={styles.hidden}>Compare</span>
              </th>
              <th scope="col">Step</th>
              <th scope="col">Group</th>
              {HEADERS.map((h) => (
                <th key={h.label} scope="col" title={h.title} className={h.num ? styles.num : ""}>
                  {h.label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {model.rows.map((row) => (
              <Row
                key={row.groupId}
                row={row}
                picked={picked.includes(row.groupId)}
                onPick={(id) => setPicked((p) => togglePick(p, id))}
                onOpen={onOpenGroup}
              />
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
