/**
 * The team bar of the open group (team mode, issue 18), above its views: while a queue is open,
 * its progress ("12 of 40"), the group's place in it, previous and next, and Submit for the group
 * (disabled, saying why, while nothing is annotated; "Submitted" once done); and, for a group
 * blind mode hides, core's `teamVisibilityNote`. ui/app mounts it in the workspace.
 */
import { useMemo } from "react";
import { useStore } from "../../../store/index.ts";
import { useTeamMode, useTeamVisibilityNote } from "../../../store/team/teamHooks.ts";
import {
  teamQueueBar,
  teamQueueItems,
  teamQueueRows,
  teamSubmitModel,
  type QueueItemRow,
} from "./teamModel.ts";
import styles from "./Team.module.css";

export function TeamGroupBar({
  groupId,
  onOpen,
}: {
  groupId: string;
  /** Open another group of the queue (ui/app moves the focus to the workspace). */
  onOpen: (groupId: string) => void;
}) {
  const mode = useTeamMode();
  const note = useTeamVisibilityNote(groupId);
  const open = useStore((s) => s.teamOpenQueue);
  const entries = useStore((s) => s.teamQueues);
  const state = useStore((s) => s.teamState);
  const annotations = useStore((s) => s.annotations);
  const user = mode?.team.user ?? "";
  const items = useMemo(
    () =>
      open?.view == null ? null : teamQueueItems(open.view, user, state, annotations, groupId),
    [open, user, state, annotations, groupId],
  );
  const progressText = useMemo(() => {
    if (mode === null || open === null || entries === null) return null;
    const row = teamQueueRows(entries, user, mode.team.role, open.name).find(
      (r) => r.name === open.name,
    );
    return row?.progressText ?? null;
  }, [mode, entries, user, open]);
  if (mode === null || (items === null && note === null)) return null;
  return (
    <div
      className={styles.bar}
      role="region"
      aria-label="Team"
      data-testid={items === null ? "team.group-bar" : "team.queue-bar"}
    >
      {items === null || open === null ? null : (
        <QueuePart
          name={open.name}
          items={items}
          groupId={groupId}
          progressText={progressText}
          onOpen={onOpen}
        />
      )}
      <Submit groupId={groupId} />
      {note === null ? null : (
        <p className={styles.blindNote} data-testid="team.blind-note">
          {note}
        </p>
      )}
    </div>
  );
}

function QueuePart({
  name,
  items,
  groupId,
  progressText,
  onOpen,
}: {
  name: string;
  items: readonly QueueItemRow[];
  groupId: string;
  progressText: string | null;
  onOpen: (groupId: string) => void;
}) {
  const bar = teamQueueBar(items, groupId);
  return (
    <>
      <b title={`Queue ${name}`}>{name}</b>
      <span
        className={styles.progress}
        data-testid="team.queue-bar-progress"
        title="Groups you submitted, of the groups the queue gives you"
      >
        {progressText ?? "progress not read"}
      </span>
      <span className={styles.note}>{bar.placeText}</span>
      <button
        type="button"
        className={styles.button}
        disabled={bar.prev === null}
        title={bar.prevTitle}
        data-testid="team.prev"
        onClick={() => bar.prev !== null && onOpen(bar.prev)}
      >
        ← Previous
      </button>
      <button
        type="button"
        className={styles.button}
        disabled={bar.next === null}
        title={bar.nextTitle}
        data-testid="team.next"
        onClick={() => bar.next !== null && onOpen(bar.next)}
      >
        Next →
      </button>
    </>
  );
}

/** Submit the person's annotation of the group, or say it is submitted. */
function Submit({ groupId }: { groupId: string }) {
  const state = useStore((s) => s.teamState);
  const annotation = useStore((s) =>
    Object.hasOwn(s.annotations.groups, groupId) ? s.annotations.groups[groupId] : undefined,
  );
  const submit = useStore((s) => s.teamSubmits[groupId]);
  const submitTeamGroup = useStore((s) => s.submitTeamGroup);
  const model = teamSubmitModel(groupId, state, annotation, submit);
  if (model.kind === "submitted")
    return (
      <span className={styles.submitted} title={model.title} data-testid="team.submitted">
        ✓ {model.text}
      </span>
    );
  return (
    <>
      <button
        type="button"
        className={styles.primary}
        disabled={model.disabled}
        title={model.title}
        data-testid="team.submit"
        data-group-id={groupId}
        // Never rejects: a refusal is said beside the button (teamSubmits).
        onClick={() => {
          submitTeamGroup(groupId).catch(() => undefined);
        }}
      >
        {model.busy ? "Submitting…" : "Submit group"}
      </button>
      {model.reason === null ? null : <span className={styles.note}>{model.reason}</span>}
      {model.error === null ? null : (
        <span className={styles.error} role="alert" data-testid="team.submit-error">
          {model.error}
        </span>
      )}
    </>
  );
}
