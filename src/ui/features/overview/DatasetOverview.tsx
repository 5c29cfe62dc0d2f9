/** The whole dataset at a glance. */
import { useDataset, useSettings } from "../../../store/hooks.ts";
import styles from "./Overview.module.css";

export default function DatasetOverview() {
  const dataset = useDataset();
  const settings = useSettings();
  if (dataset === null) return null;
  const rewards = dataset.summaries.flatMap((s) => s.rewards);
  const passes = rewards.filter((r) => r >= settings.passThreshold).length;
  return (
    <section className={styles.overview} aria-label="Dataset overview" data-testid="overview">
      <p>
        Pass rate {rewards.length === 0 ? "–" : ((100 * passes) / rewards.length).toFixed(1)}% over{" "}
        {rewards.length} rollouts in {dataset.summaries.length} groups.
      </p>
    </section>
  );
}
