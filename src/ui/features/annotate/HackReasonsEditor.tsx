/** The editable hack taxonomy: add, rename (on blur or Enter) and remove reasons. Undoable. */
import { useState } from "react";
import { useStore } from "../../../store/index.ts";
import { reasonsAdd, reasonsRemove, reasonsRename, type ReasonsEdit } from "./prepareReasons.ts";
import styles from "./Annotate.module.css";

export default function HackReasonsEditor() {
  const reasons = useStore((s) => s.annotations.hackReasons);
  const setHackReasons = useStore((s) => s.setHackReasons);
  const [added, setAdded] = useState("");
  const [error, setError] = useState("");
  const apply = (edit: ReasonsEdit): boolean => {
    setError(edit.error);
    if (edit.error === "") setHackReasons(edit.reasons);
    return edit.error === "";
  };
  return (
    <div className={styles.reasons} data-testid="annotate.reasons">
      <ul className={styles.reasonList}>
        {reasons.map((r, i) => (
          <li key={`${i}\u0000${r}`} className={styles.row}>
            <input
              defaultValue={r}
              aria-label={`Hack reason ${i + 1}`}
              data-testid="annotate.reason"
              onBlur={(e) => {
                const v = e.currentTarget.value;
                if (v !== r && !apply(reasonsRename(reasons, i, v))) e.currentTarget.value = r;
              }}
              onKeyDown={(e) => {
                if (e.key === "Enter") e.currentTarget.blur();
              }}
            />
            <button
              type="button"
              data-testid="annotate.reason-remove"
              aria-label={`Remove reason ${r}`}
              onClick={() => apply(reasonsRemove(reasons, i))}
            >
              Remove
            </button>
          </li>
        ))}
      </ul>
      <form
        className={styles.row}
        onSubmit={(e) => {
          e.preventDefault();
          if (apply(reasonsAdd(reasons, added))) setAdded("");
        }}
      >
        <input
          value={added}
          aria-label="New hack reason"
          data-testid="annotate.reason-new"
          onChange={(e) => setAdded(e.currentTarget.value)}
        />
        <button type="submit" data-testid="annotate.reason-add">
          Add reason
        </button>
      </form>
      {error === "" ? null : (
        <p className={styles.error} role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
