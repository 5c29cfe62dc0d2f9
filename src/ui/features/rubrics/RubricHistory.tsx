/**
 * A task's rubric versions, newest first, and the line diff between any two of them (core
 * `rubricDiff`). "Empty" (version 0) lets the first version be diffed against nothing. Criteria
 * are shown as text: a judge wrote some of them.
 */
import { useId, useMemo, useState } from "react";
import { rubricDiff, type RubricDiffLine, type RubricVersion } from "../../../core/index.ts";
import styles from "./Rubrics.module.css";

const EMPTY = { solution: [], behavior: [] };

/** "2026-01-02 03:04 UTC" from an ISO time (the same on every machine). */
export function rubricTime(iso: string): string {
  return /^\d{4}-\d\d-\d\dT\d\d:\d\d/.test(iso)
    ? `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`
    : iso;
}

const MARK: Readonly<Record<RubricDiffLine["kind"], string>> = {
  added: "+",
  removed: "−",
  unchanged: " ",
};

function DiffList({ list, lines }: { list: string; lines: readonly RubricDiffLine[] }) {
  if (lines.length === 0) return <p className={styles.muted}>No criteria in either version.</p>;
  return (
    <ul className={styles.diff}>
      {lines.map((line, i) => (
        <li
          key={i}
          className={styles[line.kind]}
          data-testid="rubric.diff.line"
          data-kind={line.kind}
          data-list={list}
        >
          <span aria-hidden="true">{MARK[line.kind]} </span>
          {line.kind === "unchanged" ? null : (
            <span className={styles.hidden}>{`${line.kind}: `}</span>
          )}
          <span data-testid="rubric.diff.text">{line.text}</span>
        </li>
      ))}
    </ul>
  );
}

export function RubricHistory({ versions }: { versions: readonly RubricVersion[] }) {
  const last = versions[versions.length - 1]?.version ?? 0;
  // null: follow the newest pair (the previous version against the current one).
  const [picked, setPicked] = useState<{ from: number; to: number } | null>(null);
  const from = picked?.from ?? Math.max(0, last - 1);
  const to = picked?.to ?? last;
  const fromId = useId();
  const toId = useId();
  const byVersion = useMemo(() => new Map(versions.map((v) => [v.version, v])), [versions]);
  const diff = useMemo(
    () => rubricDiff(byVersion.get(from) ?? EMPTY, byVersion.get(to) ?? EMPTY),
    [byVersion, from, to],
  );
  if (versions.length === 0)
    return (
      <section className={styles.section} data-testid="rubric.history">
        <h4 className={styles.title}>Versions</h4>
        <p className={styles.muted}>No version saved yet.</p>
      </section>
    );
  const options = [0, ...versions.map((v) => v.version)];
  const label = (v: number): string => (v === 0 ? "empty" : `v${v}`);
  return (
    <section className={styles.section} data-testid="rubric.history">
      <h4 className={styles.title}>Versions</h4>
      <table className={styles.table}>
        <thead>
          <tr>
            <th>Version</th>
            <th>Author</th>
            <th>Saved</th>
            <th className={styles.num}>Solution</th>
            <th className={styles.num}>Behavior</th>
          </tr>
        </thead>
        <tbody>
          {[...versions].reverse().map((v) => (
            <tr key={v.version} data-testid="rubric.version" data-version={v.version}>
              <td>
                v{v.version}
                {v.version === last ? <span className={styles.source}> current</span> : null}
              </td>
              <td>{v.author === "judge" ? "judge (draft)" : "human"}</td>
              <td>{rubricTime(v.savedAt)}</td>
              <td className={styles.num}>{v.solution.length}</td>
              <td className={styles.num}>{v.behavior.length}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <div className={styles.toolbar}>
        <label htmlFor={fromId}>Diff from</label>
        <select
          id={fromId}
          value={from}
          data-testid="rubric.diff.from"
          onChange={(e) => setPicked({ from: Number(e.currentTarget.value), to })}
        >
          {options.map((v) => (
            <option key={v} value={v}>
              {label(v)}
            </option>
          ))}
        </select>
        <label htmlFor={toId}>to</label>
        <select
          id={toId}
          value={to}
          data-testid="rubric.diff.to"
          onChange={(e) => setPicked({ from, to: Number(e.currentTarget.value) })}
        >
          {options.map((v) => (
            <option key={v} value={v}>
              {label(v)}
            </option>
          ))}
        </select>
        <span className={styles.muted} data-testid="rubric.diff.summary">
          {diff.added} added, {diff.removed} removed
        </span>
      </div>
      <div className={styles.lists} data-testid="rubric.diff">
        <div>
          <h5 className={styles.title}>Solution criteria</h5>
          <DiffList list="solution" lines={diff.solution} />
        </div>
        <div>
          <h5 className={styles.title}>Behavior criteria</h5>
          <DiffList list="behavior" lines={diff.behavior} />
        </div>
      </div>
    </section>
  );
}
