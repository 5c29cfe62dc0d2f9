/**
 * A folded metadata section: one line (a title, the field count and the first fields) that opens
 * the key/value tree below it. Folded by default, so a column's transcript stays where it was;
 * the tree is rendered only while open. Presentational: no store.
 */
import { useId, useMemo, useState } from "react";
import MetadataTree from "./MetadataTree.tsx";
import { metadataLeafCount, metadataSummary } from "./prepareMetadataTree.ts";
import styles from "./Metadata.module.css";

export default function MetadataDisclosure({
  title,
  value,
  testId,
  label,
  note,
  className,
}: {
  title: string;
  value: Readonly<Record<string, unknown>>;
  /** The section's test id; the button is `<testId>.toggle`, the line `<testId>.summary`. */
  testId: string;
  /** The tree's accessible name. */
  label: string;
  /** A line above the tree when open (where the other fields are). */
  note?: string;
  className?: string;
}) {
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const count = useMemo(() => metadataLeafCount(value), [value]);
  const summary = useMemo(() => metadataSummary(value), [value]);
  return (
    <section
      className={className === undefined ? styles.disclosure : `${styles.disclosure} ${className}`}
      data-testid={testId}
      data-fields={count}
      aria-label={label}
    >
      <button
        type="button"
        className={styles.toggle}
        aria-expanded={open}
        aria-controls={open ? panelId : undefined}
        data-testid={`${testId}.toggle`}
        title={summary === "" ? undefined : summary}
        onClick={() => setOpen((o) => !o)}
      >
        <span aria-hidden="true">{open ? "▾" : "▸"}</span>
        <span className={styles.title}>
          {title} ({count})
        </span>
        <span className={styles.summary} data-testid={`${testId}.summary`}>
          {summary === "" ? "none" : summary}
        </span>
      </button>
      {open ? (
        <div id={panelId} className={styles.panel}>
          {note === undefined ? null : <p className={styles.size}>{note}</p>}
          <MetadataTree value={value} label={label} />
        </div>
      ) : null}
    </section>
  );
}
