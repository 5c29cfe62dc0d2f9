/**
 * The queues the lead made, each with its progress per person as the server counts it (`GET
 * /api/team/queues/:name/progress`: assigned, annotated, submitted), read again on every `team`
 * event, so the counts move as annotators work.
 */
import type { TeamProgressRow, TeamQueueReply } from "../../../io/view/teamApi.ts";
import styles from "./TeamLead.module.css";

export interface LeadQueuesProps {
  readonly queues: readonly TeamQueueReply[];
  readonly progress: Readonly<Record<string, readonly TeamProgressRow[]>>;
}

function ProgressRow({ queue, row }: { queue: string; row: TeamProgressRow }) {
  return (
    <li
      data-testid="team.progress-row"
      data-queue={queue}
      data-user={row.user}
      data-assigned={row.assigned}
      data-annotated={row.annotated}
      data-submitted={row.submitted}
    >
      <span>{row.user}</span>
      <progress
        className={styles.bar}
        value={row.submitted}
        max={Math.max(1, row.assigned)}
        aria-label={`${row.user}: ${row.submitted} of ${row.assigned} submitted`}
      />
      <span>
        {row.submitted} of {row.assigned} submitted
        {row.annotated > row.submitted ? ` · ${row.annotated - row.submitted} draft` : ""}
      </span>
    </li>
  );
}

export default function LeadQueues({ queues, progress }: LeadQueuesProps) {
  if (queues.length === 0) return <p className={styles.muted}>No queue yet: make one below.</p>;
  return (
    <ul className={styles.queues} data-testid="team.lead-queues">
      {queues.map((q) => {
        const rows = Object.hasOwn(progress, q.name) ? progress[q.name]! : [];
        return (
          <li
            key={q.name}
            className={styles.queue}
            data-testid="team.lead-queue"
            data-queue={q.name}
          >
            <div className={styles.queueHead}>
              <b>{q.name}</b>
              <span className={styles.muted}>
                {q.groups} {q.groups === 1 ? "group" : "groups"}, {Math.round(q.overlap * 100)}%
                overlap, seed {q.seed}
              </span>
              {q.blind ? <span className={styles.badge}>blind</span> : null}
            </div>
            <ul className={styles.progress} aria-label={`Progress of ${q.name}`}>
              {rows.map((row) => (
                <ProgressRow key={row.user} queue={q.name} row={row} />
              ))}
            </ul>
          </li>
        );
      })}
    </ul>
  );
}
