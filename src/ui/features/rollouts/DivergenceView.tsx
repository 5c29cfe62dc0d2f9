/**
 * Where the group's trajectories part ways: the steps every rollout shares (collapsed), then the
 * branches side by side, each led by the step that differs (highlighted) and listing its rollouts
 * with their rewards and cluster chips; later splits nest inside their branch. Text is shown as
 * plain text (clamped), never as markup.
 */
import { useEffect, useMemo, useState } from "react";
import { divergenceOfRollouts } from "../../../core/index.ts";
import { useStore } from "../../../store/index.ts";
import { useGroupAnalysis } from "../../../store/hooks.ts";
import ClusterChip from "../../components/ClusterChip.tsx";
import { TEXTS_CUT_TITLE, textsCutNote } from "../../components/textsCut.ts";
import {
  prepareDivergence,
  type DivergenceBranchView,
  type DivergenceStepView,
} from "./prepareDivergence.ts";
import transcriptStyles from "../../components/transcript/Transcript.module.css";
import styles from "./Rollouts.module.css";

function Step({ step, differs = false }: { step: DivergenceStepView; differs?: boolean }) {
  return (
    <li
      className={`${styles.step} ${differs ? styles.differs : ""}`}
      data-testid="divergence.step"
      data-kind={step.kind}
      data-differs={differs ? "true" : undefined}
    >
      <span className={styles.stepIndex}>#{step.number}</span>
      <div className={styles.stepBody}>
        <div className={transcriptStyles.roleLabel}>
          {step.label}
          {step.tool === null ? null : (
            <code className={transcriptStyles.toolTag}>{step.tool}</code>
          )}
        </div>
        <div className={styles.stepText} title={step.text}>
          {step.text}
        </div>
      </div>
    </li>
  );
}

function Steps({ steps, label }: { steps: readonly DivergenceStepView[]; label: string }) {
  if (steps.length === 0) return null;
  return (
    <details className={styles.rest}>
      <summary>{label}</summary>
      <ol className={styles.steps}>
        {steps.map((s) => (
          <Step key={s.number} step={s} />
        ))}
      </ol>
    </details>
  );
}

function Branch({ branch, pending }: { branch: DivergenceBranchView; pending: boolean }) {
  return (
    <div className={styles.branch} data-testid="divergence.branch" data-members={branch.key}>
      <ul className={styles.members} aria-label="Rollouts in this branch">
        {branch.members.map((m) => (
          <li
            key={m.id}
            className={styles.member}
            data-testid="divergence.rollout"
            data-rollout-id={m.id}
          >
            <b>{m.id}</b>
            <span className={m.passed ? styles.pass : styles.fail}>
              {m.reward === "" ? "no reward" : `R ${m.reward}`}
            </span>
            <ClusterChip cluster={m.cluster} size={m.clusterSize} pending={pending} />
          </li>
        ))}
      </ul>
      <p className={styles.muted}>
        {branch.members.length} rollout{branch.members.length === 1 ? "" : "s"}, {branch.passes}{" "}
        pass{branch.passes === 1 ? "" : "es"}
      </p>
      {branch.first === null ? (
        <p className={styles.ended} data-testid="divergence.ended">
          The transcript ends here.
        </p>
      ) : (
        <ol className={styles.steps}>
          <Step step={branch.first} differs />
        </ol>
      )}
      <Steps
        steps={branch.rest}
        label={`then ${branch.rest.length} shared step${branch.rest.length === 1 ? "" : "s"}`}
      />
      {branch.branches.length > 0 ? (
        <div className={styles.branches}>
          {branch.branches.map((b) => (
            <Branch key={b.key} branch={b} pending={pending} />
          ))}
        </div>
      ) : null}
    </div>
  );
}

/** Where the group's trajectories part ways. */
export default function DivergenceView({ groupId }: { groupId: string }) {
  const ensureGroup = useStore((s) => s.ensureGroup);
  const parsed = useGroupAnalysis(groupId);
  const [results, setResults] = useState(true);
  const textChars = useStore((s) => s.settings.textChars);
  // Parsing a group of an indexed file is a request to the worker: an external system.
  useEffect(() => {
    ensureGroup(groupId);
  }, [ensureGroup, groupId]);
  const group = parsed?.group ?? null;
  const tree = useMemo(
    () => (group === null ? null : divergenceOfRollouts(group.rollouts, { results, textChars })),
    [group, results, textChars],
  );
  if (parsed === null || tree === null) {
    return (
      <section className={styles.card} data-testid="group.loading">
        <p className={styles.muted}>Reading group {groupId}…</p>
      </section>
    );
  }
  const view = prepareDivergence(parsed.group, parsed.analysis, tree);
  const pending = parsed.clusters.status !== "done";
  const cutNote = textsCutNote(tree.textsCut, textChars, "before comparing steps");
  return (
    <section
      className={styles.card}
      aria-label={`Divergence of group ${groupId}`}
      data-testid="divergence.view"
    >
      <div className={styles.groupBar}>
        <h2 className={styles.heading}>Divergence of group {groupId}</h2>
        <label
          className={styles.control}
          title="Off: rollouts that made the same calls stay together even if the tools answered differently"
        >
          <input
            type="checkbox"
            checked={results}
            data-testid="divergence.results"
            onChange={(e) => setResults(e.currentTarget.checked)}
          />
          Compare tool results
        </label>
      </div>
      <div className={styles.divergence}>
        <p
          className={styles.summary}
          data-testid="divergence.summary"
          data-split={view.split ?? ""}
        >
          {view.summary}
        </p>
        {cutNote === null ? null : (
          <p className={styles.muted} data-testid="divergence.texts-cut" title={TEXTS_CUT_TITLE}>
            {cutNote}
          </p>
        )}
        <div data-testid="divergence.prefix">
          <Steps
            steps={view.prefix}
            label={`Common prefix: ${view.prefix.length} step${view.prefix.length === 1 ? "" : "s"}`}
          />
        </div>
        {view.branches.length > 0 ? (
          <div className={styles.branches}>
            {view.branches.map((b) => (
              <Branch key={b.key} branch={b} pending={pending} />
            ))}
          </div>
        ) : null}
      </div>
    </section>
  );
}
