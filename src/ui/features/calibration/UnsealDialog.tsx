/**
 * The confirmation before the one-time unseal. A native modal dialog: the focus stays inside, Escape
 * cancels, and the focus returns to the button that opened it.
 */
import { useId } from "react";
import { useModalDialog } from "../../components/useModalDialog.ts";
import styles from "./Calibration.module.css";

export default function UnsealDialog({
  sourceLabel,
  promptVersion,
  testRows,
  onConfirm,
  onClose,
}: {
  sourceLabel: string;
  promptVersion: string;
  testRows: number;
  onConfirm: () => void;
  onClose: () => void;
}) {
  const dialog = useModalDialog();
  const titleId = useId();
  return (
    <dialog
      ref={dialog}
      className={styles.dialog}
      aria-labelledby={titleId}
      data-testid="calibration.unseal.dialog"
      onClose={onClose}
    >
      <h3 id={titleId} className={styles.subtitle}>
        Unseal the test split?
      </h3>
      <p>
        This shows the test split&apos;s {testRows} row(s) and metrics for <b>{sourceLabel}</b>{" "}
        (prompt version {promptVersion === "" ? "none" : promptVersion}).
      </p>
      <p>
        It can be done <b>once</b>. The time, the judge and its prompt version are logged in the
        annotations, and every judge run after it (or with another prompt version) is flagged: once
        you have seen test, tuning the judge against it makes it no longer a held-out test.
      </p>
      <div className={styles.dialogActions}>
        <button
          type="button"
          className={styles.button}
          data-testid="calibration.unseal.cancel"
          onClick={() => dialog.current?.close()}
        >
          Cancel
        </button>
        <button
          type="button"
          className={styles.danger}
          data-testid="calibration.unseal.confirm"
          onClick={() => {
            onConfirm();
            dialog.current?.close();
          }}
        >
          Unseal once
        </button>
      </div>
    </dialog>
  );
}
