/**
 * The group view: one group's rollouts side by side, one column per rollout in group order, each
 * with a header of the trainer's numbers and the full transcript. 2 to 8 columns share the width
 * and the rest scroll horizontally; the columns fill the height their card is given (the window's
 * remaining height), and share one header row, so every transcript starts at one height; up to two columns pin to the left; a toggle synchronises the
 * columns' vertical scrolling. GroupDetail asks the store for the group; GroupPreview shows the
 * first group of a file still being indexed.
 */
import {
  memo,
  useCallback,
  useEffect,
  useId,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type CSSProperties,
  type ReactNode,
  type UIEvent,
} from "react";
import {
  analyzeGroup,
  clusterComponents,
  grpoAdvantages,
  metadataSplit,
  metricFormulas,
  type GarSource,
  type GroupAnalysis,
  type MetricFormulas,
  type Rollout,
  type RolloutGroup,
} from "../../../core/index.ts";
import { useStore } from "../../../store/index.ts";
import {
  useGroupAnalysis,
  useGroupClusters,
  useSettings,
  type GroupView,
} from "../../../store/hooks.ts";
import ColumnHeader from "./ColumnHeader.tsx";
import { useToolErrorKeys } from "./toolErrorKeys.ts";
import {
  MAX_PINNED,
  pinSlots,
  prepareRolloutColumns,
  sameRolloutColumn,
  syncedScrollTop,
  togglePin,
  VISIBLE_CHOICES,
  VISIBLE_DEFAULT,
  visibleColumns,
  type RolloutColumn,
} from "./prepareRolloutColumns.ts";
import { sharedPrompt } from "../../components/transcript/prepareTranscript.ts";
import styles from "./Rollouts.module.css";
import { PromptView } from "../../components/transcript/Transcript.tsx";
import ColumnTranscript, { eagerTranscript } from "./ColumnTranscript.tsx";
import { MetadataPanel, MetadataToggle } from "../../components/metadata/MetadataDisclosure.tsx";
import { useStaged } from "../../components/useStaged.ts";

/** Marks the first paint of a group for the time-to-first-group benchmark (performance.md 10). */
function useFirstGroupMark(shown: boolean): void {
  useLayoutEffect(() => {
    if (!shown || performance.getEntriesByName("first-group-committed").length > 0) return;
    performance.mark("first-group-committed");
    requestAnimationFrame(() => performance.mark("first-group-painted"));
  }, [shown]);
}

/**
 * Synchronised vertical scrolling: a scroll in one column moves the others to the same relative
 * position (syncedScrollTop). Scroll events do not bubble, so the container listens in the
 * capture phase. Positions set here are remembered, so the scroll events they cause are not
 * taken for the user's and echoed back.
 */
function useScrollSync(enabled: boolean) {
  const expected = useRef(new WeakMap<Element, number>());
  return useCallback(
    (e: UIEvent<HTMLElement>) => {
      const source = e.target;
      if (!enabled || !(source instanceof HTMLElement) || !source.dataset.scrollBody) return;
      const want = expected.current.get(source);
      if (want !== undefined) {
        expected.current.delete(source);
        if (Math.abs(source.scrollTop - want) <= 1) return;
      }
      const bodies = e.currentTarget.querySelectorAll<HTMLElement>("[data-scroll-body]");
      for (const body of bodies) {
        if (body === source) continue;
        const top = syncedScrollTop(source, body);
        if (Math.abs(body.scrollTop - top) <= 1) continue;
        expected.current.set(body, top);
        body.scrollTop = top;
      }
    },
    [enabled],
  );
}

/**
 * Composition slot: extra controls in each column's header (ui/app passes another feature's, e.g.
 * the annotation tools). Keep it stable (useCallback) and its output memoised: it runs for every
 * column on every render of the group.
 */
export type RenderColumnTools = (rolloutId: string) => ReactNode;

