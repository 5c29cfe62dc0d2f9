/**
 * Following a run from the `rollout-studio view` server (issue 14, point 5): how many groups have
 * arrived since the user last looked, which of them are zero-std or show no spread (the groups
 * that teach GRPO nothing), and what happened to the run's files. Each listed group opens on a
 * click; "Seen" clears the list. Nothing here moves the selection or the scroll by itself.
 */
import {
  groupFlags,
  spreadCheck,
  statsFinite,
  type AnalysisSettings,
} from "../../../core/index.ts";
import type { GroupSummary } from "../../../io/dataset.ts";
import { useStore } from "../../../store/index.ts";
import { useRewardsShownOf } from "../../../store/team/teamHooks.ts";
import { useDataset } from "../../../store/hooks.ts";
import styles from "./Loader.module.css";

/** Shown per kind; the rest are counted. */
const LISTED = 8;

export interface Arrivals {
  readonly count: number;
  readonly steps: readonly number[];
  readonly zeroStd: readonly string[];
  readonly noSpread: readonly string[];
}

/** The arrived groups' steps and their zero-std and no-spread ones (by the logged rewards). */
export function arrivalsOf(
  summaries: readonly GroupSummary[],
  arrived: readonly string[],
  passThreshold: AnalysisSettings["passThreshold"],
): Arrivals {
  const wanted = new Set(arrived);
  const steps = new Set<number>();
  const zeroStd: string[] = [];
  const noSpread: string[] = [];
  let count = 0;
  for (const s of summaries) {
    if (!wanted.has(s.id)) continue;
    count++;
    if (s.step !== null) steps.add(s.step);
    const flags = groupFlags(
      s.rewards,
      s.rewards.map((r) => r >= passThreshold),
    );
    if (flags.zeroStd) zeroStd.push(s.id);
    else {
      const report = spreadCheck(statsFinite(s.rewards), 1);
      if (report.n >= 2 && !report.ok) noSpread.push(s.id);
    }
  }
  return { count, steps: [...steps].sort((a, b) => a - b), zeroStd, noSpread };
}

function GroupLinks({ ids, testId }: { ids: readonly string[]; testId: string }) {
  const selectGroup = useStore((s) => s.selectGroup);
  return (
    <span data-testid={testId} data-count={ids.length}>
      {ids.slice(0, LISTED).map((id) => (
        <button
          key={id}
          type="button"
          className={styles.linkButton}
          onClick={() => selectGroup(id)}
          title={`Open group ${id}`}
        >
          {id}
        </button>
      ))}
      {ids.length > LISTED ? (
        <span className={styles.muted}> and {ids.length - LISTED} more</span>
      ) : null}
    </span>
  );
}

const stepsText = (steps: readonly number[]): string =>
  steps.length === 0
    ? ""
    : steps.length === 1
      ? ` (step ${steps[0]})`
      : ` (steps ${steps[0]}–${steps[steps.length - 1]})`;

export default function LiveBar() {
  const remote = useStore((s) => (s.load.status === "ready" ? s.load.remote : undefined));
  const live = useStore((s) => s.live);
  const passThreshold = useStore((s) => s.settings.passThreshold);
  const dismiss = useStore((s) => s.dismissArrivals);
  const dataset = useDataset();
  // Blind mode (team mode): a group whose rewards are hidden is never listed as zero std or
  // without spread.
  const rewardsShown = useRewardsShownOf();
  if (remote === undefined || dataset === null) return null;
  if (live.arrived.length === 0 && live.notices.length === 0 && live.heldBack === 0) return null;
  const all = arrivalsOf(dataset.summaries, live.arrived, passThreshold);
  const arrivals =
    rewardsShown === null
      ? all
      : {
          ...all,
          zeroStd: all.zeroStd.filter(rewardsShown),
          noSpread: all.noSpread.filter(rewardsShown),
        };
  return (
    <section className={styles.live} aria-label="New in the run" data-testid="live.bar">
      {arrivals.count > 0 ? (
        <span data-testid="live.arrived" data-count={arrivals.count}>
          <strong>
            {arrivals.count.toLocaleString("en-US")} new group{arrivals.count === 1 ? "" : "s"}
          </strong>
          {stepsText(arrivals.steps)}
        </span>
      ) : null}
      {arrivals.zeroStd.length > 0 ? (
        <span>
          <span className={styles.muted}>{arrivals.zeroStd.length} zero std: </span>
          <GroupLinks ids={arrivals.zeroStd} testId="live.zero-std" />
        </span>
      ) : null}
      {arrivals.noSpread.length > 0 ? (
        <span>
          <span className={styles.muted}>{arrivals.noSpread.length} no spread: </span>
          <GroupLinks ids={arrivals.noSpread} testId="live.no-spread" />
        </span>
      ) : null}
      {live.notices.map((notice, i) => (
        <span key={i} className={styles.liveNotice} role="status" data-testid="live.notice">
          {notice}
        </span>
      ))}
      {live.heldBack > 0 ? (
        <span
          className={styles.muted}
          data-testid="live.held-back"
          title="A half-written last line is read once its newline arrives."
        >
          {live.heldBack.toLocaleString("en-US")} bytes still being written
        </span>
      ) : null}
      {arrivals.count > 0 || live.notices.length > 0 ? (
        <button
          type="button"
          className={styles.linkButton}
          onClick={dismiss}
          data-testid="live.dismiss"
        >
          Seen
        </button>
      ) : null}
    </section>
  );
}
