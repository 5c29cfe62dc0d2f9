/**
 * One rollout's transcript: role-styled turns, tool calls with pretty-printed arguments, tool
 * results folded to a one-line preview, long text folded behind "show more". It depends on the
 * rollout only, never on the settings, so a setting change re-renders the column headers alone
 * (performance.md T5): every piece here is memoised on its prepared item.
 */
import { memo, useMemo, useState, type ReactNode } from "react";
import type { Rollout, ToolErrorKind } from "../../../core/index.ts";
import {
  MESSAGE_PAGE,
  preparePrompt,
  prepareTranscript,
  type Fold,
  type ToolCallView,
  type TranscriptItem,
} from "./prepareTranscript.ts";
import { HugeTextFold } from "./HugeText.tsx";
import { CodeText, MarkdownText, PlainText } from "./RichText.tsx";
import styles from "./Transcript.module.css";
import { VisibleText } from "./VisibleText.tsx";

const ROLE_CLASS: Record<string, string | undefined> = {
  system: styles.roleSystem,
  user: styles.roleUser,
  assistant: styles.roleAssistant,
  tool: styles.roleTool,
  other: styles.roleOther,
};

/** Renders `full`, or the fold's head and a "show more" toggle when the text folds. */
function Foldable({
  fold,
  full,
  render,
}: {
  fold: Fold | null;
  full: string;
  render: (text: string) => ReactNode;
}) {
  const [open, setOpen] = useState(false);
  if (fold === null) return render(full);
  if (fold.huge === true) return <HugeTextFold text={full} head={render(fold.head)} />;
  const hidden =
    fold.hiddenLines > 0
      ? `${fold.hiddenLines} more line${fold.hiddenLines === 1 ? "" : "s"}`
      : `${fold.hiddenChars} more characters`;
  return (
    <>
      {render(open ? full : fold.head)}
      <button
        type="button"
        className={styles.foldToggle}
        aria-expanded={open}
        data-testid="fold-toggle"
        onClick={() => setOpen((o) => !o)}
      >
        {open ? "Show less" : `Show more (${hidden})`}
      </button>
    </>
  );
}

const markdown = (text: string) => <MarkdownText text={text} />;
const json = (text: string) => <CodeText code={text} language="json" />;
const diff = (text: string) => <CodeText code={text} language="diff" />;
const plain = (text: string) => <PlainText text={text} />;

function ToolCall({ call }: { call: ToolCallView }) {
  return (
    <div className={styles.toolCall} data-testid="transcript.tool-call">
      <div className={styles.toolCallHead}>
        <span className={styles.toolIcon} aria-hidden="true">
          ƒ
        </span>
        <code className={styles.toolName}>
          <VisibleText text={call.name} />
        </code>
        {call.argsValid ? null : (
          <span className={styles.warn} title="The arguments are not valid JSON; shown as given">
            invalid JSON
          </span>
        )}
      </div>
      {call.args.trim() === "" ? null : (
        <Foldable fold={call.fold} full={call.args} render={call.argsValid ? json : plain} />
      )}
    </div>
  );
}

const Turn = memo(function Turn({ item }: { item: Extract<TranscriptItem, { kind: "turn" }> }) {
  return (
    <div
      className={`${styles.turn} ${ROLE_CLASS[item.role] ?? ""}`}
      data-testid="transcript.turn"
      data-role={item.role}
    >
      <div className={styles.roleLabel}>
        <VisibleText text={item.label} />
      </div>
      {item.text.trim() === "" ? null : (
        <Foldable
          fold={item.fold}
          full={item.text}
          render={item.code === "diff" ? diff : markdown}
        />
      )}
      {item.calls.map((c) => (
        <ToolCall key={c.key} call={c} />
      ))}
    </div>
  );
});

