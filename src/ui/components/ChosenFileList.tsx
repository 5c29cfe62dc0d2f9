import type { ReactNode } from "react";

import styles from "./ChosenFileList.module.css";

export interface ChosenFileRow {
  /** Stable React key; file names alone can repeat. */
  key: string;
  name: string;
  /** Already formatted for display, e.g. "12.3 kB". */
  sizeLabel: string;
}

export interface ChosenFileListProps {
  rows: readonly ChosenFileRow[];
  /** Shown under the list: what the studio will do, or cannot yet do, with these files. */
  note: ReactNode;
}

/** Lists the files the drop zone received. Renders prepared rows; decides nothing. */
export default function ChosenFileList({ rows, note }: ChosenFileListProps) {
  return (
    <section className={styles.root} aria-label="Chosen files" data-testid="drop-zone.files">
      <ul className={styles.list}>
        {rows.map((row) => (
          <li className={styles.item} key={row.key} data-testid="drop-zone.files.item">
            <span className={styles.name} title={row.name} data-testid="drop-zone.files.name">
              {row.name}
            </span>
            <span className={styles.size} data-testid="drop-zone.files.size">
              {row.sizeLabel}
            </span>
          </li>
        ))}
      </ul>
      <p className={styles.note}>{note}</p>
    </section>
  );
}