/**
 * One rollout's column: its header and transcript. Memoised on the column's values, so a change
 * that leaves a column as it was (a ranking keystroke leaves the failures' numbers alone) skips it
 * entirely, and the transcript (memoised on the rollout) never re-renders with the numbers.
 */
const Column = memo(
  function Column({
    column: c,
    rollout,
    showPrompt,
    slot,
    hints,
    clustersPending,
    hasTrainer,
    hasGar,
    garSource,
    canPin,
    onTogglePin,
    renderTools,
    eager,
    meta,
  }: {
    column: RolloutColumn;
    rollout: Rollout;
    /** The rollout's own metadata (what the group's rollouts do not share), or null for none shown. */
    meta: Readonly<Record<string, unknown>> | null;
    /**
     * Render the transcript in the render that mounts the column. Columns out of view at first
     * (beyond the visible ones and not pinned) mount their transcript in a transition instead, so
     * opening a 64-rollout group is not one long task (T3).
     */
    eager: boolean;
    showPrompt: boolean;
    /** The pinned slot (0 or 1 from the left), or undefined when not pinned. */
    slot: number | undefined;
    hints: MetricFormulas;
    clustersPending: boolean;
    hasTrainer: boolean;
    hasGar: boolean;
    /** Who ranked the passes GAR used (shown beside the GAR numbers). */
    garSource: GarSource | null;
    canPin: boolean;
    onTogglePin: (id: string) => void;
    renderTools?: RenderColumnTools;
  }) {
    const [metaOpen, setMetaOpen] = useState(false);
    const metaPanelId = useId();
    return (
      <article
        className={`${styles.column} ${slot === undefined ? "" : styles.pinned}`}
        style={slot === undefined ? undefined : ({ "--slot": slot } as CSSProperties)}
        data-testid="rollout-column"
        data-rollout-id={c.id}
        data-pinned={slot === undefined ? undefined : "true"}
        aria-label={`Rollout ${c.id}`}
        // Focused by Left and Right (columnFocus.ts), not by Tab.
        tabIndex={-1}
      >
        <ColumnHeader
          column={c}
          hints={hints}
          clustersPending={clustersPending}
          hasTrainer={hasTrainer}
          hasGar={hasGar}
          garSource={garSource}
          pinned={slot !== undefined}
          canPin={canPin}
          onTogglePin={onTogglePin}
          renderTools={renderTools}
          titleExtra={
            meta === null ? null : (
              <MetadataToggle
                title="Metadata"
                value={meta}
                open={metaOpen}
                onToggle={() => setMetaOpen((o) => !o)}
                testId="rollout-meta"
                panelId={metaPanelId}
                className={styles.metaToggle}
              />
            )
          }
        />
        {/* A named scroll region; Chromium and Firefox make scrollers keyboard-focusable. The
            rollout's metadata opens at its top, above the transcript. */}
        <div
          className={styles.body}
          data-scroll-body="true"
          data-testid="rollout-column.body"
          role="region"
          aria-label={`Transcript of ${c.id}`}
        >
          {meta === null || !metaOpen ? null : (
            <MetadataPanel
              value={meta}
              testId="rollout-meta"
              panelId={metaPanelId}
              label={`Metadata of ${c.id}`}
              note="This rollout's own fields; those every rollout of the group shares are under Task."
              className={styles.rolloutMeta}
            />
          )}
          <ColumnTranscript rollout={rollout} showPrompt={showPrompt} eager={eager} />
        </div>
      </article>
    );
  },
  (prev, next) => {
    const keys = Object.keys(next) as (keyof typeof next)[];
    return (
      keys.length === Object.keys(prev).length &&
      keys.every((k) =>
        k === "column"
          ? sameRolloutColumn(prev.column, next.column)
          : // Read at mount only (ColumnTranscript).
            k === "eager" || prev[k] === next[k],
      )
    );
  },
);

