/**
 * Text of a transcript: markdown (rendered by the lazily loaded MarkdownRenderer) or a code
 * block. It shows as plain text until the renderer has loaded, and in the render that mounts it
 * (the markdown follows in a transition, useDeferredMount), so nothing waits on it and a wide group
 * does not parse all its markdown in one task. Invisible characters (bidi controls, zero-width characters) are
 * shown as markers everywhere.
 */
import { lazy, memo, Suspense } from "react";
import { codeFence } from "./prepareTranscript.ts";
import styles from "./Transcript.module.css";
import { useDeferredMount } from "./useDeferredMount.ts";
import { VisibleText } from "./VisibleText.tsx";

const MarkdownRenderer = lazy(() => import("./MarkdownRenderer.tsx"));

/** Markdown, sanitised; plain text while the renderer loads. */
export const MarkdownText = memo(function MarkdownText({ text }: { text: string }) {
  const plain = (
    <div className={styles.plain}>
      <VisibleText text={text} />
    </div>
  );
  if (!useDeferredMount()) return plain;
  return (
    <Suspense fallback={plain}>
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
  const plain = (
    <pre className={styles.code}>
      <code>
        <VisibleText text={code} />
      </code>
    </pre>
  );
  if (!useDeferredMount()) return plain;
  return (
    <Suspense fallback={plain}>
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
