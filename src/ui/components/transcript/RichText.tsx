/**
 * Text of a transcript: markdown (rendered by the lazily loaded MarkdownRenderer) or a code
 * block. Until the renderer has loaded, the text shows as plain text, so nothing waits on it.
 * Invisible characters (bidi controls, zero-width characters) are shown as markers everywhere.
 */
import { lazy, memo, Suspense } from "react";
import { codeFence } from "./prepareTranscript.ts";
import styles from "./Transcript.module.css";
import { VisibleText } from "./VisibleText.tsx";

const MarkdownRenderer = lazy(() => import("./MarkdownRenderer.tsx"));

/** Markdown, sanitised; plain text while the renderer loads. */
export const MarkdownText = memo(function MarkdownText({ text }: { text: string }) {
  return (
    <Suspense
      fallback={
        <div className={styles.plain}>
          <VisibleText text={text} />
        </div>
      }
    >
      <MarkdownRenderer text={text} />
    </Suspense>
  );
});

/** A code block (JSON arguments, tool results), highlighted once the highlighter has loaded. */
export const CodeText = memo(function CodeText({
  code,
  language,
}: {
  code: string;
  language: string;
}) {
  return (
    <Suspense
      fallback={
        <pre className={styles.code}>
          <code>
            <VisibleText text={code} />
          </code>
        </pre>
      }
    >
      <MarkdownRenderer text={codeFence(code, language)} />
    </Suspense>
  );
});

/** Text that is neither markdown nor code: kept exactly, wrapped, its invisible characters shown. */
export function PlainText({ text }: { text: string }) {
  return (
    <div className={styles.plain}>
      <VisibleText text={text} />
    </div>
  );
}
