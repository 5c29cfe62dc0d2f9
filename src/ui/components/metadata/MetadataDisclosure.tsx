/**
 * A folded metadata section in two parts, so each sits where the layout has room: the toggle (a
 * title with the field count and the first fields on one line, e.g. in a column's title row or
 * the group bar) and the panel it opens (the key/value tree, rendered only while open).
 * Presentational: the open state belongs to the caller. No store.
 */
import { useMemo } from "react";
import MetadataTree from "./MetadataTree.tsx";
import { metadataLeafCount, metadataSummary } from "./prepareMetadataTree.ts";
import styles from "./Metadata.module.css";

export function MetadataToggle({
  title,
  value,
  open,
  onToggle,
  testId,
  panelId,
  className,
}: {
  title: string;
  value: Readonly<Record<string, unknown>>;
  open: boolean;
  onToggle: () => void;
  /** The button is `<testId>.toggle`, its summary `<testId>.summary`. */
  testId: string;
  /** The panel's element id (aria-controls). */
  panelId: string;
  className?: string;
}) {
  const count = useMemo(() => metadataLeafCount(value), [value]);
  const summary = useMemo(() => metadataSummary(value), [value]);
  return (
    <button
      type="button"
      className={className === undefined ? styles.toggle : `${styles.toggle} ${className}`}
      aria-expanded={open}
      aria-controls={open ? panelId : undefined}
      data-testid={`${testId}.toggle`}
      data-fields={count}
      title={summary === "" ? `${title}: no fields` : `${title}: ${summary}`}
      onClick={onToggle}
    >
      <span aria-hidden="true">{open ? "▾" : "▸"}</span>
      <span className={styles.title}>
        {title} ({count})
      </span>
      <span className={styles.summary} data-testid={`${testId}.summary`}>
        {summary === "" ? "none" : summary}
      </span>
    </button>
  );
}

export function MetadataPanel({
  value,
  testId,
  panelId,
  label,
  note,
  className,
}: {
  value: Readonly<Record<string, unknown>>;
  testId: string;
  panelId: string;
  /** The tree's accessible name. */
  label: string;
  /** A line above the tree (where the other fields are). */
  note?: string;
  className?: string;
}) {
  return (
    <section
      id={panelId}
      className={className === undefined ? styles.panel : `${styles.panel} ${className}`}
      data-testid={testId}
      aria-label={label}
    >
      {note === undefined ? null : <p className={styles.size}>{note}</p>}
      <MetadataTree value={value} label={label} />
    </section>
  );
}
