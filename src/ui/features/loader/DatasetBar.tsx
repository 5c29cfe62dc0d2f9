/**
 * What was loaded and how: the file, the detected format and group key (with an override), the
 * counts, and the issue count, which opens the issue list.
 */
import { useId, useMemo } from "react";
import { useStore } from "../../../store/index.ts";
import { useDataset, useIssues } from "../../../store/hooks.ts";
import {
  datasetSteps,
  isRunDataset,
  runHeaderDetails,
  viewRunName,
} from "../../../store/datasetInfo.ts";
import { FORMAT_CATALOG } from "../../../store/formats.ts";
import styles from "./Loader.module.css";

export interface DatasetBarProps {
  readonly issuesOpen: boolean;
  readonly onToggleIssues: () => void;
  /** Re-read the file with a field mapping: another group key, id, text or reward. */
  readonly onRegroup: (file: File) => void;
}

export default function DatasetBar({ issuesOpen, onToggleIssues, onRegroup }: DatasetBarProps) {
  const result = useDataset();
  const issues = useIssues();
  const file = useStore((s) => (s.load.status === "ready" ? s.load.file : null));
  const readAs = useStore((s) => s.readAs);
  const remote = useStore((s) => (s.load.status === "ready" ? s.load.remote : undefined));
  const updating = useStore((s) => s.live.updating);
  const loadRemote = useStore((s) => s.loadRemote);
  const runSelectId = useId();
  const selectId = useId();
  // Once per dataset, not on every render of the bar (a pass over every group).
  const summaries = result?.summaries;
  const fileSteps = useMemo(
    () => (summaries === undefined ? 0 : datasetSteps(summaries)),
    [summaries],
  );
  if (result === null || file === null) return null;
  const options = FORMAT_CATALOG.filter((f) => f.containers.includes(result.container));
  const { stats } = result;
  const run = isRunDataset(result) ? result.run : null;
  const steps = run?.steps ?? fileSteps;
  return (
    <section className={styles.bar} aria-label="Loaded file">
      <span className={styles.file} title={result.file}>
        {result.file}
      </span>
      {run !== null && run.files.length > 1 ? (
        <span
          className={styles.muted}
          title={run.files.map((f) => `${f.path} (step ${f.step})`).join("\n")}
          data-testid="dataset.run"
        >
          run of {run.files.length} files, {steps} step{steps === 1 ? "" : "s"}
        </span>
      ) : null}
      {result.header !== undefined ? (
        <span
          className={styles.muted}
          title={`${result.header.file}\n${runHeaderDetails(result.header).join("\n")}`}
          data-testid="dataset.run-header"
        >
          {result.header.title}
        </span>
      ) : null}
      {remote !== undefined && remote.listing.runs.length > 1 ? (
        <span>
          <label htmlFor={runSelectId} className={styles.muted}>
            Run{" "}
          </label>
          <select
            id={runSelectId}
            value={remote.run}
            onChange={(e) => loadRemote({ ...remote, run: Number(e.currentTarget.value) })}
            data-testid="dataset.run-select"
            title="The runs the server lists (one per folder of data files)"
          >
            {remote.listing.runs.map((r, i) => (
              <option key={`${r.root}/${r.dir}`} value={i}>
                {viewRunName(remote.listing, r)} ({r.files.length} file
                {r.files.length === 1 ? "" : "s"})
              </option>
            ))}
          </select>
        </span>
      ) : null}
      {remote !== undefined ? (
        <span
          className={styles.liveBadge}
          data-testid="dataset.live"
          data-updating={updating}
          title={`Read from ${remote.session.origin} and followed: new steps and lines appear as the trainer writes them.`}
        >
          {updating ? "reading…" : "live"}
        </span>
      ) : null}
      <span data-testid="dataset.format">
        <label htmlFor={selectId} className={styles.muted}>
          Format{" "}
        </label>
        <select
          id={selectId}
          value={result.format}
          onChange={(e) => readAs(e.currentTarget.value)}
          data-testid="dataset.read-as"
        >
          {options.map((f) => (
            <option key={f.id} value={f.id}>
              {f.label}
              {result.candidates[0]?.id === f.id ? " (detected)" : ""}
            </option>
          ))}
        </select>
      </span>
      <span className={styles.muted} data-testid="dataset.group-key">
        grouped by <code>{result.groupKey}</code>{" "}
        {/* A field mapping reads one local file: a run, or a file on the view server, has none. */}
        {run !== null || remote !== undefined ? null : (
          <button
            type="button"
            className={styles.linkButton}
            onClick={() => onRegroup(file)}
            data-testid="dataset.regroup"
          >
            change…
          </button>
        )}
      </span>
      <span
        data-testid="dataset-summary"
        data-rollouts={stats.rollouts}
        data-groups={result.summaries.length}
        data-steps={steps}
      >
        <span data-testid="dataset.counts">
          {stats.rollouts.toLocaleString("en-US")} rollouts in{" "}
          {result.summaries.length.toLocaleString("en-US")} groups
          {stats.rejected > 0
            ? `, ${stats.rejected.toLocaleString("en-US")} of ${stats.records.toLocaleString("en-US")} records rejected`
            : ""}
        </span>
      </span>
      <button
        type="button"
        className={issues.length > 0 ? styles.issueBadge : styles.okBadge}
        onClick={onToggleIssues}
        aria-expanded={issuesOpen}
        disabled={issues.length === 0}
        data-testid="dataset.issue-count"
      >
        {issues.length === 0 ? (
          <>
            No issues
            <span hidden data-testid="load-issues">
              0
            </span>
          </>
        ) : (
          <>
            <span data-testid="load-issues">{issues.length}</span> issue
            {issues.length === 1 ? "" : "s"}
          </>
        )}
      </button>
    </section>
  );
}
