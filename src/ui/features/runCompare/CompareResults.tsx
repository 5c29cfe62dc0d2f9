/**
 * Run B against run A, as core's `compareRuns` gives it: the paired summary of each metric, the
 * regressions and improvements under the chosen metric (each opens the prompt's two groups side
 * by side), and every shared prompt in a table that opens on demand.
 */
import { useState } from "react";
import type { CompareMetric } from "../../../core/index.ts";
import type { PromptRow, RunCompareModel } from "./runCompareModel.ts";
import styles from "./RunCompare.module.css";

/** Rows a list shows before "Show all". */
const LIST_FIRST = 8;

function Summary({ model }: { model: RunCompareModel }) {
  const main = model.lines[0]!;
  return (
    <div
      className={styles.summary}
      data-testid="compare-summary"
      data-metric={main.metric}
      data-shared={model.shared}
      data-only-a={model.onlyA}
      data-only-b={model.onlyB}
      data-n={main.summary.n}
      data-mean-diff={main.attrs.meanDiff}
      data-lower={main.attrs.lower}
      data-upper={main.attrs.upper}
      data-sign-p={main.attrs.signP}
    >
      <p className={styles.lead}>
        <b>{model.shared}</b> shared prompt{model.shared === 1 ? "" : "s"}
        {model.onlyA + model.onlyB > 0
          ? ` (${model.onlyA} only in A, ${model.onlyB} only in B)`
          : ""}
        . Differences are B − A per prompt, pooled over its steps.
      </p>
      <table className={styles.table}>
        <thead>
          <tr>
            <th scope="col">B − A</th>
            <th scope="col" className={styles.num} title="Mean of the per-prompt differences">
              Mean
            </th>
            <th
              scope="col"
              className={styles.num}
              title="95% paired bootstrap interval: the shared prompts resampled with replacement, 2,000 times (seed 19)"
            >
              95% CI
            </th>
            <th
              scope="col"
              className={styles.num}
              title="Exact two-sided sign test over the prompts that moved"
            >
              Sign p
            </th>
          </tr>
        </thead>
        <tbody>
          {model.lines.map((line) => (
            <tr key={line.metric} className={line === main ? styles.chosen : undefined}>
              <th scope="row" title={line.signs}>
                {line.label}
              </th>
              <td className={styles.num}>{line.meanDiff}</td>
              <td className={styles.num}>{line.interval}</td>
              <td className={styles.num} title={line.signs}>
                {line.signP}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className={styles.note}>{main.signs} under the sign test.</p>
    </div>
  );
}

function PromptList({
  kind,
  title,
  rows,
  open,
  onOpen,
}: {
  kind: "regression" | "improvement";
  title: string;
  rows: readonly PromptRow[];
  /** The prompt whose pair is open, marked in the list. */
  open: string | null;
  onOpen: (row: PromptRow) => void;
}) {
  const [all, setAll] = useState(false);
  const shown = all ? rows : rows.slice(0, LIST_FIRST);
  return (
    <section className={styles.list} aria-label={title} data-testid={`compare-${kind}s`}>
      <h3 className={styles.listTitle}>
        {title} <span className={styles.count}>{rows.length}</span>
      </h3>
      {rows.length === 0 ? (
        <p className={styles.note}>None.</p>
      ) : (
        <ol className={styles.items}>
          {shown.map((row) => (
            <li key={row.prompt}>
              <button
                type="button"
                className={styles.item}
                aria-current={row.prompt === open ? "true" : undefined}
                data-testid={`compare-${kind}`}
                data-prompt={row.prompt}
                data-diff={String(row.diffValue)}
                title={`Open ${row.prompt} in both runs side by side`}
                onClick={() => onOpen(row)}
              >
                <span className={styles.prompt}>{row.prompt}</span>
                <span className={styles.values}>
                  {row.valueA} → {row.valueB}
                </span>
                <b className={kind === "regression" ? styles.down : styles.up}>{row.diff}</b>
              </button>
            </li>
          ))}
        </ol>
      )}
      {rows.length > LIST_FIRST ? (
        <button type="button" className={styles.link} onClick={() => setAll((a) => !a)}>
          {all ? "Show the first few" : `Show all ${rows.length}`}
        </button>
      ) : null}
    </section>
  );
}

function PromptTable({ model }: { model: RunCompareModel }) {
  return (
    <details className={styles.details}>
      <summary>Every shared prompt ({model.prompts.length})</summary>
      <div className={styles.tableBox}>
        <table className={styles.table}>
          <thead>
            <tr>
              <th scope="col">Prompt</th>
              <th scope="col" className={styles.num} title="Pass rate in run A, in run B">
                Pass A / B
              </th>
              <th scope="col" className={styles.num}>
                Δ
              </th>
              <th scope="col" className={styles.num} title="Mean reward in run A, in run B">
                Reward A / B
              </th>
              <th scope="col" className={styles.num}>
                Δ
              </th>
            </tr>
          </thead>
          <tbody>
            {model.prompts.map((row) => (
              <tr
                key={row.prompt}
                data-testid="compare-prompt"
                data-prompt={row.prompt}
                data-a-pass={row.a.passRate}
                data-b-pass={row.b.passRate}
              >
                <td className={styles.prompt} title={row.prompt}>
                  {row.prompt}
                </td>
                <td className={styles.num}>
                  {row.cells.passA} / {row.cells.passB}
                </td>
                <td className={styles.num}>{row.cells.passDiff}</td>
                <td className={styles.num}>
                  {row.cells.rewardA} / {row.cells.rewardB}
                </td>
                <td className={styles.num}>{row.cells.rewardDiff}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </details>
  );
}

export function CompareResults({
  model,
  metric,
  onMetric,
  open,
  onOpen,
}: {
  model: RunCompareModel;
  metric: CompareMetric;
  onMetric: (metric: CompareMetric) => void;
  /** The prompt whose two groups are open side by side, or null. */
  open: string | null;
  onOpen: (row: PromptRow) => void;
}) {
  return (
    <>
      <Summary model={model} />
      {model.notes.map((note) => (
        <p key={note} className={styles.warn} role="status">
          {note}
        </p>
      ))}
      <label className={styles.row}>
        Rank prompts by
        <select
          value={metric}
          data-testid="compare-metric"
          onChange={(e) =>
            onMetric(e.currentTarget.value === "meanReward" ? "meanReward" : "passRate")
          }
        >
          <option value="passRate">pass rate</option>
          <option value="meanReward">mean reward</option>
        </select>
      </label>
      <PromptList
        kind="regression"
        title="Regressions (worse in B)"
        rows={model.regressions}
        open={open}
        onOpen={onOpen}
      />
      <PromptList
        kind="improvement"
        title="Improvements (better in B)"
        rows={model.improvements}
        open={open}
        onOpen={onOpen}
      />
      <PromptTable model={model} />
    </>
  );
}
