/**
 * Each mode's prompt template, editable: name, system and user text with `{{placeholders}}`. The
 * version (name plus a hash of the text) changes with every edit, and every run records the version
 * it used. Saved templates are kept in this browser; "Reset" goes back to the built-in one.
 */
import { useId, useState } from "react";
import {
  JUDGE_MODES,
  templateVersion,
  type JudgeMode,
  type PromptTemplate,
  JUDGE_TEMPLATES,
} from "../../../core/index.ts";
import { useStore } from "../../../store/index.ts";
import { MODE_LABELS, templateProblems } from "./prepareJudge.ts";
import styles from "./Judge.module.css";

export default function TemplateEditor() {
  const [mode, setMode] = useState<JudgeMode>("gar");
  const saved = useStore((s) => s.judgeTemplates[mode]);
  const setJudgeTemplate = useStore((s) => s.setJudgeTemplate);
  const current = saved ?? JUDGE_TEMPLATES[mode];
  const [draft, setDraft] = useState<PromptTemplate>(current);
  const [shownFor, setShownFor] = useState<{ mode: JudgeMode; template: PromptTemplate }>({
    mode,
    template: current,
  });
  // A new mode, or a saved/reset template, replaces the draft (state from props, React's pattern).
  if (shownFor.mode !== mode || shownFor.template !== current) {
    setShownFor({ mode, template: current });
    setDraft(current);
  }
  const id = useId();
  const problems = templateProblems(draft, JUDGE_TEMPLATES[mode]);
  const changed =
    draft.name !== current.name || draft.system !== current.system || draft.user !== current.user;

  return (
    <section className={styles.section} data-testid="judge.templates">
      <h3 className={styles.heading}>Prompts</h3>
      <div className={styles.row}>
        <label htmlFor={`${id}-mode`}>Template of</label>
        <select
          id={`${id}-mode`}
          value={mode}
          data-testid="judge.template-mode"
          onChange={(e) => setMode(e.currentTarget.value as JudgeMode)}
        >
          {JUDGE_MODES.map((m) => (
            <option key={m} value={m}>
              {MODE_LABELS[m]}
            </option>
          ))}
        </select>
        <span className={styles.muted}>
          version <code data-testid="judge.template-version">{templateVersion(draft)}</code>
          {saved === undefined ? " (built-in)" : " (edited)"}
        </span>
      </div>
      <div className={styles.grid}>
        <label htmlFor={`${id}-name`}>Name</label>
        <input
          id={`${id}-name`}
          value={draft.name}
          data-testid="judge.template-name"
          onChange={(e) => setDraft({ ...draft, name: e.currentTarget.value })}
        />
        <label htmlFor={`${id}-system`}>System</label>
        <textarea
          id={`${id}-system`}
          rows={8}
          value={draft.system}
          spellCheck={false}
          data-testid="judge.template-system"
          onChange={(e) => setDraft({ ...draft, system: e.currentTarget.value })}
        />
        <label htmlFor={`${id}-user`}>User</label>
        <textarea
          id={`${id}-user`}
          rows={6}
          value={draft.user}
          spellCheck={false}
          data-testid="judge.template-user"
          onChange={(e) => setDraft({ ...draft, user: e.currentTarget.value })}
        />
      </div>
      {problems.errors.length + problems.warnings.length > 0 ? (
        <ul className={styles.errors} data-testid="judge.template-problems">
          {problems.errors.map((p) => (
            <li key={p}>{p}</li>
          ))}
          {problems.warnings.map((p) => (
            <li key={p} className={styles.muted}>
              {p}
            </li>
          ))}
        </ul>
      ) : null}
      <div className={styles.row}>
        <button
          type="button"
          className={styles.primary}
          disabled={!changed || problems.errors.length > 0}
          data-testid="judge.template-save"
          onClick={() => setJudgeTemplate(mode, draft)}
        >
          Save template
        </button>
        <button
          type="button"
          className={styles.button}
          disabled={saved === undefined && !changed}
          data-testid="judge.template-reset"
          onClick={() => {
            setJudgeTemplate(mode, null);
            setDraft(JUDGE_TEMPLATES[mode]);
          }}
        >
          Reset to built-in
        </button>
      </div>
    </section>
  );
}
