/** One rollout's column in the group view: its header and its transcript, memoised on its values. */
import { memo, useId, useState, type CSSProperties, type ReactNode } from "react";
import type { GarSource, MetricFormulas, Rollout } from "../../../core/index.ts";
import ColumnHeader from "./ColumnHeader.tsx";
import { sameRolloutColumn, type RolloutColumn } from "./prepareRolloutColumns.ts";
import styles from "./Rollouts.module.css";
import ColumnTranscript from "./ColumnTranscript.tsx";
import { MetadataPanel, MetadataToggle } from "../../components/metadata/MetadataDisclosure.tsx";

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
export const Column = memo(
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
    rewardsHidden,
  }: {
    /** Blind mode: the header leaves the reward and what follows from it out (ColumnHeader). */
    rewardsHidden: boolean;
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
          rewardsHidden={rewardsHidden}
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
