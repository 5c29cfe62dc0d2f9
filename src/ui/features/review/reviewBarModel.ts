/**
 * View model of the review bar's controls: the queue mode a pick in the menu means (a sample keeps
 * its size and seed), what each command does for the open group, and the buttons with their state
 * and tooltips. Pure; ReviewBar renders it and runs the actions.
 */
import type { ReviewQueueMode } from "../../../core/index.ts";
import type { ReviewView } from "./prepareReview.ts";
import type { ReviewCommand } from "./shortcuts.ts";

export type SampleMode = Extract<ReviewQueueMode, { kind: "sample" }>;

/** The sample a switch to the sample mode starts from. */
export const DEFAULT_SAMPLE: SampleMode = { kind: "sample", size: 20, seed: 1 };

/** The sample mode's size and seed: the current ones, or the defaults. */
export function sampleModeOf(mode: ReviewQueueMode): SampleMode {
  return mode.kind === "sample" ? mode : DEFAULT_SAMPLE;
}

/** The mode a pick in the menu means; a sample keeps the size and seed it has. */
export function modeFromPick(
  kind: ReviewQueueMode["kind"],
  mode: ReviewQueueMode,
): ReviewQueueMode {
  return kind === "sample" ? sampleModeOf(mode) : { kind };
}

/** What a command does: open a group, mark the open one reviewed (then open the next), or a store action. */
export type ReviewAction =
  | { readonly kind: "undo" | "redo" | "help" }
  | { readonly kind: "open"; readonly groupId: string }
  | { readonly kind: "mark"; readonly groupId: string; readonly then: string | null };

/** A command's action on the queue as it is; null when it has nothing to do. */
export function reviewAction(
  command: ReviewCommand,
  view: Pick<ReviewView, "previous" | "next" | "nextUnreviewed">,
  selected: string | null,
): ReviewAction | null {
  switch (command) {
    case "undo":
    case "redo":
    case "help":
      return { kind: command };
    case "next":
      return view.next === null ? null : { kind: "open", groupId: view.next };
    case "previous":
      return view.previous === null ? null : { kind: "open", groupId: view.previous };
    case "mark-next":
      return selected === null
        ? null
        : { kind: "mark", groupId: selected, then: view.nextUnreviewed };
  }
}

export interface BarButton {
  readonly command: ReviewCommand;
  readonly label: string;
  readonly testId: string;
  /** The tooltip, with the command's shortcut. */
  readonly title: string;
  readonly disabled: boolean;
}

/** The queue and history buttons, in the bar's order. */
export function reviewButtons(
  view: Pick<ReviewView, "previous" | "next">,
  selected: string | null,
  canUndo: boolean,
  canRedo: boolean,
): BarButton[] {
  return [
    {
      command: "previous",
      label: "Previous",
      testId: "review.previous",
      title: "Previous group in the queue ([)",
      disabled: view.previous === null,
    },
    {
      command: "next",
      label: "Next",
      testId: "review.next",
      title: "Next group in the queue (])",
      disabled: view.next === null,
    },
    {
      command: "mark-next",
      label: "Mark reviewed and next",
      testId: "review.mark-next",
      title: "Mark the open group reviewed and open the next unreviewed one (m)",
      disabled: selected === null,
    },
    {
      command: "undo",
      label: "Undo",
      testId: "review.undo",
      title: "Undo the last annotation change (Ctrl+Z)",
      disabled: !canUndo,
    },
    {
      command: "redo",
      label: "Redo",
      testId: "review.redo",
      title: "Redo (Ctrl+Shift+Z)",
      disabled: !canRedo,
    },
  ];
}

/** The position's tooltip when the open group is not in the queue. */
export function positionTitle(view: Pick<ReviewView, "index">): string | undefined {
  return view.index === null ? "The open group is not in this queue" : undefined;
}
