import { useId, useState, type ChangeEvent, type DragEvent, type ReactNode } from "react";

import { droppedFiles, pickedFiles, type PickedFile } from "./droppedFiles.ts";
import styles from "./DropZone.module.css";

export interface DropZoneProps {
  /**
   * Called with every file the user dropped or chose (a folder's files with their paths); never
   * called with an empty list.
   */
  onFiles: (files: PickedFile[]) => void;
  /** Rendered under the button, e.g. the list of files already chosen. */
  children?: ReactNode;
}

/** A directory picker: every file under the chosen folder, with `webkitRelativePath`. */
const FOLDER_PICKER = { webkitdirectory: "", directory: "" };

function hasFiles(event: DragEvent<HTMLElement>): boolean {
  return event.dataTransfer.types.includes("Files");
}

/**
 * The full-page target for rollout files: drag and drop, or a labelled native file input.
 * Presentational: it reports files through `onFiles` and keeps only its drag-hover highlight.
 */
export default function DropZone({ onFiles, children }: DropZoneProps) {
  const inputId = useId();
  const folderId = useId();
  const titleId = useId();
  const hintId = useId();
  const [isDragOver, setIsDragOver] = useState(false);

  const deliver = (files: PickedFile[]): void => {
    if (files.length > 0) {
      onFiles(files);
    }
  };

  const handleChange = (event: ChangeEvent<HTMLInputElement>): void => {
    deliver(pickedFiles(event.currentTarget.files));
    // Clear the input so choosing the same file again still fires a change event.
    event.currentTarget.value = "";
  };

  const handleDragOver = (event: DragEvent<HTMLElement>): void => {
    if (!hasFiles(event)) return;
    // Without preventDefault the browser refuses the drop and opens the file itself.
    event.preventDefault();
    event.dataTransfer.dropEffect = "copy";
    setIsDragOver(true);
  };

  const handleDragLeave = (event: DragEvent<HTMLElement>): void => {
    // dragleave also fires when the pointer moves onto a child; only reset when it leaves the zone.
    const next = event.relatedTarget;
    if (next instanceof Node && event.currentTarget.contains(next)) return;
    setIsDragOver(false);
  };

  const handleDrop = (event: DragEvent<HTMLElement>): void => {
    event.preventDefault();
    setIsDragOver(false);
    droppedFiles(event.dataTransfer).then(deliver, () =>
      deliver(pickedFiles(event.dataTransfer.files)),
    );
  };

  return (
    <section
      className={styles.root}
      data-drag-over={isDragOver}
      aria-labelledby={titleId}
      data-testid="drop-zone.root"
      onDragOver={handleDragOver}
      onDragLeave={handleDragLeave}
      onDrop={handleDrop}
    >
      <div className={styles.inner}>
        <svg className={styles.icon} viewBox="0 0 24 24" aria-hidden="true">
          <path
            d="M12 15V4m0 0-4 4m4-4 4 4M5 15v3a2 2 0 0 0 2 2h10a2 2 0 0 0 2-2v-3"
            fill="none"
            stroke="currentColor"
            strokeWidth="1.6"
            strokeLinecap="round"
            strokeLinejoin="round"
          />
        </svg>
        <h2 className={styles.title} id={titleId}>
          Drop a rollout file, several, or a run's folder here
        </h2>
        <p className={styles.hint} id={hintId}>
          Files stay on this computer; nothing is uploaded.
        </p>
        {/* Side by side: two ways into the same thing (one file or several, or a run's folder). */}
        <div className={styles.choices}>
          <input
            className={styles.input}
            id={inputId}
            type="file"
            multiple
            aria-describedby={hintId}
            data-testid="file-input"
            onChange={handleChange}
          />
          <label className={styles.button} htmlFor={inputId}>
            Choose file
          </label>
          <input
            className={styles.input}
            id={folderId}
            type="file"
            {...FOLDER_PICKER}
            aria-describedby={hintId}
            data-testid="folder-input"
            onChange={handleChange}
          />
          <label className={styles.button} htmlFor={folderId}>
            Choose folder
          </label>
        </div>
        {children}
      </div>
    </section>
  );
}
