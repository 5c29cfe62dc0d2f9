/**
 * The draft's actions: apply (after the check of who passes differently), revert to the applied
 * spec, export the applied spec, and import one (applied through the same check).
 */
import { useId } from "react";
import type { VerifierSpec } from "../../../core/index.ts";
import { verifierSpecExport, verifierSpecImport } from "../../../store/verifiers/verifierStore.ts";
import { VERIFIER_SPEC_FILE_NAME } from "../../../store/verifiers/verifierVerdicts.ts";
import type { Message } from "../../components/StatusMessage.tsx";
import styles from "./Verifiers.module.css";

function download(name: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: "application/json" }));
  const a = document.createElement("a");
  a.href = url;
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

export default function SpecActions({
  spec,
  changed,
  problems,
  checking,
  onApply,
  onRevert,
  onImported,
  onMessage,
}: {
  /** The applied spec (what Export writes). */
  spec: VerifierSpec;
  /** The draft differs from the applied spec. */
  changed: boolean;
  /** How many problems the draft has (it cannot be applied with any). */
  problems: number;
  checking: boolean;
  onApply: () => void;
  onRevert: () => void;
  /** An imported spec, read and valid, with its file's name. */
  onImported: (spec: VerifierSpec, fileName: string) => void;
  onMessage: (message: Message) => void;
}) {
  const importId = useId();
  return (
    <div className={styles.row}>
      <button
        type="button"
        className={`${styles.button} ${styles.primary}`}
        disabled={!changed || problems > 0 || checking}
        title={
          problems > 0
            ? "fix the problems above first"
            : "checks who would pass differently first, and asks when anyone would"
        }
        data-testid="verifiers.apply"
        onClick={onApply}
      >
        {checking ? "Checking who passes…" : "Apply"}
      </button>
      <button
        type="button"
        className={styles.button}
        disabled={!changed}
        data-testid="verifiers.revert"
        onClick={onRevert}
      >
        Revert to the applied spec
      </button>
      <button
        type="button"
        className={styles.button}
        data-testid="verifiers.export"
        onClick={() => download(VERIFIER_SPEC_FILE_NAME, verifierSpecExport(spec))}
        title="the applied spec, as rollout-studio analyze --verifiers reads it"
      >
        Export spec
      </button>
      <input
        id={importId}
        className={styles.fileInput}
        type="file"
        accept=".json,application/json"
        data-testid="verifiers.import"
        onChange={(e) => {
          const input = e.currentTarget;
          const file = input.files?.[0];
          input.value = "";
          if (file === undefined) return;
          file.text().then(
            (text) => {
              const read = verifierSpecImport(file.name, text);
              if (read.ok) onImported(read.spec, file.name);
              else onMessage({ text: read.message, error: true });
            },
            (err: unknown) =>
              onMessage({
                text: `${file.name} could not be read: ${err instanceof Error ? err.message : String(err)}`,
                error: true,
              }),
          );
        }}
      />
      <label htmlFor={importId} className={styles.button}>
        Import spec…
      </label>
      {changed ? <span className={styles.muted}>Changes not applied yet.</span> : null}
    </div>
  );
}