/**
 * The group's bar: its id, the rollout count and the layout controls. Memoised: a change of the
 * group's analysis (a ranking keystroke) does not render it, nor write its inputs' attributes.
 */
const GroupBar = memo(function GroupBar({
  groupId,
  rollouts,
  choice,
  onChoice,
  sync,
  onSync,
  details,
  onDetails,
  pinned,
  task,
  taskOpen,
  onTaskToggle,
  taskPanelId,
}: {
  groupId: string;
  rollouts: number;
  choice: number;
  onChoice: (choice: number) => void;
  sync: boolean;
  onSync: (sync: boolean) => void;
  details: boolean;
  onDetails: (details: boolean) => void;
  pinned: number;
  /** The metadata the group's rollouts share (the task), or null for none; its toggle is here. */
  task: Readonly<Record<string, unknown>> | null;
  taskOpen: boolean;
  onTaskToggle: () => void;
  taskPanelId: string;
}) {
  const selectId = useId();
  return (
    <div className={styles.groupBar}>
      <h2 className={styles.heading}>Group {groupId}</h2>
      <span className={styles.muted}>
        {rollouts} rollout{rollouts === 1 ? "" : "s"}
      </span>
      <label htmlFor={selectId} className={styles.control}>
        Columns visible
        <select
          id={selectId}
          value={choice}
          data-testid="columns-visible"
          onChange={(e) => onChoice(Number(e.currentTarget.value))}
        >
          {VISIBLE_CHOICES.map((n) => (
            <option key={n} value={n}>
              {n}
            </option>
          ))}
        </select>
      </label>
      <label
        className={styles.control}
        title="Scrolling one transcript scrolls the others to the same relative position"
      >
        <input
          type="checkbox"
          checked={sync}
          data-testid="sync-scroll"
          onChange={(e) => onSync(e.currentTarget.checked)}
        />
        Sync scrolling
      </label>
      <label
        className={styles.control}
        title="Each header's details: where each number comes from, and the GAR factor"
      >
        <input
          type="checkbox"
          checked={details}
          data-testid="column-details"
          onChange={(e) => onDetails(e.currentTarget.checked)}
        />
        Details
      </label>
      <span className={styles.muted}>
        {pinned} of {MAX_PINNED} pinned
      </span>
      {task === null ? null : (
        <MetadataToggle
          title="Task"
          value={task}
          open={taskOpen}
          onToggle={onTaskToggle}
          testId="group.task-meta"
          panelId={taskPanelId}
          className={styles.taskToggle}
        />
      )}
    </div>
  );
});

/**
 * Columns mounted with the group (pinned ones always are); a larger group mounts the rest
 * {@link COLUMNS_PER_STAGE} per task. At most 8 are on screen, and the first group's layout and
 * paint grew with every header mounted: 32 first took a `large-groups` first group to 830 ms
 * (median of 5) against 640 with 12.
 */
export const COLUMNS_FIRST = 12;
const COLUMNS_PER_STAGE = 64;

/** How many of `total` columns are mounted after `stage` stages (useStaged counts from 1). */
export function columnsMounted(total: number, stage: number): number {
  return Math.min(total, COLUMNS_FIRST + (stage - 1) * COLUMNS_PER_STAGE);
}

/** Stages that mount `total` columns: 1 up to {@link COLUMNS_FIRST}. */
export function columnStages(total: number): number {
  return total <= COLUMNS_FIRST ? 1 : 1 + Math.ceil((total - COLUMNS_FIRST) / COLUMNS_PER_STAGE);
}

function Columns({
  group,
  analysis,
  clustersPending,
  renderColumnTools,
}: {
  group: RolloutGroup;
  analysis: GroupAnalysis;
  clustersPending: boolean;
  renderColumnTools?: RenderColumnTools;
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
  const [choice, setChoice] = useState(VISIBLE_DEFAULT);
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
            />
          ),
        )}
      </div>
    </section>
  );
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
