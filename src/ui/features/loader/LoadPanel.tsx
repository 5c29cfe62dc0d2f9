/**
 * Loading feedback: progress with bytes and a Cancel button while a file is read and parsed, and
 * the reason when it could not be loaded, with the formats to read it as when detection was unsure.
 */
import { useShallow } from "zustand/react/shallow";
import { FORMAT_CATALOG } from "../../../store/formats.ts";
import { useStore } from "../../../store/index.ts";
import { formatBytes } from "../../components/formatBytes.ts";
import styles from "./Loader.module.css";

/** The format that reads any table through a field mapping (io/formats/mapped.ts). */
const MAPPED_FORMAT = "mapped";

export interface LoadPanelProps {
  /**
   * Opens the field-mapping dialog for the failed file. When given, the error offers "Map fields…"
   * in place of reading the file as the mapped format, which cannot load without a mapping.
   */
  readonly onMapFields?: () => void;
}

export default function LoadPanel({ onMapFields }: LoadPanelProps = {}) {
  const load = useStore((s) => s.load);
  const { readAs, cancelLoad } = useStore(
    useShallow((s) => ({ readAs: s.readAs, cancelLoad: s.cancelLoad })),
  );

  if (load.status === "loading") {
    const percent = load.totalBytes === 0 ? 100 : Math.round((100 * load.bytes) / load.totalBytes);
    return (
      <section className={styles.panel} aria-live="polite" data-testid="load.progress">
        <p className={styles.title}>
          {load.phase === "reading"
            ? "Reading"
            : load.phase === "indexing"
              ? "Indexing"
              : "Parsing"}{" "}
          <strong>{load.file.name}</strong>
        </p>
        <progress
          className={styles.progress}
          max={100}
          value={load.phase === "parsing" ? undefined : percent}
          aria-label="Loading progress"
        />
        <p className={styles.muted} data-testid="load.progress.text">
          {formatBytes(load.bytes)} of {formatBytes(load.totalBytes)}
          {load.phase === "parsing" ? " read; parsing records" : ` (${percent}%)`}
          {load.rows !== null ? `; ${load.rows.toLocaleString("en-US")} rows` : ""}
          {load.groups !== null ? `, ${load.groups.toLocaleString("en-US")} groups` : ""}
        </p>
        <button
          type="button"
          className={styles.button}
          onClick={cancelLoad}
          data-testid="load.cancel"
        >
          Cancel
        </button>
      </section>
    );
  }
  if (load.status !== "error") return null;
  // A field mapping reads one local file: not a run, nor a file on the view server.
  const mappable =
    onMapFields !== undefined && load.runFiles === undefined && load.remote === undefined;
  const choices = (
    load.candidates.length > 0
      ? load.candidates.map((c) => ({ id: c.id, label: c.label }))
      : FORMAT_CATALOG.map((f) => ({ id: f.id, label: f.label }))
  ).filter((c) => !mappable || c.id !== MAPPED_FORMAT);
  return (
    <section className={styles.panel} data-testid="load.error">
      <p className={styles.error} role="alert">
        {load.message}
      </p>
      <p className={styles.muted}>
        {load.candidates.length > 0
          ? "This file fits several formats. Read it as:"
          : "Read it as a specific format instead:"}
      </p>
      <div className={styles.choices}>
        {mappable ? (
          <button
            type="button"
            className={styles.button}
            onClick={onMapFields}
            aria-haspopup="dialog"
            data-testid="load.map-fields"
          >
            Map fields…
          </button>
        ) : null}
        {choices.map((c) => (
          <button
            key={c.id}
            type="button"
            className={styles.button}
            onClick={() => readAs(c.id)}
            data-testid="load.read-as"
          >
            {c.label}
          </button>
        ))}
      </div>
    </section>
  );
}
