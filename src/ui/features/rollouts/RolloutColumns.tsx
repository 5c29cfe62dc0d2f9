/**
 * The group view: one group's rollouts side by side, one column per rollout in group order, each
 * with a header of the trainer's numbers and the full transcript. 2 to 8 columns share the width
 * and the rest scroll horizontally; the columns fill the height their card is given (the window's
 * remaining height), and share one header row, so every transcript starts at one height; up to
 * two columns pin to the left; a toggle synchronises the columns' vertical scrolling. GroupDetail
 * asks the store for the group; GroupPreview shows the first group of a file still being indexed.
 * Both render Columns.tsx (the bar, GroupBar.tsx, and a Column.tsx per rollout).
 */
import { useEffect, useLayoutEffect, useMemo, type ReactNode } from "react";
import {
  analyzeGroup,
  clusterComponents,
  grpoAdvantages,
  type RolloutGroup,
} from "../../../core/index.ts";
import { useStore } from "../../../store/index.ts";
import { useRewardsShown } from "../../../store/team/teamHooks.ts";
import {
  useGroupAnalysis,
  useGroupClusters,
  useSettings,
  type GroupView,
} from "../../../store/hooks.ts";
import styles from "./Rollouts.module.css";
import type { RenderColumnTools } from "./Column.tsx";
import { Columns } from "./Columns.tsx";

export type { RenderColumnTools } from "./Column.tsx";
export { COLUMNS_FIRST, columnsMounted, columnStages } from "./columnStages.ts";

/** Marks the first paint of a group for the time-to-first-group benchmark (performance.md 10). */
function useFirstGroupMark(shown: boolean): void {
  useLayoutEffect(() => {
    if (!shown || performance.getEntriesByName("first-group-committed").length > 0) return;
    performance.mark("first-group-committed");
    requestAnimationFrame(() => performance.mark("first-group-painted"));
  }, [shown]);
}

/** The selected group of the loaded dataset; an indexed file's group is parsed when first opened. */
export function GroupDetail({
  groupId,
  renderColumnTools,
  renderAboveColumns,
}: {
  groupId: string;
  renderColumnTools?: RenderColumnTools;
  /**
   * Composition slot above the columns, given the group view computed here (ui/app passes
   * another feature's panel, e.g. the ranking), so it is not computed twice per change.
   */
  renderAboveColumns?: (view: GroupView) => ReactNode;
}) {
  const ensureGroup = useStore((s) => s.ensureGroup);
  const parsed = useGroupAnalysis(groupId);
  // Blind mode (team mode, issue 18): the group's rewards are not shown until it is submitted.
  const rewardsShown = useRewardsShown(groupId);
  // Parsing a group of an indexed file is a request to the worker: an external system.
  useEffect(() => {
    ensureGroup(groupId);
  }, [ensureGroup, groupId]);
  useFirstGroupMark(parsed !== null);
  if (parsed === null) {
    return (
      <section className={styles.card} data-testid="group.loading">
        <p className={styles.muted}>Reading group {groupId}…</p>
      </section>
    );
  }
  return (
    <>
      {renderAboveColumns?.(parsed)}
      <Columns
        group={parsed.group}
        analysis={parsed.analysis}
        clustersPending={parsed.clusters.status !== "done"}
        renderColumnTools={renderColumnTools}
        rewardsHidden={!rewardsShown}
      />
    </>
  );
}

/**
 * The first group of a file still being indexed, with in-group statistics only. Its clusters come
 * from the compute worker like any group's (every rollout its own cluster, marked pending, until
 * they arrive), so the first paint does not wait for n-gram clustering on the main thread (about
 * 70-120 ms for a 64-rollout group of long transcripts).
 */
export function GroupPreview({ group }: { group: RolloutGroup }) {
  const settings = useSettings();
  const clusters = useGroupClusters(group);
  const analysis = useMemo(() => {
    const rewards = group.rollouts.map((r) => r.reward ?? NaN);
    const [advantages] = grpoAdvantages([rewards], {
      scale: settings.scale === "batch" ? "group" : settings.scale,
      eps: settings.eps,
      std: settings.std,
    });
    return analyzeGroup(
      group,
      settings,
      advantages ?? [],
      undefined,
      clusters.status === "done"
        ? clusters.result
        : clusterComponents(group.rollouts.length, () => false),
    );
  }, [group, settings, clusters]);
  useFirstGroupMark(true);
  return <Columns group={group} analysis={analysis} clustersPending={clusters.status !== "done"} />;
}
