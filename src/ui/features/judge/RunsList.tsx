/**
 * Every judge run in the annotations, newest first: mode, model, prompt version, time, requests,
 * failures and cost, each expandable to its judge errors, flip rate and spread report; a run can be
 * deleted. Also the GAR ranking source: human only, or a gar run the user picks by its name to
 * rank the groups no person ranked (no run is ever picked by default).
 */
import { useId } from "react";
import { garSourceOfRun, type GarRankingSource } from "../../../core/index.ts";
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
  const garIds = new Set(runs.filter((r) => r.info.mode === "gar").map((r) => r.info.id));
  const garRuns = rows.filter((r) => garIds.has(r.id));
  // A picked run that was deleted reads as human only (garSourceRunFor finds no run).
  const value = garRuns.some((r) => garSourceOfRun(r.id) === garSource) ? garSource : "human-only";

  return (
    <section className={styles.section} data-testid="judge.runs">
      <h3 className={styles.heading}>Runs</h3>
      <div className={styles.row}>
        <label htmlFor={`${id}-source`}>GAR ranking source</label>
        <select
          id={`${id}-source`}
          value={value}
          data-testid="judge.gar-source"
          onChange={(e) => setGarSource(e.currentTarget.value as GarRankingSource)}
        >
          <option value="human-only">human only</option>
          {garRuns.map((r) => (
            <option key={r.id} value={garSourceOfRun(r.id)}>
              human, then {r.name}
            </option>
          ))}
        </select>
        <span className={styles.muted}>
          Human only by default. Pick a group-grader run by name and a group no one ranked takes its
          GAR numbers from that run (labelled judge or heuristic); no run, a spread check included,
          becomes the source unless you pick it.
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
              <th scope="col">Scope</th>
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
                <td data-testid="judge.run-scope">{r.scope}</td>
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
