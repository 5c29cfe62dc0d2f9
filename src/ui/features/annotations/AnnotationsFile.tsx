/**
 * Import and export of the annotations file (version 1, the format `rollout-studio analyze
 * --annotations` reads). An import replaces the current annotations; ids that name nothing in the
 * loaded data are reported, never dropped silently. What the bar says comes from
 * annotationsFileModel.
 */
import { lazy, Suspense, useId, useMemo, useState, type ReactNode } from "react";
import { ANNOTATIONS_EMPTY, type Annotations } from "../../../core/index.ts";
import { readAnnotationsFile } from "../../../store/annotationsFile.ts";
import { annotationsSync, useStore } from "../../../store/index.ts";
import { useDataset, useLoadedGroups } from "../../../store/hooks.ts";
import styles from "./Annotations.module.css";
import { StatusMessage, type Message } from "../../components/StatusMessage.tsx";
import {
  annotationsFileName,
  clearFailedMessage,
  CLEARED_MESSAGE,
  exportTitle,
  importMessage,
  readFailedMessage,
} from "./annotationsFileModel.ts";
import SaveStatus from "./SaveStatus.tsx";

export { annotationsFileName } from "./annotationsFileModel.ts";

// The agreement report loads with the file to merge, not with the first page.
const MergeReport = lazy(() => import("./MergeReport.tsx"));

function download(name: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: "application/json" }));
  const a = document.createElement("a");
  a.href = url;
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/** A picked annotations file, validated; its problems as the message to show when it is not valid. */
async function parseAnnotationsFile(
  file: File,
): Promise<{ ok: true; value: Annotations } | { ok: false; message: Message }> {
  // The validator brings zod: the store loads it when a file is picked, not with the first page.
  const read = await readAnnotationsFile(file.name, await file.text());
  return read.ok ? read : { ok: false, message: { text: read.message, error: true } };
}

/** A hidden file input and the label that opens it, styled as a button. */
function FilePick({
  testId,
  title,
  onFile,
  onError,
  children,
}: {
  testId: string;
  title: string;
  onFile: (file: File) => Promise<void>;
  /** The file could not be read at all. */
  onError: (file: File, error: unknown) => void;
  children: ReactNode;
}) {
  const id = useId();
  return (
    <>
      <input
        id={id}
        className={styles.input}
        type="file"
        accept=".json,application/json"
        data-testid={testId}
        onChange={(e) => {
          const file = e.currentTarget.files?.[0];
          e.currentTarget.value = "";
          if (file !== undefined) onFile(file).catch((err: unknown) => onError(file, err));
        }}
      />
      <label htmlFor={id} className={styles.button} title={title}>
        {children}
      </label>
    </>
  );
}

/** Clear…, then a confirmation that deletes the annotations here and in this browser's storage. */
function ClearAnnotations({
  count,
  onMessage,
}: {
  count: number;
  onMessage: (message: Message) => void;
}) {
  const setAnnotations = useStore((s) => s.setAnnotations);
  const [confirming, setConfirming] = useState(false);
  return (
    <>
      {count > 0 && !confirming ? (
        <button
          type="button"
          className={styles.button}
          data-testid="annotations-clear"
          onClick={() => setConfirming(true)}
        >
          Clear…
        </button>
      ) : null}
      {confirming ? (
        <span role="group" aria-label="Confirm clearing" className={styles.confirm}>
          Delete the annotations of {count} group(s) of this dataset, here and in this
          browser&apos;s storage?{" "}
          <button
            type="button"
            className={styles.danger}
            data-testid="annotations-clear-confirm"
            onClick={() => {
              setConfirming(false);
              if (annotationsSync === null) setAnnotations(ANNOTATIONS_EMPTY);
              else
                annotationsSync.clear().then(
                  () => onMessage(CLEARED_MESSAGE),
                  (e: unknown) => onMessage(clearFailedMessage(e)),
                );
            }}
          >
            Delete
          </button>{" "}
          <button type="button" className={styles.button} onClick={() => setConfirming(false)}>
            Cancel
          </button>
        </span>
      ) : null}
    </>
  );
}

export default function AnnotationsFile() {
  const dataset = useDataset();
  const groups = useLoadedGroups();
  // The count only: the file is read from the store when exported, so a ranking keystroke
  // does not re-render this bar.
  const count = useStore((s) => Object.keys(s.annotations.groups).length);
  const setAnnotations = useStore((s) => s.setAnnotations);
  const [message, setMessage] = useState<Message | null>(null);
  const [merging, setMerging] = useState<{ fileName: string; other: Annotations } | null>(null);
  const parsedGroups = useMemo(() => (groups === null ? [] : [...groups.values()]), [groups]);
  if (dataset === null || groups === null) return null;

  const importFile = async (file: File): Promise<void> => {
    const parsed = await parseAnnotationsFile(file);
    if (!parsed.ok) {
      setMessage(parsed.message);
      return;
    }
    setAnnotations(parsed.value);
    // An indexed file's unparsed groups cannot be checked rollout by rollout yet: only their ids.
    const known = new Set(dataset.summaries.map((g) => g.id));
    setMessage(importMessage(file.name, parsed.value, parsedGroups, known));
  };
  const mergeFile = async (file: File): Promise<void> => {
    const parsed = await parseAnnotationsFile(file);
    if (!parsed.ok) {
      setMerging(null);
      setMessage(parsed.message);
      return;
    }
    setMessage(null);
    setMerging({ fileName: file.name, other: parsed.value });
  };
  const readFailed = (file: File, error: unknown): void =>
    setMessage(readFailedMessage(file.name, error));

  return (
    <div
      className={styles.bar}
      role="group"
      aria-label="Annotations"
      data-testid="annotations.file"
    >
      <span className={styles.status}>Annotations</span>
      <FilePick
        testId="annotations-import"
        title="Import an annotations file (version 1, what the CLI reads with --annotations)"
        onFile={importFile}
        onError={readFailed}
      >
        Import
      </FilePick>
      <button
        type="button"
        className={styles.button}
        data-testid="annotations-export"
        disabled={count === 0}
        title={exportTitle(count)}
        onClick={() =>
          download(
            annotationsFileName(dataset.file),
            `${JSON.stringify(useStore.getState().annotations, null, 2)}\n`,
          )
        }
      >
        Export ({count})
      </button>
      <FilePick
        testId="annotations-merge"
        title="Compare another annotator's file with these annotations (agreement), then merge it"
        onFile={mergeFile}
        onError={readFailed}
      >
        Merge…
      </FilePick>
      <ClearAnnotations count={count} onMessage={setMessage} />
      <SaveStatus />
      {merging !== null ? (
        <Suspense fallback={<span className={styles.status}>Comparing…</span>}>
          <MergeReport
            fileName={merging.fileName}
            other={merging.other}
            groups={parsedGroups}
            onClose={() => setMerging(null)}
          />
        </Suspense>
      ) : null}
      <StatusMessage message={message} testId="annotations.message" />
    </div>
  );
}
