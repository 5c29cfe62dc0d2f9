/**
 * Two groups side by side (issue 19): two steps of one prompt (the Lineage tab), or one prompt's
 * group in each of two runs (run against run). Each half is the column view as the Rollouts tab
 * shows it, with its group's own analysis: a group of the dataset on screen through
 * `useGroupAnalysis` (its annotation, the verifiers, the judge's ranking, as ever), a group of the
 * compared run through `useCompareGroupAnalysis` (no annotations: that run's are not loaded).
 * Each half starts with two columns visible; its bar changes that as in the Rollouts tab.
 */
import { useEffect } from "react";
import { useStore } from "../../../store/index.ts";
import { useGroupAnalysis, type GroupView } from "../../../store/hooks.ts";
import { useCompareGroupAnalysis } from "../../../store/runCompare.ts";
import { Columns } from "./Columns.tsx";
import styles from "./GroupPair.module.css";

/** One half: a group of run "a" (the dataset on screen) or "b" (the compared run). */
export interface PairSide {
  readonly run: "a" | "b";
  readonly groupId: string;
  /** What the half is, above its columns: "Step 3", "Run B · sweep-2". */
  readonly label: string;
}

const PANE_VISIBLE = 2;

function PaneColumns({ view, groupId }: { view: GroupView | null; groupId: string }) {
  if (view === null)
    return (
      <section className={styles.loading} data-testid="group.loading">
        Reading group {groupId}…
      </section>
    );
  return (
    <Columns
      group={view.group}
      analysis={view.analysis}
      clustersPending={view.clusters.status !== "done"}
      initialVisible={PANE_VISIBLE}
    />
  );
}

function RunAPane({ groupId }: { groupId: string }) {
  const ensureGroup = useStore((s) => s.ensureGroup);
  // Parsing a group of an indexed file is a request to the worker: an external system.
  useEffect(() => {
    ensureGroup(groupId);
  }, [ensureGroup, groupId]);
  return <PaneColumns view={useGroupAnalysis(groupId)} groupId={groupId} />;
}

function RunBPane({ groupId }: { groupId: string }) {
  const ensureGroup = useStore((s) => s.ensureCompareGroup);
  useEffect(() => {
    ensureGroup(groupId);
  }, [ensureGroup, groupId]);
  return <PaneColumns view={useCompareGroupAnalysis(groupId)} groupId={groupId} />;
}

function Pane({ side, place }: { side: PairSide; place: "left" | "right" }) {
  return (
    <div
      className={styles.pane}
      data-testid={`lineage-compare.${place}`}
      data-group-id={side.groupId}
      data-run={side.run}
    >
      <p className={styles.paneLabel} title={side.label}>
        {side.label}
      </p>
      {side.run === "a" ? (
        <RunAPane key={side.groupId} groupId={side.groupId} />
      ) : (
        <RunBPane key={side.groupId} groupId={side.groupId} />
      )}
    </div>
  );
}

/** Two groups' columns side by side, with a title and a way back. */
export function GroupPair({
  left,
  right,
  title,
  closeLabel,
  onClose,
}: {
  left: PairSide;
  right: PairSide;
  title: string;
  /** The button that leaves the pair: "Back to the lineage". */
  closeLabel: string;
  onClose: () => void;
}) {
  return (
    <section
      className={styles.pair}
      aria-label={title}
      data-testid="lineage-compare"
      data-left={left.groupId}
      data-right={right.groupId}
      data-left-run={left.run}
      data-right-run={right.run}
    >
      <div className={styles.bar}>
        <button type="button" className={styles.back} onClick={onClose}>
          {closeLabel}
        </button>
        <h2 className={styles.title}>{title}</h2>
      </div>
      <div className={styles.panes}>
        <Pane side={left} place="left" />
        <Pane side={right} place="right" />
      </div>
    </section>
  );
}
