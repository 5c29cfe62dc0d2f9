/**
 * The review flow's bar: the queue (every group, the mixed ones, or a seeded sample of N), the open
 * group's place in it ("12 of 87") and how many are reviewed, Previous and Next, "Mark reviewed and
 * next", and undo and redo of annotation changes. Its shortcuts are global but never fire while
 * the user types in a text field, nor inside a dialog. What each control shows and does comes from
 * prepareReview and reviewBarModel.
 */
import { useId, useMemo } from "react";
import { useShallow } from "zustand/react/shallow";
import type { ReviewQueueMode, RolloutGroup } from "../../../core/index.ts";
import { useStore } from "../../../store/index.ts";
import { useRewardsShownOf } from "../../../store/team/teamHooks.ts";
import { useDataset, useLoadedGroups } from "../../../store/hooks.ts";
import { useDocumentShortcuts } from "../../components/keyboard.ts";
import { prepareReview, prepareReviewQueue } from "./prepareReview.ts";
import {
  modeFromPick,
  positionTitle,
  reviewAction,
  reviewButtons,
  sampleModeOf,
} from "./reviewBarModel.ts";
import { reviewCommand, type ReviewCommand } from "./shortcuts.ts";
import styles from "./Review.module.css";

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
  // Blind mode (team mode): the mixed queue lists no group whose rewards are hidden (being in
  // it or not would say whether its rollouts both pass and fail).
  const rewardsShown = useRewardsShownOf();
  const allSummaries = dataset?.summaries;
  const summaries = useMemo(
    () =>
      mode.kind !== "mixed" || allSummaries === undefined || rewardsShown === null
        ? allSummaries
        : allSummaries.filter((s) => rewardsShown(s.id)),
    [allSummaries, mode.kind, rewardsShown],
  );
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
    const action = reviewAction(command, view, selected);
    if (action === null) return;
    switch (action.kind) {
      case "undo":
        undo();
        break;
      case "redo":
        redo();
        break;
      case "help":
        onHelp();
        break;
      case "open":
        onOpen(action.groupId);
        break;
      case "mark":
        setReviewed(action.groupId, true);
        if (action.then !== null) onOpen(action.then);
        break;
    }
  };
  useDocumentShortcuts(reviewCommand, run);

  if (dataset === null) return null;

  return (
    <div className={styles.bar} role="toolbar" aria-label="Review queue" data-testid="review.bar">
      <QueueMode mode={mode} onMode={setMode} />
      <span
        className={styles.position}
        data-testid="review.position"
        data-index={view.index ?? ""}
        data-total={view.total}
        title={positionTitle(view)}
      >
        {view.positionText}
      </span>
      <span className={styles.muted} data-testid="review.reviewed">
        reviewed {view.reviewed}
      </span>
      {reviewButtons(view, selected, canUndo, canRedo).map((b) => (
        <button
          key={b.command}
          type="button"
          className={styles.button}
          disabled={b.disabled}
          data-testid={b.testId}
          title={b.title}
          onClick={() => run(b.command)}
        >
          {b.label}
        </button>
      ))}
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

/** The queue's mode, and a sample's size and seed while it is a sample. */
function QueueMode({
  mode,
  onMode,
}: {
  mode: ReviewQueueMode;
  onMode: (mode: ReviewQueueMode) => void;
}) {
  const modeId = useId();
  const sample = sampleModeOf(mode);
  return (
    <>
      <label htmlFor={modeId}>Review</label>
      <select
        id={modeId}
        value={mode.kind}
        data-testid="review.mode"
        onChange={(e) =>
          onMode(modeFromPick(e.currentTarget.value as ReviewQueueMode["kind"], mode))
        }
      >
        <option value="all">all groups</option>
        <option value="mixed">mixed groups only</option>
        <option value="sample">a random sample</option>
      </select>
      {mode.kind === "sample" ? (
        <>
          <SampleNumber
            label="N"
            min={1}
            value={mode.size}
            testId="review.sample-size"
            onChange={(size) => onMode({ ...sample, size })}
          />
          <SampleNumber
            label="seed"
            min={0}
            value={mode.seed}
            testId="review.sample-seed"
            onChange={(seed) => onMode({ ...sample, seed })}
          />
        </>
      ) : null}
    </>
  );
}

/** A whole-number field of the sample (its size or seed). */
function SampleNumber({
  label,
  min,
  value,
  testId,
  onChange,
}: {
  label: string;
  min: number;
  value: number;
  testId: string;
  onChange: (value: number) => void;
}) {
  return (
    <label>
      {label}{" "}
      <input
        type="number"
        min={min}
        step={1}
        className={styles.number}
        value={value}
        data-testid={testId}
        onChange={(e) => onChange(e.currentTarget.valueAsNumber)}
      />
    </label>
  );
}
