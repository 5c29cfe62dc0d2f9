/**
 * The annotator's section of the team panel: who the page is (person, role, dataset), their
 * queues each with its progress ("12 of 40"), and the open queue's groups with where each stands
 * (to do, draft, submitted); a click opens the group in the workspace.
 */
import { useMemo } from "react";
import { useStore } from "../../../store/index.ts";
import type { TeamMode } from "../../../store/team/teamSelectors.ts";
import { STATUS_TEXT, teamQueueItems, teamQueueRows, type QueueRow } from "./teamModel.ts";
import styles from "./Team.module.css";

export default function AnnotatorSection({ mode }: { mode: TeamMode }) {
  const { user, role, dataset } = mode.team;
  const entries = useStore((s) => s.teamQueues);
  const open = useStore((s) => s.teamOpenQueue);
  const error = useStore((s) => s.teamError);
  const openTeamQueue = useStore((s) => s.openTeamQueue);
  const rows = useMemo(
    () => (entries === null ? null : teamQueueRows(entries, user, role, open?.name ?? null)),
    [entries, user, role, open?.name],
  );
  return (
    <section className={styles.panel} aria-label="Your queues" data-testid="team.annotator">
      <p className={styles.whoami} data-testid="team.whoami" data-user={user} data-role={role}>
        You are <b>{user}</b> ({role}) on dataset <b>{dataset}</b>
      </p>
      {error === null ? null : (
        <p className={styles.error} role="alert" data-testid="team.error">
          The team state could not be read: {error}
        </p>
      )}
      <h3 className={styles.title}>Your queues</h3>
      {rows === null ? (
        <p className={styles.note}>Reading your queues…</p>
      ) : rows.length === 0 ? (
        <p className={styles.note} data-testid="team.no-queues">
          No queue gives you groups yet: a lead makes one and assigns it.
        </p>
      ) : (
        <ul className={styles.queues}>
          {rows.map((row) => (
            <QueueEntry
              key={row.name}
              row={row}
              user={user}
              // Never rejects: a failed read is said in the queue (teamOpenQueue.error).
              onToggle={() => {
                openTeamQueue(row.open ? null : row.name).catch(() => undefined);
              }}
            />
          ))}
        </ul>
      )}
    </section>
  );
}

function QueueEntry({
  row,
  user,
  onToggle,
}: {
  row: QueueRow;
  user: string;
  onToggle: () => void;
}) {
  return (
    <li
      className={styles.queue}
      data-testid="team.queue"
      data-queue={row.name}
      data-blind={row.blind ? "1" : "0"}
    >
      <div className={styles.queueHead}>
        <span className={styles.queueName} title={row.name}>
          {row.name}
        </span>
        {row.blind ? (
          <span
            className={styles.badge}
            title="Blind: no reward and no judge verdict of a group until you submit it"
          >
            blind
          </span>
        ) : null}
        <span
          className={styles.progress}
          data-testid="team.queue-progress"
          title="Groups you submitted, of the groups the queue gives you"
        >
          {row.progressText ?? "progress not read"}
        </span>
        <span className={styles.gap} />
        <button
          type="button"
          className={styles.button}
          aria-pressed={row.open}
          data-testid="team.queue-open"
          onClick={onToggle}
        >
          {row.open ? "Close" : "Open"}
        </button>
      </div>
      {row.open ? <QueueItems user={user} /> : null}
    </li>
  );
}

/** The open queue's groups (the person's), each opening in the workspace. */
function QueueItems({ user }: { user: string }) {
  const open = useStore((s) => s.teamOpenQueue);
  const state = useStore((s) => s.teamState);
  const annotations = useStore((s) => s.annotations);
  const selected = useStore((s) => s.selectedGroupId);
  const selectGroup = useStore((s) => s.selectGroup);
  const items = useMemo(
    () =>
      open?.view == null ? null : teamQueueItems(open.view, user, state, annotations, selected),
    [open, user, state, annotations, selected],
  );
  if (open === null) return null;
  if (open.error !== null)
    return (
      <p className={styles.error} role="alert">
        The queue could not be read: {open.error}
      </p>
    );
  if (items === null) return <p className={styles.note}>Reading the queue…</p>;
  if (items.length === 0) return <p className={styles.note}>The queue gives you no group.</p>;
  return (
    <ol className={styles.items} aria-label={`Groups of ${open.name}`}>
      {items.map((item) => (
        <li key={item.groupId}>
          <button
            type="button"
            className={styles.item}
            aria-current={item.current}
            data-testid="team.queue-item"
            data-group-id={item.groupId}
            data-status={item.status}
            title={`Open group ${item.groupId}`}
            onClick={() => selectGroup(item.groupId)}
          >
            <span className={styles.place}>{item.place}.</span>
            <span className={styles.itemId}>{item.groupId}</span>
            <span className={styles.status} data-status={item.status}>
              {STATUS_TEXT[item.status]}
            </span>
          </button>
        </li>
      ))}
    </ol>
  );
}
