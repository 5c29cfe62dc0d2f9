/**
 * The dataset bar's view of the settings: a chip for each setting that differs from its default
 * ("scale none", "eps 1e-6"; the tooltip names the default), always in view, and the button that
 * opens the settings side sheet (ui/app places both).
 */
import { useSettings } from "../../../store/hooks.ts";
import { settingsSummary } from "./settingFields.ts";
import styles from "./Settings.module.css";

export default function SettingsButton({
  open,
  controls,
  onToggle,
}: {
  open: boolean;
  /** The sheet's element id. */
  controls: string;
  onToggle: () => void;
}) {
  const items = settingsSummary(useSettings());
  return (
    <div className={styles.summary} data-testid="settings.summary">
      {items.length === 0 ? (
        <span className={styles.summaryNone} title="Every setting has its default">
          defaults
        </span>
      ) : (
        <ul className={styles.chips} aria-label="Settings changed from their defaults">
          {items.map((item) => (
            <li
              key={item.key}
              className={styles.chip}
              title={item.title}
              data-testid="settings.summary-item"
            >
              {item.text}
            </li>
          ))}
        </ul>
      )}
      <button
        type="button"
        className={styles.open}
        aria-expanded={open}
        aria-controls={open ? controls : undefined}
        data-testid="settings.toggle"
        onClick={onToggle}
      >
        Settings
      </button>
    </div>
  );
}
