/**
 * Text with its invisible characters shown (see invisibles.ts): a bidi override or a zero-width
 * character becomes a marker such as ⟨U+202E⟩, named in its tooltip, and no longer acts on the
 * text around it. Used for every piece of transcript text the components render as text; the
 * markdown renderer does the same in a rehype plugin.
 */
import { memo, useMemo } from "react";
import { invisibleLabel, invisibleSegments, type InvisibleMark } from "./invisibles.ts";
import styles from "./Transcript.module.css";

/** One invisible character, shown. */
export function InvisibleMarker({ mark }: { mark: InvisibleMark }) {
  return (
    <span
      className={styles.invisible}
      title={`${mark.code} ${mark.name}`}
      data-testid="transcript.invisible"
      data-code={mark.code}
    >
      {invisibleLabel(mark)}
    </span>
  );
}

export const VisibleText = memo(function VisibleText({ text }: { text: string }) {
  const segments = useMemo(() => invisibleSegments(text), [text]);
  return segments.map((s, i) =>
    s.kind === "text" ? s.text : <InvisibleMarker key={i} mark={s} />,
  );
});
