/**
 * Opening run B, the run compared with the dataset on screen: files or a folder chosen or dropped
 * here (a drop on this box opens run B, not a new dataset), or, on a page `rollout-studio view`
 * serves with several runs, one of the server's other runs. While it reads, its progress; when it
 * failed, why.
 */
import { useId, useState, type DragEvent } from "react";
import { useStore } from "../../../store/index.ts";
import { viewRunName } from "../../../store/datasetInfo.ts";
import { droppedFiles, pickedFiles, type PickedFile } from "../../components/droppedFiles.ts";
import styles from "./RunCompare.module.css";

/** A directory picker: every file under the chosen folder, with `webkitRelativePath`. */
const FOLDER_PICKER = { webkitdirectory: "", directory: "" };

function ServerRuns() {
  const remote = useStore((s) => (s.load.status === "ready" ? s.load.remote : undefined));
  const loadCompareRemote = useStore((s) => s.loadCompareRemote);
  const selectId = useId();
  if (remote === undefined || remote.listing.runs.length < 2) return null;
  const { listing } = remote;
  return (
    <p className={styles.row}>
      <label htmlFor={selectId}>Or a run the server lists</label>
      <select
        id={selectId}
        value=""
        data-testid="compare-run-select"
        onChange={(e) => {
          const run = Number(e.currentTarget.value);
          if (Number.isInteger(run)) loadCompareRemote({ ...remote, run });
        }}
      >
        <option value="" disabled>
          choose…
        </option>
        {listing.runs.map((r, i) =>
          i === remote.run ? null : (
            <option key={`${r.root}/${r.dir}`} value={i}>
              {viewRunName(listing, r)}
            </option>
          ),
        )}
      </select>
    </p>
  );
}

export function CompareLoader() {
  const run = useStore((s) => s.compareRun);
  const loadCompareFiles = useStore((s) => s.loadCompareFiles);
  const closeCompare = useStore((s) => s.closeCompare);
  const filesId = useId();
  const folderId = useId();
  const [over, setOver] = useState(false);
  const open = (files: readonly PickedFile[]): void => {
    if (files.length > 0) loadCompareFiles(files);
  };
  // The page opens any file dropped on it as the dataset: a drop here stops before it does.
  const onDragOver = (e: DragEvent<HTMLElement>): void => {
    if (!e.dataTransfer.types.includes("Files")) return;
    e.preventDefault();
    e.stopPropagation();
    e.dataTransfer.dropEffect = "copy";
    setOver(true);
  };
  const onDrop = (e: DragEvent<HTMLElement>): void => {
    e.preventDefault();
    e.stopPropagation();
    setOver(false);
    const data = e.dataTransfer;
    droppedFiles(data).then(open, () => open(pickedFiles(data.files)));
  };
  if (run.status === "loading") {
    const share = run.totalBytes > 0 ? Math.round((100 * run.bytes) / run.totalBytes) : 0;
    return (
      <div className={styles.row} role="status" data-testid="compare-loading">
        <span>
          Reading run B, {run.file.name}: {share}%
        </span>
        <button type="button" className={styles.button} onClick={closeCompare}>
          Cancel
        </button>
      </div>
    );
  }
  return (
    <section
      className={styles.drop}
      data-drag-over={over}
      aria-label="Compare with another run"
      data-testid="compare-drop"
      onDragOver={onDragOver}
      onDragLeave={() => setOver(false)}
      onDrop={onDrop}
    >
      <p className={styles.lead}>
        Compare the run on screen (run A) with another run (run B) on the prompts both hold: drop
        its files or its folder here, or choose them.
      </p>
      <p className={styles.row}>
        <input
          id={filesId}
          className={styles.input}
          type="file"
          multiple
          data-testid="compare-file-input"
          onChange={(e) => {
            open(pickedFiles(e.currentTarget.files));
            e.currentTarget.value = "";
          }}
        />
        <label className={styles.button} htmlFor={filesId}>
          Compare with another run…
        </label>
        <input
          id={folderId}
          className={styles.input}
          type="file"
          {...FOLDER_PICKER}
          data-testid="compare-folder-input"
          onChange={(e) => {
            open(pickedFiles(e.currentTarget.files));
            e.currentTarget.value = "";
          }}
        />
        <label className={styles.button} htmlFor={folderId}>
          Choose its folder
        </label>
      </p>
      <ServerRuns />
      {run.status === "error" ? (
        <p className={styles.error} role="alert" data-testid="compare-error">
          Run B, {run.file.name}, could not be read: {run.message}
        </p>
      ) : null}
    </section>
  );
}
