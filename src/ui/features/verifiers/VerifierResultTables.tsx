/**
 * What the applied spec did: each verifier's counts, what each said about the selected group's
 * rollouts, and each rollout's advantage with a component dropped. Rows come from
 * ./prepareVerifiers.ts; these only render them.
 */
import {
  dropPartLabel,
  type DropView,
  type OutcomeRow,
  type TallyRow,
} from "./prepareVerifiers.ts";
import styles from "./Verifiers.module.css";

export function TallyTable({ tally, dataFile }: { tally: readonly TallyRow[]; dataFile: string }) {
  if (tally.length === 0) return null;
  return (
    <table className={styles.table} data-testid="verifiers.tally">
      <caption>How each verifier came out{dataFile === "" ? "" : ` on ${dataFile}`}</caption>
      <thead>
        <tr>
          <th scope="col">verifier</th>
          <th scope="col">pass</th>
          <th scope="col">fail</th>
          <th scope="col" title="rows it does not apply to (no ground truth, no schema)">
            n/a
          </th>
          <th scope="col">pass rate</th>
          <th scope="col">first n/a reason</th>
        </tr>
      </thead>
      <tbody>
        {tally.map((t) => (
          <tr key={t.name} data-testid="verifiers.tally.row" data-name={t.name}>
            <th scope="row">
              {t.name}
              {t.role === "input" ? (
                <span className={styles.muted}> (input of a penalty)</span>
              ) : null}
            </th>
            <td data-testid="verifiers.tally.pass">{t.pass}</td>
            <td data-testid="verifiers.tally.fail">{t.fail}</td>
            <td>{t.notApplicable}</td>
            <td>{t.passRate}</td>
            <td className={styles.note}>{t.note}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function OutcomesTable({
  groupId,
  names,
  outcomes,
}: {
  groupId: string;
  names: readonly string[];
  outcomes: readonly OutcomeRow[];
}) {
  if (outcomes.length === 0 || names.length === 0) return null;
  return (
    <table className={styles.table} data-testid="verifiers.outcomes">
      <caption>What each verifier said about group {groupId}</caption>
      <thead>
        <tr>
          <th scope="col">rollout</th>
          {names.map((n) => (
            <th key={n} scope="col">
              {n}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {outcomes.map((row) => (
          <tr key={row.id} data-testid="verifiers.outcomes.row" data-rollout-id={row.id}>
            <th scope="row">{row.id}</th>
            {row.cells.map((c) => (
              <td
                key={c.name}
                data-verdict={c.pass === null ? "n/a" : c.pass ? "pass" : "fail"}
                title={c.note}
              >
                {c.value === "" ? "n/a" : c.value}
                {c.note !== "" ? <span className={styles.note}> {c.note}</span> : null}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function DropTable({ groupId, drop }: { groupId: string; drop: DropView }) {
  return (
    <div data-testid="verifiers.drop">
      <h3 className={styles.heading}>If a component were dropped: group {groupId}</h3>
      {drop.parts.length === 0 ? (
        <p className={styles.muted}>{drop.empty}</p>
      ) : (
        <table className={styles.table}>
          <caption>
            Each rollout's advantage under the current settings, and the change without each part (a
            sign flip is marked)
          </caption>
          <thead>
            <tr>
              <th scope="col">rollout</th>
              <th scope="col">advantage</th>
              {drop.parts.map((p) => (
                <th key={p} scope="col">
                  without {dropPartLabel(p)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {drop.rows.map((row) => (
              <tr key={row.id} data-testid="verifiers.drop.row" data-rollout-id={row.id}>
                <th scope="row">{row.id}</th>
                <td data-testid="verifiers.drop.advantage">{row.advantage}</td>
                {row.cells.map((c) => (
                  <td
                    key={c.part}
                    data-part={c.part}
                    data-flips={c.flips ? "true" : undefined}
                    className={c.flips ? styles.flip : undefined}
                    title={`${c.without} without ${dropPartLabel(c.part)}`}
                  >
                    {c.delta}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
