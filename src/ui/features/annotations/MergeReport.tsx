/**
 * The report on another annotator's file: agreement figures (mean and per-group Kendall tau,
 * Cohen's kappa on labels and on hack marks with n and observed agreement), the disagreements to
 * resolve (each opens its group), and the merge. Loaded on demand with the file.
 */
import { useMemo } from "react";
import { annotationsAgreement, type Annotations, type RolloutGroup } from "../../../core/index.ts";
import { useStore } from "../../../store/index.ts";
import styles from "./Annotations.module.css";
import { mergeAnnotations, prepareAgreement } from "./prepareMerge.ts";

export default function MergeReport({
  fileName,
  other,
  groups,
  onClose,
}: {
  fileName: string;
  other: Annotations;
  groups: readonly RolloutGroup[];
  onClose: () => void;
}) {
  const current = useStore((s) => s.annotations);
  const setAnnotations = useStore((s) => s.setAnnotations);
  const selectGroup = useStore((s) => s.selectGroup);
  const view = useMemo(
    () => prepareAgreement(annotationsAgreement(current, other, groups)),
    [current, other, groups],
  );
  const merge = useMemo(() => mergeAnnotations(current, other), [current, other]);
  const who = other.annotator !== "" ? `${other.annotator} (${fileName})` : fileName;
  return (
    <section
      className={styles.report}
      aria-label="Agreement with another annotator"
      data-testid="merge.report"
    >
      <div className={styles.reportHead}>
        <h2 className={styles.reportTitle}>Agreement with {who}</h2>
        <button type="button" className={styles.button} data-testid="merge.close" onClick={onClose}>
          Close
        </button>
      </div>
      <p data-testid="merge.groups">
        {view.sharedGroups} group(s) annotated in both, {view.onlyCurrent} only in the current
        annotations, {view.onlyOther} only in {fileName}.
      </p>
      <table className={styles.figures}>
        <thead>
          <tr>
            <th scope="col">Measure</th>
            <th scope="col">Value</th>
            <th scope="col">n</th>
            <th scope="col">Observed agreement</th>
          </tr>
        </thead>
        <tbody>
          <tr>
            <th scope="row">Rankings: mean Kendall tau-b</th>
            <td data-testid="merge.mean-tau">{view.meanTau}</td>
            <td data-testid="merge.tau-n">{view.rankings.length} group(s)</td>
            <td />
          </tr>
          <tr>
            <th scope="row">Labels: Cohen&apos;s kappa</th>
            <td data-testid="merge.label-kappa">{view.labels.kappa}</td>
            <td data-testid="merge.label-n">{view.labels.n}</td>
            <td data-testid="merge.label-observed">{view.labels.observed}</td>
          </tr>
          <tr>
            <th scope="row">Hack marks: Cohen&apos;s kappa</th>
            <td data-testid="merge.hack-kappa">{view.hacks.kappa}</td>
            <td data-testid="merge.hack-n">{view.hacks.n}</td>
            <td data-testid="merge.hack-observed">{view.hacks.observed}</td>
          </tr>
        </tbody>
      </table>
      {view.rankings.length > 0 ? (
        <details>
          <summary>Kendall tau per group ({view.rankings.length})</summary>
          <ul className={styles.list}>
            {view.rankings.map((r) => (
              <li key={r.groupId} data-testid="merge.group-tau" data-group-id={r.groupId}>
                <span className={styles.mono}>{r.groupId}</span>: tau {r.tau} over {r.n} rollouts
              </li>
            ))}
          </ul>
        </details>
      ) : null}
      <h3 className={styles.reportSubtitle}>
        Disagreements to resolve ({view.disagreements.length})
      </h3>
      {view.disagreements.length === 0 ? (
        <p className={styles.status}>None.</p>
      ) : (
        <ul className={styles.list} data-testid="merge.disagreements">
          {view.disagreements.map((d) => (
            <li
              key={d.key}
              data-testid="merge.disagreement"
              data-kind={d.kind}
              data-group-id={d.groupId}
            >
              <button
                type="button"
                className={styles.link}
                data-testid="merge.open-group"
                onClick={() => selectGroup(d.groupId)}
              >
                {d.groupId}
              </button>{" "}
              <span className={styles.status}>{d.kind}</span> {d.message}
            </li>
          ))}
        </ul>
      )}
      <p className={styles.status}>
        Merging adds the {merge.added} group(s) only in {fileName}. In groups both annotate, the
        current values are kept where they conflict; {fileName} fills only what the current
        annotations leave empty (ranking, notes, unlabelled rollouts, rollout notes, a comparison
        session) in {merge.filled} group(s). Hack and reviewed marks stay the current ones. Undo
        reverts the merge.
      </p>
      <button
        type="button"
        className={styles.button}
        disabled={merge.merged === current}
        data-testid="merge.apply"
        onClick={() => setAnnotations(merge.merged)}
      >
        {merge.merged === current ? "Nothing to merge" : "Merge into the current annotations"}
      </button>
    </section>
  );
}
