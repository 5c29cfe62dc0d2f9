/**
 * "Draft with judge": asks the configured judge (the store's connection and key) for a rubric from
 * this task's first group, with progress, Cancel and the error if any. A good draft is handed to the
 * parent, which saves it as a version by "judge" for the user to edit. The judge's reason and any
 * error are untrusted text: rendered as text.
 */
import { useEffect, useRef, useState } from "react";
import type { RolloutGroup, RubricDraft } from "../../../core/index.ts";
import { useStore } from "../../../store/index.ts";
import { draftRubric } from "./actions/draftRubric.ts";
import styles from "./Rubrics.module.css";

type DraftStatus =
  | { readonly kind: "idle" }
  | { readonly kind: "running"; readonly done: number; readonly total: number }
  | {
      readonly kind: "done";
      readonly version: number | null;
      readonly reason: string | null;
      readonly tokens: number;
      readonly prompt: string;
    }
  | { readonly kind: "error"; readonly message: string; readonly cancelled: boolean };

export function DraftWithJudge({
  group,
  rewards,
  passThreshold,
  blockedBy,
  onDrafted,
}: {
  group: RolloutGroup;
  rewards: readonly number[];
  passThreshold: number;
  /** Why drafting is not possible now (unsaved edits), or null. */
  blockedBy: string | null;
  /** Save the draft; returns the version it became (null when equal to the current one). */
  onDrafted: (draft: RubricDraft) => number | null;
}) {
  const connection = useStore((s) => s.judgeConnection);
  const [status, setStatus] = useState<DraftStatus>({ kind: "idle" });
  const controller = useRef<AbortController | null>(null);
  // A request in flight is an external process: cancel it when the view goes away.
  useEffect(
    () => () => {
      const pending = controller.current;
      controller.current = null;
      pending?.abort();
    },
    [],
  );

  const start = async (): Promise<void> => {
    const abort = new AbortController();
    controller.current = abort;
    setStatus({ kind: "running", done: 0, total: 1 });
    const result = await draftRubric(
      (tasks, options) => useStore.getState().judgeRequest(tasks, options),
      group,
      rewards,
      passThreshold,
      {
        signal: abort.signal,
        onProgress: (p) => setStatus({ kind: "running", done: p.done, total: p.total }),
      },
    );
    // Unmounted (or superseded) meanwhile: nothing to show, nothing to save.
    if (controller.current !== abort) return;
    controller.current = null;
    if (abort.signal.aborted) {
      // Cancelled, even if the reply came back just before: the user asked for no draft.
      setStatus({ kind: "error", message: "the draft was cancelled", cancelled: true });
      return;
    }
    if (!result.ok) {
      setStatus({ kind: "error", message: result.error, cancelled: result.cancelled });
      return;
    }
    const version = onDrafted(result.draft);
    setStatus({
      kind: "done",
      version,
      reason: result.draft.reason,
      tokens: result.accounting.promptTokens + result.accounting.completionTokens,
      prompt: result.templateVersion,
    });
  };

  const running = status.kind === "running";
  return (
    <div className={styles.section} data-testid="rubric.draft" data-status={status.kind}>
      <div className={styles.toolbar}>
        <button
          type="button"
          className={styles.button}
          disabled={running || blockedBy !== null}
          title={blockedBy ?? `Ask ${connection.model} at ${connection.baseURL}`}
          data-testid="rubric.draft.start"
          onClick={() => {
            start().catch((e: unknown) =>
              setStatus({
                kind: "error",
                message: e instanceof Error ? e.message : String(e),
                cancelled: false,
              }),
            );
          }}
        >
          Draft with judge
        </button>
        {running ? (
          <>
            <span className={styles.muted} role="status" data-testid="rubric.draft.progress">
              Asking the judge… {status.done} of {status.total}
            </span>
            <button
              type="button"
              className={styles.button}
              data-testid="rubric.draft.cancel"
              onClick={() => controller.current?.abort()}
            >
              Cancel
            </button>
          </>
        ) : (
          <span className={styles.muted}>
            judge: {connection.model} at {connection.baseURL} (set in the judge settings)
          </span>
        )}
      </div>
      {blockedBy !== null && !running ? <p className={styles.muted}>{blockedBy}</p> : null}
      {status.kind === "error" ? (
        <p className={styles.error} role="alert" data-testid="rubric.draft.error">
          {status.cancelled
            ? "The draft was cancelled."
            : `The judge's draft failed: ${status.message}`}
        </p>
      ) : null}
      {status.kind === "done" ? (
        <div role="status" data-testid="rubric.draft.done">
          <p className={styles.muted}>
            {status.version === null
              ? "The judge's draft equals the current version: nothing new was saved."
              : `The judge's draft is saved as v${status.version} (author: judge). Edit it and save.`}{" "}
            Prompt {status.prompt}
            {status.tokens > 0 ? `, ${status.tokens} tokens.` : "."}
          </p>
          {status.reason === null ? null : (
            <p className={styles.reason} data-testid="rubric.draft.reason">
              Judge: {status.reason}
            </p>
          )}
        </div>
      ) : null}
    </div>
  );
}
