/**
 * The group workspace's "Rubric" tab for the open group's task: edit the solution and behavior
 * criteria and save them as a new version, draft them with the judge, see the versions with a diff
 * between any two, the labels made under an older version, and the GRS preview. Rubrics are saved
 * in the annotations' extras (not undoable, exported with the annotations).
 */
import { useMemo, useState } from "react";
import {
  rubricConfirmLabels,
  rubricCurrent,
  rubricEquals,
  rubricSave,
  rubricStaleLabels,
  type Rubric,
  type RubricVersion,
} from "../../../core/index.ts";
import { useStore } from "../../../store/index.ts";
import { useGroupAnalysis, useSettings } from "../../../store/hooks.ts";
import {
  criteriaFrom,
  criteriaRepeats,
  criteriaRubric,
  type CriteriaDraft,
} from "./criteriaEdit.ts";
import { DraftWithJudge } from "./DraftWithJudge.tsx";
import { grsJudgeScores } from "./prepareGrsPreview.ts";
import { GrsPreview } from "./GrsPreview.tsx";
import { RubricEditor } from "./RubricEditor.tsx";
import { RubricHistory, rubricTime } from "./RubricHistory.tsx";
import { StaleLabels } from "./StaleLabels.tsx";
import styles from "./Rubrics.module.css";

const NO_VERSIONS: readonly RubricVersion[] = [];
const EMPTY_RUBRIC: Rubric = { solution: [], behavior: [] };

/** Save a rubric for a task; returns the new version, or null when nothing changed. */
function saveRubric(task: string, rubric: Rubric, author: RubricVersion["author"]): number | null {
  let saved: number | null = null;
  useStore.getState().updateAnnotationExtras((current) => {
    const next = rubricSave(current.rubrics, task, rubric, author, new Date());
    if (next === current.rubrics) return {};
    saved = rubricCurrent(next, task)?.version ?? null;
    return { rubrics: next };
  });
  return saved;
}

export default function RubricTab({ groupId }: { groupId: string }) {
  const view = useGroupAnalysis(groupId);
  const book = useStore((s) => s.annotations.rubrics);
  const runs = useStore((s) => s.annotations.judgeRuns);
  const { passThreshold } = useSettings();
  // Unsaved edits, tied to the task and version they started from: once another version becomes
  // current (a save, a judge draft, an import) or another group opens, they no longer apply and
  // the editor shows that task's current version.
  const [edits, setEdits] = useState<{
    readonly task: string;
    readonly base: number;
    readonly draft: CriteriaDraft;
  } | null>(null);

  const current = rubricCurrent(book, groupId);
  const base = current?.version ?? 0;
  const versions = Object.hasOwn(book, groupId) ? book[groupId]!.versions : NO_VERSIONS;
  const labels = view?.annotation.labels;
  const stale = useMemo(
    () => (labels === undefined ? [] : rubricStaleLabels(book, groupId, labels)),
    [book, groupId, labels],
  );
  const staleIds = useMemo(() => new Set(stale.map((s) => s.rolloutId)), [stale]);
  const judge = useMemo(() => grsJudgeScores(runs, groupId), [runs, groupId]);
  const live = edits !== null && edits.task === groupId && edits.base === base ? edits : null;
  const draft = live?.draft ?? criteriaFrom(current);
  const edited = criteriaRubric(draft);
  const dirty = !rubricEquals(edited, current ?? EMPTY_RUBRIC);
  const empty = edited.solution.length + edited.behavior.length === 0;
  const repeats = criteriaRepeats(draft);
  const rollouts = view?.analysis.rollouts;
  const rewards = useMemo(() => rollouts?.map((r) => r.reward) ?? [], [rollouts]);

  if (view === null) return <p className={styles.muted}>Loading the group…</p>;

  const save = (): void => {
    if (!dirty || empty) return;
    saveRubric(groupId, edited, "human");
    setEdits(null);
  };

  return (
    <div className={styles.tab} data-testid="rubric.tab">
      <div className={styles.head}>
        <h3 className={styles.title}>Rubric for task {groupId}</h3>
        <span
          className={styles.muted}
          data-testid="rubric.status"
          data-version={current?.version ?? 0}
        >
          {current === null
            ? "No rubric yet."
            : `v${current.version} by ${current.author === "judge" ? "the judge (draft)" : "a human"}, saved ${rubricTime(current.savedAt)}`}
        </span>
      </div>
      <section className={styles.section} aria-label="Edit the rubric">
        <RubricEditor
          draft={draft}
          onChange={(next) => setEdits({ task: groupId, base, draft: next })}
          onSave={save}
        />
        {repeats.length > 0 ? (
          <p className={styles.muted} data-testid="rubric.repeats">
            Repeated: {repeats.join("; ")}
          </p>
        ) : null}
        <div className={styles.toolbar}>
          <button
            type="button"
            className={styles.primary}
            disabled={!dirty || empty}
            data-testid="rubric.save"
            onClick={save}
          >
            Save as v{base + 1}
          </button>
          <button
            type="button"
            className={styles.button}
            disabled={live === null}
            data-testid="rubric.revert"
            onClick={() => setEdits(null)}
          >
            Revert
          </button>
          <span className={styles.muted} data-testid="rubric.dirty" data-dirty={dirty}>
            {empty && dirty
              ? "A rubric needs at least one criterion."
              : dirty
                ? "Unsaved changes."
                : current === null
                  ? "Write criteria, or draft them with the judge."
                  : "Saved."}
          </span>
        </div>
        <DraftWithJudge
          group={view.group}
          rewards={rewards}
          passThreshold={passThreshold}
          blockedBy={dirty ? "Save or revert your edits before drafting with the judge." : null}
          onDrafted={(d) => saveRubric(groupId, d, "judge")}
        />
      </section>
      <StaleLabels
        stale={stale}
        labels={view.annotation.labels}
        current={current?.version ?? null}
        onConfirm={(ids) =>
          useStore.getState().updateAnnotationExtras((c) => {
            const next = rubricConfirmLabels(c.rubrics, groupId, ids);
            return next === c.rubrics ? {} : { rubrics: next };
          })
        }
      />
      <RubricHistory key={groupId} versions={versions} />
      <GrsPreview
        key={`grs:${groupId}`}
        rollouts={view.analysis.rollouts}
        passThreshold={passThreshold}
        judge={judge}
        staleLabels={staleIds}
        currentVersion={current?.version ?? null}
      />
    </div>
  );
}
