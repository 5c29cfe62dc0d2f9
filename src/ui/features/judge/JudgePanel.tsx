/**
 * The LLM judge panel (a dataset panel, loaded on first open): the connection, the prompt templates,
 * runs of each grader with live progress and Cancel, the offline heuristic grader, the spread check
 * before training, and the list of runs kept in the annotations.
 */
import { useDataset } from "../../../store/hooks.ts";
import ConnectionForm from "./ConnectionForm.tsx";
import RunSection from "./RunSection.tsx";
import RunStatus from "./RunStatus.tsx";
import RunsList from "./RunsList.tsx";
import TemplateEditor from "./TemplateEditor.tsx";
import { useJudgeRunner } from "./useJudgeRunner.ts";
import styles from "./Judge.module.css";

export default function JudgePanel() {
  const dataset = useDataset();
  const runner = useJudgeRunner();
  return (
    <section className={styles.panel} aria-label="LLM judge">
      <h2 className={styles.title}>LLM judge</h2>
      <ConnectionForm />
      {dataset === null ? (
        <p className={styles.muted}>Open a dataset to run the judge.</p>
      ) : (
        <>
          <RunSection runner={runner} />
          <RunStatus runner={runner} />
          <RunsList />
        </>
      )}
      <details className={styles.section}>
        <summary>Prompt templates</summary>
        <TemplateEditor />
      </details>
    </section>
  );
}
