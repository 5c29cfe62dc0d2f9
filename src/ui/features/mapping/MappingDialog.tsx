/**
 * The field-mapping dialog: a modal <dialog> that reads the first 64 KB of a file nobody could
 * detect, shows the fields it found with a sample value each, guesses the group key, id, text and
 * reward fields, previews the groups those picks make, and loads the file as the "mapped" format.
 * Picks can be saved as presets (presetsSlice, persisted). App opens it (useMappingDialog).
 */
import { Suspense, use, useEffect, useId, useLayoutEffect, useRef } from "react";
import { useModalDialog } from "../../components/useModalDialog.ts";
import styles from "./Mapping.module.css";
import MappingForm from "./MappingForm.tsx";
import { containerLabel, mappingSampleFor, SAMPLE_BYTES } from "./readMappingSample.ts";

export interface MappingDialogProps {
  readonly file: File;
  readonly onClose: () => void;
}

export default function MappingDialog({ file, onClose }: MappingDialogProps) {
  const opener = useRef<Element | null>(null);
  // Whatever had the focus before the dialog opens (this layout effect runs before the one that
  // opens it, which is declared after it).
  useLayoutEffect(() => {
    opener.current ??= document.activeElement;
  }, []);
  // Open as a modal in a layout effect, so it is open before the form's passive effect focuses
  // the first picker.
  const ref = useModalDialog();
  const titleId = useId();
  // Give focus back to whatever had it. A passive cleanup runs once the dialog has left the DOM,
  // when the page is no longer inert and can take focus again.
  useEffect(
    () => () => {
      const back = opener.current;
      if (back instanceof HTMLElement && back.isConnected) back.focus();
    },
    [],
  );

  return (
    <dialog
      ref={ref}
      className={styles.dialog}
      aria-labelledby={titleId}
      aria-modal="true"
      data-testid="mapping.dialog"
      onKeyDown={(e) => {
        if (e.key !== "Escape") return;
        e.preventDefault();
        onClose();
      }}
      // Other close requests (a platform back gesture) and a close the browser forces.
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
      onClose={onClose}
    >
      <header className={styles.header}>
        <h2 id={titleId} className={styles.title}>
          Map fields
        </h2>
        <button
          type="button"
          className={styles.close}
          onClick={onClose}
          aria-label="Close"
          data-testid="mapping.close"
        >
          ×
        </button>
      </header>
      <Suspense
        fallback={
          <p className={styles.muted} data-testid="mapping.reading">
            Reading the start of {file.name}…
          </p>
        }
      >
        <SampledForm file={file} onClose={onClose} />
      </Suspense>
    </dialog>
  );
}

function SampledForm({ file, onClose }: MappingDialogProps) {
  const sample = use(mappingSampleFor(file));
  if (!sample.ok) {
    return (
      <div className={styles.body}>
        <p className={styles.error} role="alert" data-testid="mapping.sample-error">
          {sample.message}
        </p>
        <div className={styles.footer}>
          <button type="button" className={styles.button} onClick={onClose}>
            Close
          </button>
        </div>
      </div>
    );
  }
  const kb = Math.round(SAMPLE_BYTES / 1024);
  const source = `${containerLabel(sample.container)}; ${sample.records.length.toLocaleString("en-US")} record${sample.records.length === 1 ? "" : "s"} ${sample.partial ? `in the first ${kb} KB` : "in the file"}`;
  return (
    <MappingForm
      file={file}
      records={sample.records}
      columns={sample.header ?? []}
      source={source}
      onClose={onClose}
    />
  );
}
