/**
 * The columns of one group: the bar, the task's metadata, the shared prompt, and one column per
 * rollout, mounted in stages, with the pins, the visible count and synchronised scrolling.
 */
import { useCallback, useId, useMemo, useRef, useState, type CSSProperties } from "react";
import {
  metadataSplit,
  metricFormulas,
  type GroupAnalysis,
  type RolloutGroup,
} from "../../../core/index.ts";
import { useSettings } from "../../../store/hooks.ts";
import { useToolErrorKeys } from "./toolErrorKeys.ts";
import {
  MAX_PINNED,
  pinSlots,
  prepareRolloutColumns,
  togglePin,
  VISIBLE_DEFAULT,
  visibleColumns,
} from "./prepareRolloutColumns.ts";
import { sharedPrompt } from "../../components/transcript/prepareTranscript.ts";
import styles from "./Rollouts.module.css";
import { PromptView } from "../../components/transcript/Transcript.tsx";
import { eagerTranscript } from "./ColumnTranscript.tsx";
import { MetadataPanel } from "../../components/metadata/MetadataDisclosure.tsx";
import { useStaged } from "../../components/useStaged.ts";
import { Column, type RenderColumnTools } from "./Column.tsx";
import { columnsMounted, columnStages } from "./columnStages.ts";
import { GroupBar } from "./GroupBar.tsx";
import { useScrollSync } from "./useScrollSync.ts";

export function Columns({
  group,
  analysis,
  clustersPending,
  renderColumnTools,
  initialVisible = VISIBLE_DEFAULT,
  rewardsHidden = false,
}: {
  /** Blind mode (team mode): the headers leave out the reward and what follows from it. */
  rewardsHidden?: boolean;
  group: RolloutGroup;
  analysis: GroupAnalysis;
  clustersPending: boolean;
  renderColumnTools?: RenderColumnTools;
  /** Columns visible at first (two groups side by side start with fewer each). */
  initialVisible?: number;
}) {
  const settings = useSettings();
  const hints = useMemo(() => metricFormulas(settings), [settings]);
  const view = prepareRolloutColumns(group, analysis, settings);
  const prompt = useMemo(() => sharedPrompt(group), [group]);
  const meta = useMemo(() => metadataSplit(group), [group]);
  const ownMeta = meta.own.some((m) => Object.keys(m).length > 0);
  const task = Object.keys(meta.shared).length === 0 ? null : meta.shared;
  const [taskOpen, setTaskOpen] = useState(false);
  const onTaskToggle = useCallback(() => setTaskOpen((o) => !o), []);
  const taskPanelId = useId();
  const [choice, setChoice] = useState(initialVisible);
  const [sync, setSync] = useState(false);
  const [details, setDetails] = useState(false);
  const [pinned, setPinned] = useState<readonly string[]>([]);
  const onTogglePin = useCallback((id: string) => setPinned((p) => togglePin(p, id)), []);
  const onScrollCapture = useScrollSync(sync);
  const visible = visibleColumns(choice, view.columns.length);
  const slots = pinSlots(view.columns, pinned);
  // A 512-rollout group's columns committed at once were one ~300 ms task: the first 12 (more
  // than a screen holds) and the pinned ones come with the group, the rest one slice per task
  // after (useStaged.ts).
  const stage = useStaged(columnStages(view.columns.length), group.id);
  const mounted = columnsMounted(view.columns.length, stage);
  const detail = useRef<HTMLElement>(null);
  useToolErrorKeys(detail);
  return (
    <section
      ref={detail}
      className={styles.card}
      aria-label={`Group ${group.id}`}
      data-testid="group.detail"
      data-clusters={clustersPending ? "pending" : "ready"}
      data-complete={mounted >= view.columns.length ? "true" : "false"}
    >
      <GroupBar
        groupId={group.id}
        rollouts={view.columns.length}
        choice={choice}
        onChoice={setChoice}
        sync={sync}
        onSync={setSync}
        details={details}
        onDetails={setDetails}
        pinned={pinned.length}
        task={task}
        taskOpen={taskOpen}
        onTaskToggle={onTaskToggle}
        taskPanelId={taskPanelId}
      />
      {task === null || !taskOpen ? null : (
        <MetadataPanel
          value={task}
          testId="group.task-meta"
          panelId={taskPanelId}
          label={`Task metadata of group ${group.id}`}
          note="The metadata every rollout of this group shares (the task); each column's Metadata holds its own."
          className={styles.taskMeta}
        />
      )}
      {prompt === null ? null : (
        <div className={styles.sharedPrompt}>
          <PromptView prompt={prompt} />
        </div>
      )}
      <div
        className={styles.columns}
        style={{ "--visible": visible } as CSSProperties}
        data-testid="group.columns"
        data-details={details ? "shown" : "hidden"}
        onScrollCapture={onScrollCapture}
      >
        {view.columns.map((c, i) =>
          i >= mounted && !slots.has(c.id) ? null : (
            <Column
              key={c.id}
              column={c}
              rollout={group.rollouts[i]!}
              showPrompt={prompt === null}
              slot={slots.get(c.id)}
              hints={hints}
              clustersPending={clustersPending}
              hasTrainer={view.hasTrainer}
              hasGar={view.hasGar}
              garSource={view.garSource}
              canPin={pinned.length < MAX_PINNED}
              onTogglePin={onTogglePin}
              renderTools={renderColumnTools}
              eager={eagerTranscript(i, visible, slots.has(c.id))}
              meta={ownMeta ? (meta.own[i] ?? null) : null}
              rewardsHidden={rewardsHidden}
            />
          ),
        )}
      </div>
    </section>
  );
}
