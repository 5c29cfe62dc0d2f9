/** One group's rollouts with their statistics. Renders prepared rows; asks for the group if needed. */
import { useEffect, useLayoutEffect } from "react";
import {
  analyzeGroup,
  grpoAdvantages,
  metricFormulas,
  type RolloutGroup,
} from "../../../core/index.ts";
import { useStore } from "../../../store/index.ts";
import { useGroupAnalysis, useSettings } from "../../../store/hooks.ts";
import ClusterChip from "../../components/ClusterChip.tsx";
import styles from "./Rollouts.module.css";
import { prepareRolloutRows } from "./prepareRolloutColumns.ts";

/** Marks the first paint of a group for the time-to-first-group benchmark (performance.md 10). */
function useFirstGroupMark(shown: boolean): void {
  useLayoutEffect(() => {
    if (!shown || performance.getEntriesByName("first-group-committed").length > 0) return;
    performance.mark("first-group-committed");
    requestAnimationFrame(() => performance.mark("first-group-painted"));
  }, [shown]);
}

function RolloutTable({
  group,
  rows,
  clustersPending,
}: {
  group: RolloutGroup;
  rows: ReturnType<typeof prepareRolloutRows>;
  clustersPending: boolean;
}) {
  const hints = metricFormulas(useSettings());
  const hasTrainer = rows.some((r) => r.trainerAdvantage !== null);
  return (
    <section
      className={styles.card}
      aria-label={`Group ${group.id}`}
      data-testid="group.detail"
      data-clusters={clustersPending ? "pending" : "ready"}
    >
      <h2 className={styles.heading}>Group {group.id}</h2>
      <table className={styles.table}>
        <thead>
          <tr>
            <th scope="col">Rollout</th>
            <th scope="col" className={styles.num}>
              Reward
            </th>
            <th scope="col" className={styles.num} title={hints.advantage}>
              Advantage
            </th>
            {hasTrainer ? (
              <th scope="col" className={styles.num} title="The advantage the trainer logged">
                Trainer&apos;s advantage
              </th>
            ) : null}
            <th scope="col" className={styles.num} title={hints.gar}>
              GAR advantage
            </th>
            <th scope="col" className={styles.num} title={hints.rank}>
              Rank
            </th>
            <th scope="col" title={hints.cluster}>
              Cluster
            </th>
            <th scope="col" className={styles.num}>
              Tool calls
            </th>
            <th scope="col">Final text</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.id} data-testid="rollout-column" data-rollout-id={r.id}>
              <td>
                {r.id}{" "}
                <span className={r.passed ? styles.pass : styles.fail}>
                  {r.passed ? "pass" : "fail"}
                </span>
              </td>
              <td className={styles.num}>
                <span data-testid="metric-reward">{r.plain.reward}</span>
                {r.plain.reward === "" ? "–" : null}
              </td>
              <td className={styles.num}>
                <span data-testid="metric-advantage">{r.plain.advantage}</span>
              </td>
              {hasTrainer ? (
                <td className={styles.num}>
                  <span data-testid="metric-trainer-advantage">{r.trainerAdvantage ?? ""}</span>
                </td>
              ) : null}
              <td className={styles.num}>
                <span data-testid="metric-gar-advantage">{r.plain.garAdvantage}</span>
                {r.plain.garAdvantage === "" ? "–" : null}
              </td>
              <td className={styles.num}>
                <span data-testid="metric-rank">{r.plain.rank}</span>
              </td>
              <td>
                <ClusterChip
                  cluster={Number(r.plain.cluster)}
                  size={r.clusterSize}
                  pending={clustersPending}
                  testId="metric-cluster"
                />
              </td>
              <td className={styles.num}>{r.toolCalls}</td>
              <td className={styles.prompt}>{r.text}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

/** The selected group of the loaded dataset; an indexed file's group is parsed when first opened. */
export function GroupDetail({ groupId }: { groupId: string }) {
  const ensureGroup = useStore((s) => s.ensureGroup);
  const parsed = useGroupAnalysis(groupId);
  const settings = useSettings();
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
    <RolloutTable
      group={parsed.group}
      rows={prepareRolloutRows(parsed.group, parsed.analysis, settings)}
      clustersPending={parsed.clusters.status !== "done"}
    />
  );
}

/** The first group of a file still being indexed, with in-group statistics only. */
export function GroupPreview({ group }: { group: RolloutGroup }) {
  const settings = useSettings();
  const rewards = group.rollouts.map((r) => r.reward ?? NaN);
  const [advantages] = grpoAdvantages([rewards], {
    scale: settings.scale === "batch" ? "group" : settings.scale,
    eps: settings.eps,
    std: settings.std,
  });
  const analysis = analyzeGroup(group, settings, advantages ?? []);
  useFirstGroupMark(true);
  return (
    <RolloutTable
      group={group}
      rows={prepareRolloutRows(group, analysis, settings)}
      clustersPending={false}
    />
  );
}
