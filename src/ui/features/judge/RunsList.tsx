/**
 * Every judge run in the annotations, newest first: mode, model, prompt version, time, requests,
 * failures and cost, each expandable to its judge errors, flip rate and spread report; a run can be
 * deleted. Also the setting that lets the latest gar run rank groups no person ranked.
 */
import { useId } from "react";
import type { GarRankingSource } from "../../../core/index.ts";
import { useStore } from "../../../store/index.ts";
import { runRows } from "./prepareJudge.ts";
import { ErrorList } from "./RunStatus.tsx";
import SpreadReportView from "./SpreadReportView.tsx";
import styles from "./Judge.module.css";

export default function RunsList() {
  const runs = useStore((s) => s.annotations.judgeRuns);
  const minFactor = useStore((s) => s.settings.minFactor);
  const garSource = useStore((s) => s.judgeGarSource);
  const setGarSource = useStore((s) => s.setJudgeGarSource);
  const updateAnnotationExtras = useStore((s) => s.updateAnnotationExtras);
  const id = useId();
  const rows = runRows(runs, minFactor);

  return (
    <section className={styles.section} data-testid="judge.runs">
      <h3 className={styles.heading}>Runs</h3>
      <div className={styles.row}>
        <label htmlFor={`${id}-source`}>GAR ranking source</label>
        <select
          id={`${id}-source`}
          value={garSource}
          data-testid="judge.gar-source"
          onChange={(e) => setGarSource(e.currentTarget.value as GarRankingSource)}
        >
          <option value="human-then-judge">human, then judge</option>
          <option value="human-only">human only</option>
        </select>
        <span className={styles.muted}>
          With &quot;human, then judge&quot;, a group no one ranked takes its GAR numbers from the
          latest group-grader run that judged it, labelled judge or heuristic.
        </span>
      </div>
      {rows.length === 0 ? (
        <p className={styles.muted}>No judge runs yet.</p>
      ) : (
        <table className={styles.table}>
          <thead>
            <tr>
              <th scope="col">Mode</th>
              <th scope="col">Model</th>
              <th scope="col">Prompt version</th>
              <th scope="col">Started</th>
              <th scope="col">Groups</th>
              <th scope="col">Requests</th>
              <th scope="col">Failures</th>
              <th scope="col">Cost</th>
              <th scope="col">
                <span className={styles.hidden}>Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.id} data-testid="judge.run-row" data-run-id={r.id}>
                <td>
                  {r.mode}
                  {r.heuristic ? <span className={styles.badge}>heuristic</span> : null}
                  {r.cancelled ? <span className={styles.badge}>cancelled</span> : null}
                  {r.errors.length > 0 || r.spread !== null || r.flips !== null ? (
                    <details>
                      <summary>details</summary>
                      {r.flips === null ? null : <p>Position flips: {r.flips}</p>}
                      {r.errors.length > 0 ? <ErrorList errors={r.errors} /> : null}
                      {r.spread === null ? null : (
                        <SpreadReportView report={r.spread} heuristic={r.heuristic} />
                      )}
                    </details>
                  ) : null}
                </td>
                <td>{r.model}</td>
                <td>
                  <code>{r.promptVersion}</code>
                </td>
                <td>{r.started}</td>
                <td>{r.groups}</td>
                <td>{r.requests}</td>
                <td>{r.failures}</td>
                <td>{r.cost}</td>
                <td>
                  <button
                    type="button"
                    className={styles.button}
                    data-testid="judge.run-delete"
                    aria-label={`Delete run ${r.id}`}
                    onClick={() =>
                      updateAnnotationExtras((current) => ({
                        judgeRuns: current.judgeRuns.filter((run) => run.info.id !== r.id),
                      }))
                    }
                  >
                    Delete
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
