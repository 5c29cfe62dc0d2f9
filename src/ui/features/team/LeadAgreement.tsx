/**
 * The lead's live agreement (issue 18): core's `teamAgreement` over a queue's overlap or every
 * group, per pair and pooled (Cohen's kappa on labels and on hack marks, Kendall's tau on
 * rankings, each with what it is over), and the disagreements by group, each opening the
 * side-by-side resolution. The values are core's; the rows' data attributes hold them whole.
 */
import type { TeamAgreement } from "../../../core/index.ts";
import {
  agreementRows,
  disagreementGroups,
  disagreementText,
  fullNumber,
  meanOfPairsText,
  type AgreementFigure,
  type AgreementRow,
  type DisagreementGroup,
} from "./leadAgreementModel.ts";
import styles from "./TeamLead.module.css";

const KAPPA_TITLE =
  "Cohen's kappa: (observed - chance agreement) / (1 - chance agreement), over the rollouts both judged in groups both submitted. 1 = full agreement, 0 = chance.";
const TAU_TITLE =
  "Kendall's tau-b over the rollouts both ranked, per group, then the pair-weighted mean over the groups (each pair of rollouts weighs the same).";

const POOLED_TITLE =
  "Every pair's items together: kappa over all of them as one table (each item with its pair's first person first), tau pair-weighted over every pair's ranked groups.";

function Figure({ figure }: { figure: AgreementFigure }) {
  return (
    <span className={styles.figure}>
      <span
        className={figure.caution ? `${styles.figureValue} ${styles.caution}` : styles.figureValue}
      >
        {figure.text}
      </span>
      <span className={styles.figureDetail}>{figure.detail}</span>
    </span>
  );
}

function rowAttributes(row: AgreementRow): Record<string, string | number> {
  return {
    "data-groups": row.groups,
    "data-labels-kappa": fullNumber(row.labels.value),
    "data-labels-n": row.labels.n,
    "data-hacks-kappa": fullNumber(row.hacks.value),
    "data-hacks-n": row.hacks.n,
    "data-ranking-tau": fullNumber(row.tau.value),
    "data-ranking-groups": row.tau.n,
  };
}

function Row({ row, testId }: { row: AgreementRow; testId: string }) {
  const pair = row.first === null ? {} : { "data-a": row.first, "data-b": row.second ?? "" };
  return (
    <tr
      className={row.first === null ? styles.overallRow : undefined}
      data-testid={testId}
      {...pair}
      {...rowAttributes(row)}
    >
      <th scope="row" title={row.first === null ? POOLED_TITLE : undefined}>
        {row.label}
      </th>
      <td>{row.groups}</td>
      <td>
        <Figure figure={row.labels} />
      </td>
      <td>
        <Figure figure={row.hacks} />
      </td>
      <td>
        <Figure figure={row.tau} />
      </td>
    </tr>
  );
}

export interface LeadAgreementProps {
  readonly agreement: TeamAgreement | null;
  readonly queues: readonly string[];
  /** The queue whose overlap is compared, or null for every group. */
  readonly queue: string | null;
  readonly onQueue: (queue: string | null) => void;
}

export function LeadAgreementTable({ agreement, queues, queue, onQueue }: LeadAgreementProps) {
  const rows = agreement === null ? null : agreementRows(agreement);
  const mean = agreement === null ? null : meanOfPairsText(agreement);
  return (
    <section className={styles.section} aria-label="Agreement" data-testid="team.agreement">
      <div className={styles.actions}>
        <h4 className={styles.heading}>Agreement</h4>
        <label className={styles.field}>
          over
          <select
            data-testid="team.agreement-scope"
            value={queue ?? ""}
            onChange={(e) => onQueue(e.target.value === "" ? null : e.target.value)}
          >
            <option value="">every group</option>
            {queues.map((q) => (
              <option key={q} value={q}>
                {q}&apos;s overlap
              </option>
            ))}
          </select>
        </label>
      </div>
      <p className={styles.muted}>
        Submitted groups only: a draft counts for nothing until its annotator submits it.
      </p>
      {rows === null ? (
        <p className={styles.muted}>That queue is not listed any more.</p>
      ) : rows.pairs.length === 0 ? (
        <p className={styles.muted} data-testid="team.agreement-none">
          No two people have submitted a group yet.
        </p>
      ) : (
        <table className={styles.table}>
          <thead>
            <tr>
              <th scope="col">Pair</th>
              <th scope="col" title="Groups both submitted">
                Groups
              </th>
              <th scope="col" title={KAPPA_TITLE}>
                Labels κ
              </th>
              <th scope="col" title={KAPPA_TITLE}>
                Hacks κ
              </th>
              <th scope="col" title={TAU_TITLE}>
                Rankings τ
              </th>
            </tr>
          </thead>
          <tbody>
            <Row row={rows.overall} testId="team.agreement-overall" />
            {rows.pairs.map((row) => (
              <Row key={row.label} row={row} testId="team.agreement-pair" />
            ))}
          </tbody>
        </table>
      )}
      {mean === null ? null : <p className={styles.muted}>{mean}</p>}
    </section>
  );
}

export interface LeadDisagreementsProps {
  readonly agreement: TeamAgreement | null;
  /** Per resolved group, the lead who resolved it. */
  readonly resolvedBy: Readonly<Record<string, string>>;
  /** The group and pair open in the resolution (its key), or null. */
  readonly open: string | null;
  readonly onOpen: (group: DisagreementGroup) => void;
}

export function LeadDisagreements({ agreement, resolvedBy, open, onOpen }: LeadDisagreementsProps) {
  const groups = agreement === null ? [] : disagreementGroups(agreement.disagreements);
  return (
    <section className={styles.section} aria-label="Disagreements">
      <h4 className={styles.heading}>
        Disagreements
        {groups.length > 0 ? ` (${groups.length} ${groups.length === 1 ? "group" : "groups"})` : ""}
      </h4>
      {groups.length === 0 ? (
        <p className={styles.muted}>None on the submitted groups.</p>
      ) : (
        <ul className={styles.disagreements} data-testid="team.disagreements">
          {groups.map((g) => (
            <li
              key={g.key}
              className={
                g.key === open
                  ? `${styles.disagreementGroup} ${styles.disagreementGroupOpen}`
                  : styles.disagreementGroup
              }
            >
              <div className={styles.disagreementHead}>
                <span className={styles.groupId}>{g.groupId}</span>
                <span className={styles.muted}>
                  {g.first} vs {g.second}
                </span>
                {Object.hasOwn(resolvedBy, g.groupId) ? (
                  <span
                    className={styles.resolved}
                    data-testid="team.resolved"
                    data-group-id={g.groupId}
                  >
                    resolved by {resolvedBy[g.groupId]}
                  </span>
                ) : null}
              </div>
              <ul className={styles.disagreementItems}>
                {g.items.map((d, i) => (
                  <li key={i}>
                    <button
                      type="button"
                      className={styles.disagreement}
                      data-testid="team.disagreement"
                      data-group-id={d.groupId}
                      data-kind={d.kind}
                      data-first={d.first}
                      data-second={d.second}
                      data-rollout-id={d.kind === "ranking" ? undefined : d.rolloutId}
                      title={`Open ${d.groupId} with both annotations side by side`}
                      onClick={() => onOpen(g)}
                    >
                      {disagreementText(d)}
                    </button>
                  </li>
                ))}
              </ul>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
