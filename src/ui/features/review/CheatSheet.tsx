/**
 * The `?` cheat sheet: a modal dialog listing every feature's shortcuts (ui/app passes the lists).
 * The native modal dialog keeps the focus inside it, closes on Escape, and gives the focus back to
 * where it was when it closes.
 */
import { useId, useMemo } from "react";
import { useModalDialog } from "../../components/useModalDialog.ts";
import type { ShortcutGroup } from "../../components/keyboard.ts";
import { prepareCheatSheet } from "./prepareCheatSheet.ts";
import styles from "./Review.module.css";

export default function CheatSheet({
  groups,
  onClose,
}: {
  groups: readonly ShortcutGroup[];
  onClose: () => void;
}) {
  const sections = useMemo(() => prepareCheatSheet(groups), [groups]);
  const dialog = useModalDialog();
  const titleId = useId();
  return (
    <dialog
      ref={dialog}
      className={styles.sheet}
      aria-labelledby={titleId}
      data-testid="shortcuts.dialog"
      onClose={onClose}
    >
      <div className={styles.sheetHead}>
        <h2 id={titleId} className={styles.sheetTitle}>
          Keyboard shortcuts
        </h2>
        <button
          type="button"
          className={styles.button}
          data-testid="shortcuts.close"
          onClick={() => dialog.current?.close()}
        >
          Close
        </button>
      </div>
      <p className={styles.muted}>Shortcuts do nothing while you type in a text field.</p>
      {sections.map((section) => (
        <section key={section.title} data-testid="shortcuts.section">
          <h3 className={styles.sheetSection}>{section.title}</h3>
          <dl className={styles.sheetList}>
            {section.rows.map((row) => (
              <div key={`${row.keys.join(" ")}:${row.action}`} className={styles.sheetRow}>
                <dt>
                  {row.keys.map((k, i) => (
                    <span key={k}>
                      {i > 0 ? " or " : null}
                      <kbd className={styles.kbd}>{k}</kbd>
                    </span>
                  ))}
                </dt>
                <dd>{row.action}</dd>
              </div>
            ))}
          </dl>
        </section>
      ))}
    </dialog>
  );
}
