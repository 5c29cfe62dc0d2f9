/**
 * The current or last job: live progress ("12 of 40"), tokens, cost and failures by kind with a
 * Cancel button while it runs; then what it judged, the groups it skipped, every judge error with
 * its message (those groups keep their original rewards), and the spread report of a gar or
 * rubric run.
 */
import { useStore } from "../../../store/index.ts";
import { progressView, runRows } from "./prepareJudge.ts";
import SpreadReportView from "./SpreadReportView.tsx";
import type { JudgeRunner } from "./useJudgeRunner.ts";
import styles from "./Judge.module.css";

export default function RunStatus({ runner }: { runner: JudgeRunner }) {
  const prices = useStore((s) => s.judgeConnection.prices);
  const minFactor = useStore((s) => s.settings.minFactor);
  const { state } = runner;
  if (state.status === "idle") return null;
  if (state.status === "running") {
    const p = progressView(state.done, state.total, state.accounting, prices);
    return (
      <section className={styles.section} aria-live="polite" data-testid="judge.progress">
        <h3 className={styles.heading}>{state.label}: running</h3>
        <progress value={state.done} max={Math.max(1, state.total)} />
        <dl className={styles.facts}>
          <dt>Requests</dt>
          <dd data-testid="judge.progress-count">{p.count}</dd>
          <dt>Tokens</dt>
          <dd data-testid="judge.progress-tokens">{p.tokens}</dd>
          <dt>Cost</dt>
          <dd data-testid="judge.progress-cost">{p.cost}</dd>
          <dt>Failures</dt>
          <dd data-testid="judge.progress-failures">{p.failures}</dd>
        </dl>
        <button
          type="button"
          className={styles.button}
          data-testid="judge.cancel"
          onClick={runner.cancel}
        >
          Cancel
        </button>
      </section>
    );
  }
  if (state.status === "error")
    return (
      <section className={styles.section} role="alert" data-testid="judge.result">
        <h3 className={styles.heading}>{state.label}: failed</h3>
        <p>{state.message}</p>
      </section>
    );
  const row = runRows([state.run], minFactor)[0]!;
  return (
    <section className={styles.section} data-testid="judge.result" data-run-id={row.id}>
      <h3 className={styles.heading}>
        {state.label}: {row.cancelled ? "cancelled" : "done"}
        {row.heuristic ? <span className={styles.badge}>heuristic</span> : null}
      </h3>
      <p data-testid="judge.result-summary">
        {row.groups} group{row.groups === 1 ? "" : "s"} judged; requests {row.requests}; failures{" "}
        {row.failures}; cost {row.cost}.
        {row.cancelled ? " Cancelled: the groups it did not finish have no result." : ""}
      </p>
      {row.flips === null ? null : (
        <p data-testid="judge.result-flips">Position flips: {row.flips}</p>
      )}
      {row.errors.length > 0 ? <ErrorList errors={row.errors} /> : null}
      {state.skipped.length > 0 ? (
        <details data-testid="judge.skipped">
          <summary>
            {state.skipped.length} group{state.skipped.length === 1 ? "" : "s"} skipped
          </summary>
          <ul>
            {state.skipped.map((s) => (
              <li key={s.groupId}>
                {s.groupId}: {s.reason}
              </li>
            ))}
          </ul>
        </details>
      ) : null}
      {row.spread === null ? null : (
        <SpreadReportView report={row.spread} heuristic={row.heuristic} />
      )}
    </section>
  );
}

/** Groups the judge failed on, each with its message: they keep their original rewards. */
export function ErrorList({
  errors,
}: {
  errors: readonly { readonly groupId: string; readonly message: string }[];
}) {
  return (
    <div data-testid="judge.errors">
      <p className={styles.warning}>
        {errors.length} judge error{errors.length === 1 ? "" : "s"}: these groups keep their
        original rewards (never a guessed grade).
      </p>
      <ul className={styles.errors}>
        {errors.map((e) => (
          <li key={e.groupId} data-testid="judge.error" data-group-id={e.groupId}>
            <b>{e.groupId}</b>: {e.message}
          </li>
        ))}
      </ul>
    </div>
  );
}
