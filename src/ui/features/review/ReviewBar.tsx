/**
 * The review flow's bar: the queue (every group, the mixed ones, or a seeded sample of N), the open
 * group's place in it ("12 of 87") and how many are reviewed, Previous and Next, "Mark reviewed and
 * next", and undo and redo of annotation changes. Its shortcuts are global but never fire while
 * the user types in a text field, nor inside a dialog.
 */
import { useId, useMemo } from "react";
import { useShallow } from "zustand/react/shallow";
import type { ReviewQueueMode, RolloutGroup } from "../../../core/index.ts";
import { useStore } from "../../../store/index.ts";
import { useDataset, useLoadedGroups } from "../../../store/hooks.ts";
import { useDocumentShortcuts } from "../../components/keyboard.ts";
import { prepareReview, prepareReviewQueue } from "./prepareReview.ts";
import { reviewCommand, type ReviewCommand } from "./shortcuts.ts";
import styles from "./Review.module.css";

const DEFAULT_SAMPLE = { size: 20, seed: 1 };

const EMPTY_GROUPS: ReadonlyMap<string, RolloutGroup> = new Map<string, RolloutGroup>();

export default function ReviewBar({
  onOpen,
  onHelp,
}: {
  /** Opens a group (selects it and moves the focus to its workspace). */
  onOpen: (groupId: string) => void;
  /** Opens the cheat sheet. */
  onHelp: () => void;
}) {
  const dataset = useDataset();
  const groups = useLoadedGroups() ?? EMPTY_GROUPS;
  const { passThreshold, rewardWeights } = useStore(
    useShallow((s) => ({
      passThreshold: s.settings.passThreshold,
      rewardWeights: s.settings.rewardWeights,
    })),
  );
  const mode = useStore((s) => s.reviewMode);
  const setMode = useStore((s) => s.setReviewMode);
  const selected = useStore((s) => s.selectedGroupId);
  const annotations = useStore((s) => s.annotations);
  const canUndo = useStore((s) => s.annotationPast.length > 0);
  const canRedo = useStore((s) => s.annotationFuture.length > 0);
  const undo = useStore((s) => s.undoAnnotation);
  const redo = useStore((s) => s.redoAnnotation);
  const setReviewed = useStore((s) => s.setReviewed);
  const summaries = dataset?.summaries;
  // Mixed-ness under reward weights needs the parsed groups; otherwise they do not matter.
  const weightedGroups = rewardWeights === null ? EMPTY_GROUPS : groups;
  const queue = useMemo(
    () =>
      summaries === undefined
        ? []
        : prepareReviewQueue(summaries, weightedGroups, { passThreshold, rewardWeights }, mode),
    [summaries, weightedGroups, passThreshold, rewardWeights, mode],
  );
  const view = useMemo(
    () => prepareReview(queue, selected, annotations),
    [queue, selected, annotations],
  );

  const run = (command: ReviewCommand): void => {
    if (command === "undo") undo();
    else if (command === "redo") redo();
    else if (command === "help") onHelp();
    else if (command === "next") {
      if (view.next !== null) onOpen(view.next);
    } else if (command === "previous") {
      if (view.previous !== null) onOpen(view.previous);
    } else if (selected !== null) {
      setReviewed(selected, true);
      if (view.nextUnreviewed !== null) onOpen(view.nextUnreviewed);
    }
  };
  useDocumentShortcuts(reviewCommand, run);

  const modeId = useId();
  if (dataset === null) return null;
  const sample = mode.kind === "sample" ? mode : { kind: "sample" as const, ...DEFAULT_SAMPLE };
  const setSample = (patch: Partial<Pick<typeof sample, "size" | "seed">>): void =>
    setMode({ ...sample, ...patch });

  return (
    <div className={styles.bar} role="toolbar" aria-label="Review queue" data-testid="review.bar">
      <label htmlFor={modeId}>Review</label>
      <select
        id={modeId}
        value={mode.kind}
        data-testid="review.mode"
        onChange={(e) => {
          const kind = e.currentTarget.value as ReviewQueueMode["kind"];
          setMode(kind === "sample" ? sample : { kind });
        }}
      >
        <option value="all">all groups</option>
        <option value="mixed">mixed groups only</option>
        <option value="sample">a random sample</option>
      </select>
      {mode.kind === "sample" ? (
        <>
          <label>
            N{" "}
            <input
              type="number"
              min={1}
              step={1}
              className={styles.number}
              value={mode.size}
              data-testid="review.sample-size"
              onChange={(e) => setSample({ size: e.currentTarget.valueAsNumber })}
            />
          </label>
          <label>
            seed{" "}
            <input
              type="number"
              min={0}
              step={1}
              className={styles.number}
              value={mode.seed}
              data-testid="review.sample-seed"
              onChange={(e) => setSample({ seed: e.currentTarget.valueAsNumber })}
            />
          </label>
        </>
      ) : null}
      <span
        className={styles.position}
        data-testid="review.position"
        data-index={view.index ?? ""}
        data-total={view.total}
        title={view.index === null ? "The open group is not in this queue" : undefined}
      >
        {view.positionText}
      </span>
      <span className={styles.muted} data-testid="review.reviewed">
        reviewed {view.reviewed}
      </span>
      <button
        type="button"
        className={styles.button}
        disabled={view.previous === null}
        data-testid="review.previous"
        title="Previous group in the queue ([)"
        onClick={() => run("previous")}
      >
        Previous
      </button>
      <button
        type="button"
        className={styles.button}
        disabled={view.next === null}
        data-testid="review.next"
        title="Next group in the queue (])"
        onClick={() => run("next")}
      >
        Next
      </button>
      <button
        type="button"
        className={styles.button}
        disabled={selected === null}
        data-testid="review.mark-next"
        title="Mark the open group reviewed and open the next unreviewed one (m)"
        onClick={() => run("mark-next")}
      >
        Mark reviewed and next
      </button>
      <button
        type="button"
        className={styles.button}
        disabled={!canUndo}
        data-testid="review.undo"
        title="Undo the last annotation change (Ctrl+Z)"
        onClick={undo}
      >
        Undo
      </button>
      <button
        type="button"
        className={styles.button}
        disabled={!canRedo}
        data-testid="review.redo"
        title="Redo (Ctrl+Shift+Z)"
        onClick={redo}
      >
        Redo
      </button>
      <button
        type="button"
        className={styles.button}
        data-testid="review.help"
        aria-keyshortcuts="?"
        onClick={onHelp}
      >
        Shortcuts (?)
      </button>
    </div>
  );
}
