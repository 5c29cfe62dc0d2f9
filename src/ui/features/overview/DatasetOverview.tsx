/**
 * The whole dataset at a glance: reward histogram and pass rate, pass^k, zero-std and mixed
 * groups, group sizes, length against reward, and the spread of grader factors. Each chart is
 * prepared from the store's data in render (memoised on its own inputs), so a setting or an
 * annotation change redraws it at once. Lazily loaded with recharts by ui/app/App.
 */
import { useMemo } from "react";
import { useStore } from "../../../store/index.ts";
import { useDataset, useSettings } from "../../../store/hooks.ts";
import {
  FactorSpreadChart,
  GroupKindsChart,
  GroupSizesChart,
  LengthRewardChart,
  PassKChart,
  RewardHistogram,
} from "./OverviewCharts.tsx";
import {
  overviewGroupRewards,
  overviewSubject,
  prepareFactorSpread,
  prepareGroupKinds,
  prepareGroupSizes,
  prepareLengthReward,
  preparePassK,
  prepareRewardOverview,
} from "./prepareOverview.ts";
import MetadataSlices from "./MetadataSlices.tsx";
import styles from "./Overview.module.css";

function percent(x: number): string {
  return Number.isFinite(x) ? `${(100 * x).toFixed(1)}%` : "–";
}

export default function DatasetOverview() {
  const dataset = useDataset();
  const settings = useSettings();
  const annotations = useStore((s) => s.annotations);
  const { passThreshold, rewardWeights, completionRule } = settings;

  const summaries = dataset?.summaries;
  const groups = dataset?.groups;
  const indexed = dataset?.indexed ?? false;
  const rewards = useMemo(
    () =>
      summaries === undefined || groups === undefined
        ? null
        : overviewGroupRewards(summaries, groups, indexed, rewardWeights),
    [summaries, groups, indexed, rewardWeights],
  );
  const histogram = useMemo(
    () => (rewards === null ? null : prepareRewardOverview(rewards, passThreshold)),
    [rewards, passThreshold],
  );
  const passK = useMemo(
    () => (rewards === null ? null : preparePassK(rewards, passThreshold)),
    [rewards, passThreshold],
  );
  const kinds = useMemo(
    () => (rewards === null ? null : prepareGroupKinds(rewards, passThreshold)),
    [rewards, passThreshold],
  );
  const sizes = useMemo(() => (rewards === null ? null : prepareGroupSizes(rewards)), [rewards]);
  const lengthReward = useMemo(
    () =>
      groups === undefined || summaries === undefined
        ? null
        : prepareLengthReward(groups, summaries.length, indexed, { completionRule, rewardWeights }),
    [groups, summaries, indexed, completionRule, rewardWeights],
  );
  const spread = useMemo(
    () => (groups === undefined ? null : prepareFactorSpread(groups, annotations, settings)),
    [groups, annotations, settings],
  );

  if (
    dataset === null ||
    histogram === null ||
    passK === null ||
    kinds === null ||
    sizes === null ||
    lengthReward === null ||
    spread === null
  )
    return null;
  const subject = overviewSubject(dataset.file);
  return (
    <section className={styles.overview} aria-label="Dataset overview" data-testid="overview">
      <dl className={styles.stats}>
        <div title={histogram.passHow}>
          <dt>Pass rate</dt>
          <dd data-testid="overview.pass-rate">{percent(histogram.passRate)}</dd>
          <dd className={styles.sub}>
            {histogram.passes.toLocaleString("en")} of {histogram.scored.toLocaleString("en")}{" "}
            rollouts with a reward
          </dd>
        </div>
        <div title={kinds.how}>
          <dt>Zero-std groups</dt>
          <dd data-testid="overview.zero-std">{percent(kinds.zeroStd / kinds.groups)}</dd>
          <dd className={styles.sub}>
            {kinds.zeroStd.toLocaleString("en")} of {kinds.groups.toLocaleString("en")} groups
          </dd>
        </div>
        <div title={kinds.how}>
          <dt>Mixed groups</dt>
          <dd data-testid="overview.mixed">{percent(kinds.mixed / kinds.groups)}</dd>
          <dd className={styles.sub}>
            {kinds.mixed.toLocaleString("en")} of {kinds.groups.toLocaleString("en")} groups
          </dd>
        </div>
        <div title={lengthReward.how}>
          <dt>Length–reward r</dt>
          <dd data-testid="overview.length-r">
            {Number.isFinite(lengthReward.fit.r) ? lengthReward.fit.r.toFixed(3) : "–"}
          </dd>
          <dd className={styles.sub}>
            Pearson, {lengthReward.fit.n.toLocaleString("en")} rollouts
          </dd>
        </div>
      </dl>
      <div className={styles.grid}>
        <RewardHistogram model={histogram} subject={subject} />
        <PassKChart model={passK} subject={subject} />
        <GroupKindsChart model={kinds} subject={subject} />
        <GroupSizesChart model={sizes} subject={subject} />
        <LengthRewardChart model={lengthReward} subject={subject} />
        <FactorSpreadChart model={spread} subject={subject} />
      </div>
      <MetadataSlices
        groups={dataset.groups}
        allGroups={dataset.summaries.length}
        settings={settings}
        subject={subject}
      />
    </section>
  );
}
