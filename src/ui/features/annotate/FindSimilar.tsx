/**
 * "Find similar" for a marked hack: the rollouts of other groups with close similarity under the
 * settings (text, tool calls or both; computed in the compute worker through the store), each with
 * a link that opens its group. The list says what it compared, since the setting may change later.
 */
import { useState } from "react";
import type { SimilarityOn } from "../../../core/index.ts";
import { useStore } from "../../../store/index.ts";
import { prepareSimilar, type SimilarView } from "./prepareSimilar.ts";
import styles from "./Annotate.module.css";

const SIMILARITY_ON_LABEL: Readonly<Record<SimilarityOn, string>> = {
  both: "text and tool calls",
  text: "text",
  tools: "tool calls",
};

type State =
  | { readonly status: "idle" }
  | { readonly status: "pending" }
  | { readonly status: "done"; readonly view: SimilarView; readonly on: SimilarityOn }
  | { readonly status: "error"; readonly message: string };

export default function FindSimilar({
  groupId,
  rolloutId,
}: {
  groupId: string;
  rolloutId: string;
}) {
  const findSimilar = useStore((s) => s.findSimilar);
  const threshold = useStore((s) => s.settings.similarity);
  const on = useStore((s) => s.settings.similarityOn);
  const selectGroup = useStore((s) => s.selectGroup);
  const [state, setState] = useState<State>({ status: "idle" });
  const run = () => {
    setState({ status: "pending" });
    findSimilar(groupId, rolloutId).then(
      (candidates) => setState({ status: "done", view: prepareSimilar(candidates, threshold), on }),
      (e: unknown) =>
        setState({ status: "error", message: e instanceof Error ? e.message : String(e) }),
    );
  };
  return (
    <div className={styles.similar}>
      <button
        type="button"
        data-testid="annotate.find-similar"
        disabled={state.status === "pending"}
        onClick={run}
      >
        {state.status === "pending" ? "Finding similar…" : "Find similar in other groups"}
      </button>
      {state.status === "error" ? (
        <p className={styles.error} role="alert">
          {state.message}
        </p>
      ) : null}
      {state.status === "done" ? (
        <div
          data-testid="annotate.similar"
          data-count={state.view.items.length}
          data-similarity-on={state.on}
        >
          <p className={styles.muted}>
            Compared: {SIMILARITY_ON_LABEL[state.on]}. {state.view.summary}
          </p>
          <ol className={styles.similarList}>
            {state.view.items.map((m) => (
              <li
                key={`${m.groupId}\u0000${m.rolloutId}`}
                data-testid="annotate.similar.item"
                data-group-id={m.groupId}
                data-similar-rollout={m.rolloutId}
              >
                <button
                  type="button"
                  className={styles.link}
                  data-testid="annotate.similar.open"
                  title={`Open group ${m.groupId}`}
                  onClick={() => selectGroup(m.groupId)}
                >
                  {m.groupId}
                </button>{" "}
                <span>{m.rolloutId}</span> <b>{m.shown}</b>
              </li>
            ))}
          </ol>
        </div>
      ) : null}
    </div>
  );
}
