/**
 * The rubric's two criteria lists as editable lines, keyboard first: Enter adds a line below,
 * Backspace on an empty line removes it, Alt+Up/Down moves a line, Up/Down move between lines,
 * Ctrl+Enter saves. Each line also has move and remove buttons. The lines are the parent's state
 * (`CriteriaDraft`); this component renders them and reports edits.
 */
import { useId, useLayoutEffect, useRef, useState, type KeyboardEvent } from "react";
import {
  criteriaInsert,
  criteriaMove,
  criteriaRemove,
  criteriaSetText,
  type CriteriaDraft,
  type CriteriaList,
} from "./criteriaEdit.ts";
import styles from "./Rubrics.module.css";

const LISTS: readonly { list: CriteriaList; title: string; hint: string }[] = [
  {
    list: "solution",
    title: "Solution criteria",
    hint: "What a correct, complete result must contain or achieve.",
  },
  {
    list: "behavior",
    title: "Behavior criteria",
    hint: "How a good attempt gets there: grounded, following the policy, honest about errors.",
  },
];

interface FocusRequest {
  readonly list: CriteriaList;
  readonly key: number;
}

export function RubricEditor({
  draft,
  onChange,
  onSave,
}: {
  draft: CriteriaDraft;
  onChange: (next: CriteriaDraft) => void;
  /** Ctrl+Enter in a line; the parent decides whether saving is possible. */
  onSave: () => void;
}) {
  const root = useRef<HTMLDivElement>(null);
  const hintId = useId();
  const [focusRequest, setFocusRequest] = useState<FocusRequest | null>(null);
  // Focus is DOM state (an external system): move it once per request, after the lines render.
  useLayoutEffect(() => {
    if (focusRequest === null) return;
    root.current
      ?.querySelector<HTMLInputElement>(
        `input[data-list="${focusRequest.list}"][data-key="${focusRequest.key}"]`,
      )
      ?.focus();
  }, [focusRequest]);

  const edit = (next: CriteriaDraft, focus: FocusRequest | null): void => {
    if (next !== draft) onChange(next);
    if (focus !== null) setFocusRequest(focus);
  };

  const onKey = (list: CriteriaList, index: number, e: KeyboardEvent<HTMLInputElement>): void => {
    const lines = draft[list];
    const line = lines[index]!;
    const plain = !e.altKey && !e.ctrlKey && !e.metaKey && !e.shiftKey;
    if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) {
      e.preventDefault();
      onSave();
    } else if (e.key === "Enter" && plain) {
      e.preventDefault();
      edit(criteriaInsert(draft, list, index + 1), { list, key: draft.nextKey });
    } else if (e.key === "Backspace" && plain && line.text === "" && lines.length > 1) {
      e.preventDefault();
      const neighbour = lines[index === 0 ? 1 : index - 1]!;
      edit(criteriaRemove(draft, list, index), { list, key: neighbour.key });
    } else if ((e.key === "ArrowUp" || e.key === "ArrowDown") && e.altKey) {
      e.preventDefault();
      edit(criteriaMove(draft, list, index, e.key === "ArrowUp" ? -1 : 1), { list, key: line.key });
    } else if ((e.key === "ArrowUp" || e.key === "ArrowDown") && plain) {
      const to = lines[index + (e.key === "ArrowUp" ? -1 : 1)];
      if (to !== undefined) {
        e.preventDefault();
        setFocusRequest({ list, key: to.key });
      }
    }
  };

  return (
    <div ref={root} className={styles.lists} data-testid="rubric.editor">
      {LISTS.map(({ list, title, hint }) => {
        const lines = draft[list];
        return (
          <section key={list} className={styles.section} aria-label={title}>
            <h4 className={styles.title}>{title}</h4>
            <p className={styles.muted}>{hint}</p>
            <ol className={styles.list} data-testid={`rubric.list.${list}`}>
              {lines.map((line, i) => (
                <li key={line.key} className={styles.line}>
                  <span className={styles.lineNumber} aria-hidden="true">
                    {i + 1}
                  </span>
                  <input
                    type="text"
                    className={styles.criterion}
                    value={line.text}
                    placeholder={i === 0 ? "One criterion per line" : ""}
                    aria-label={`${title}, line ${i + 1} of ${lines.length}`}
                    aria-describedby={hintId}
                    data-testid="rubric.criterion"
                    data-list={list}
                    data-key={line.key}
                    onChange={(e) =>
                      edit(criteriaSetText(draft, list, i, e.currentTarget.value), null)
                    }
                    onKeyDown={(e) => onKey(list, i, e)}
                  />
                  <button
                    type="button"
                    className={styles.small}
                    aria-label={`Move ${title.toLowerCase()} line ${i + 1} up`}
                    disabled={i === 0}
                    data-testid="rubric.criterion.up"
                    onClick={() => edit(criteriaMove(draft, list, i, -1), { list, key: line.key })}
                  >
                    ↑
                  </button>
                  <button
                    type="button"
                    className={styles.small}
                    aria-label={`Move ${title.toLowerCase()} line ${i + 1} down`}
                    disabled={i === lines.length - 1}
                    data-testid="rubric.criterion.down"
                    onClick={() => edit(criteriaMove(draft, list, i, 1), { list, key: line.key })}
                  >
                    ↓
                  </button>
                  <button
                    type="button"
                    className={styles.small}
                    aria-label={`Remove ${title.toLowerCase()} line ${i + 1}`}
                    data-testid="rubric.criterion.remove"
                    onClick={() => {
                      const neighbour = lines[i === 0 ? 1 : i - 1] ?? line;
                      edit(criteriaRemove(draft, list, i), { list, key: neighbour.key });
                    }}
                  >
                    ✕
                  </button>
                </li>
              ))}
            </ol>
            <div>
              <button
                type="button"
                className={styles.button}
                data-testid={`rubric.add.${list}`}
                onClick={() =>
                  edit(criteriaInsert(draft, list, lines.length), { list, key: draft.nextKey })
                }
              >
                Add criterion
              </button>
            </div>
          </section>
        );
      })}
      <p id={hintId} className={`${styles.muted} ${styles.span}`}>
        Keys in a line: Enter adds a line below, Backspace on an empty line removes it, Alt+↑/↓
        moves it, ↑/↓ go to the line above or below, Ctrl+Enter saves.
      </p>
    </div>
  );
}