const ToolResult = memo(function ToolResult({
  item,
}: {
  item: Extract<TranscriptItem, { kind: "result" }>;
}) {
  const [open, setOpen] = useState(false);
  return (
    <div
      className={`${styles.turn} ${styles.roleTool} ${item.error !== null ? styles.resultError : ""}`}
      data-testid="transcript.tool-result"
      data-tool-error={item.error !== null}
      title={item.error === null ? undefined : ERROR_TITLE[item.error]}
    >
      <button
        type="button"
        className={styles.resultToggle}
        aria-expanded={open}
        data-testid="tool-result-toggle"
        onClick={() => setOpen((o) => !o)}
      >
        {/* The caret sits in the label, so a narrow column wraps the preview, never the caret. */}
        <span className={styles.roleLabel}>
          <span className={styles.caret} aria-hidden="true">
            {open ? "▾" : "▸"}
          </span>{" "}
          {item.error !== null ? "tool error" : "tool result"}
          {item.name === null ? null : (
            <code className={styles.toolTag}>
              <VisibleText text={item.name} />
            </code>
          )}
        </span>
        {open ? null : (
          <span className={styles.preview} data-testid="tool-result-preview">
            <VisibleText text={item.preview} />
          </span>
        )}
      </button>
      {open ? (
        <Foldable fold={item.fold} full={item.body} render={item.json ? json : plain} />
      ) : null}
    </div>
  );
});

/** Why a result is marked as an error (core `toolResultError`'s rules), as its tooltip. */
const ERROR_TITLE: Readonly<Record<ToolErrorKind, string>> = {
  marked: "Tool error: the source marks this result as an error",
  "error-key": "Tool error: the result has an error field",
  status: "Tool error: the result's status says it failed",
  "http-status": "Tool error: an HTTP status of 400 or more",
  "exit-code": "Tool error: a non-zero exit status",
  flag: "Tool error: the result says it did not succeed",
  "error-text": "Tool error: the result starts with Error: or a traceback",
};

function Item({ item }: { item: TranscriptItem }) {
  return item.kind === "turn" ? <Turn item={item} /> : <ToolResult item={item} />;
}

function lastErrorIndex(items: readonly TranscriptItem[]): number {
  for (let i = items.length - 1; i >= 0; i--) {
    const it = items[i]!;
    if (it.kind === "result" && it.error !== null) return i;
  }
  return -1;
}

/**
 * One message of the rollout's own transcript, under the test contract's id (issue 13):
 * `transcript-message` with its role (a tool result's is "tool"). The prompt's turns are not
 * tagged: they sit folded in `transcript.prompt`.
 */
function Message({ item }: { item: TranscriptItem }) {
  return (
    <div
      className={styles.message}
      data-testid="transcript-message"
      data-role={item.kind === "turn" ? item.role : "tool"}
    >
      <Item item={item} />
    </div>
  );
}

/** A prompt's turns, collapsed behind a summary line. */
export const PromptView = memo(function PromptView({ prompt }: { prompt: Rollout["prompt"] }) {
  const items = useMemo(() => preparePrompt(prompt), [prompt]);
  if (items.length === 0) return null;
  return (
    <details className={styles.prompt} data-testid="transcript.prompt">
      <summary>
        Prompt · {items.length} message{items.length === 1 ? "" : "s"}
      </summary>
      {items.map((it) => (
        <Item key={it.key} item={it} />
      ))}
    </details>
  );
});

/**
 * The transcript of one rollout. Long transcripts render MESSAGE_PAGE messages at a time, and long
 * texts render their folded head only, so a column costs little however long its rollout is.
 * (Not `content-visibility: auto`: skipped turns drop out of innerText, which scripts read.)
 */
export const Transcript = memo(function Transcript({
  rollout,
  showPrompt,
}: {
  rollout: Rollout;
  showPrompt: boolean;
}) {
  const view = useMemo(() => prepareTranscript(rollout), [rollout]);
  // Every tool error is rendered from the start, so `e` (jump to the next one) reaches it.
  const [shown, setShown] = useState(() => Math.max(MESSAGE_PAGE, lastErrorIndex(view.items) + 1));
  const rest = view.items.length - shown;
  return (
    <div className={styles.transcript}>
      {showPrompt ? <PromptView prompt={rollout.prompt} /> : null}
      {view.items.slice(0, shown).map((it) => (
        <Message key={it.key} item={it} />
      ))}
      {view.items.length === 0 ? <p className={styles.muted}>No messages.</p> : null}
      {rest > 0 ? (
        <button
          type="button"
          className={styles.foldToggle}
          data-testid="transcript.more"
          onClick={() => setShown((s) => s + MESSAGE_PAGE)}
        >
          Show {Math.min(rest, MESSAGE_PAGE)} more of {rest} messages
        </button>
      ) : null}
    </div>
  );
});
