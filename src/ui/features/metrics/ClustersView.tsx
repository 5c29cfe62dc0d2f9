/** A group's diversity clusters: the similarity heatmap in cluster order, and who is in each. */
import ChartFrame from "../../components/ChartFrame.tsx";
import ClusterChip from "../../components/ClusterChip.tsx";
import HeatmapCanvas, {
  HEATMAP_EXPORT_SCALE,
  heatmapExportCanvas,
} from "../../components/HeatmapCanvas.tsx";
import { heatmapSvg } from "../../components/heatmap.ts";
import type { ClustersView as ClustersModel } from "./prepareMetricsCharts.ts";
import styles from "./Metrics.module.css";

export default function ClustersView({
  model,
  subject,
}: {
  model: ClustersModel | null;
  subject: string;
}) {
  if (model === null) {
    return (
      <section className={styles.clusters} aria-label="Clusters" data-testid="metrics.clusters">
        <h3 className={styles.subhead}>Clusters</h3>
        <p className={styles.note} data-testid="metrics.clusters.pending">
          Computing clusters in the background…
        </p>
      </section>
    );
  }
  const title = "Similarity by cluster";
  return (
    <section
      className={styles.clusters}
      aria-label="Clusters"
      data-testid="metrics.clusters"
      data-clusters="ready"
    >
      <h3 className={styles.subhead}>
        Clusters: {model.clusters.length} over {model.heatmap.labels.length} rollouts
      </h3>
      <div className={styles.clusterGrid}>
        <ChartFrame
          name="similarity"
          title={title}
          how={model.how}
          subject={subject}
          toSvg={() => heatmapSvg(model.heatmap, title)}
          toCanvas={() => ({
            canvas: heatmapExportCanvas(model.heatmap),
            scale: HEATMAP_EXPORT_SCALE,
          })}
        >
          <HeatmapCanvas model={model.heatmap} summary={model.summary} testId="similarity" />
        </ChartFrame>
        <ol className={styles.clusterList} data-testid="metrics.cluster-list">
          {model.clusters.map((c) => (
            <li key={c.cluster} data-testid="metrics.cluster" data-cluster={c.cluster}>
              <div className={styles.clusterHead}>
                <ClusterChip cluster={c.cluster} size={c.members.length} />
                <span className={styles.members}>
                  {c.members.map((m) => (
                    <span
                      key={m.id}
                      className={styles.member}
                      data-testid="metrics.cluster-member"
                      data-rollout-id={m.id}
                      title={m.id}
                    >
                      {m.id}
                    </span>
                  ))}
                </span>
              </div>
              <p className={styles.sample} title={`Text of ${c.members[0]?.id ?? ""}`}>
                {c.sample === "" ? "(no text)" : c.sample}
                {c.sampleCut ? "…" : ""}
              </p>
            </li>
          ))}
        </ol>
      </div>
    </section>
  );
}
