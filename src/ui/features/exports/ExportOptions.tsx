/**
 * The Exports panel's option controls: a labelled menu, the judge-run menu, and the options under
 * the calibration and rewards kinds (run; source, mode, run and floor). What each pick changes
 * comes from exportsPanelModel.
 */
import type { JudgeRun } from "../../../core/index.ts";
import {
  floorFromText,
  MODE_OPTIONS,
  runFromMenu,
  SOURCE_OPTIONS,
  withRewardMode,
  withRewardSource,
  type MenuOption,
} from "./exportsPanelModel.ts";
import { exportRunModes, prepareRunOptions, type ExportChoices } from "./prepareExports.ts";
import styles from "./Exports.module.css";

/** A labelled select over a menu's options; a pick outside them is ignored. */
export function MenuSelect<T extends string>({
  label,
  testId,
  value,
  options,
  onPick,
  title,
  selectClassName,
}: {
  label: string;
  testId: string;
  value: T;
  options: readonly MenuOption<T>[];
  onPick: (value: T) => void;
  /** The label's tooltip. */
  title?: string;
  selectClassName?: string;
}) {
  return (
    <label className={styles.option} title={title}>
      {label}{" "}
      <select
        className={selectClassName}
        data-testid={testId}
        value={value}
        onChange={(e) => {
          const picked = options.find((o) => o.value === e.currentTarget.value);
          if (picked !== undefined) onPick(picked.value);
        }}
      >
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </label>
  );
}

/** The kinds that read a judge run. */
export type KindWithRun = "calibration" | "rewards";

/** The judge run a kind reads: none or the newest by default (see `prepareRunOptions`). */
function RunSelect({
  kind,
  value,
  runs,
  choices,
  onPick,
}: {
  kind: KindWithRun;
  value: string | null;
  runs: readonly JudgeRun[];
  choices: ExportChoices;
  onPick: (run: string | null) => void;
}) {
  return (
    <label className={styles.option}>
      Judge run{" "}
      <select
        data-testid={`exports.judge-run.${kind}`}
        value={value ?? ""}
        onChange={(e) => onPick(runFromMenu(e.currentTarget.value))}
      >
        {prepareRunOptions(runs, exportRunModes(kind, choices), kind === "calibration").map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </label>
  );
}

export interface KindOptionsProps {
  readonly kind: KindWithRun;
  /** The judge run the kind reads, as its entry names it (`ExportEntry.run`). */
  readonly run: string | null;
  readonly choices: ExportChoices;
  readonly runs: readonly JudgeRun[];
  /** The floor as typed (kept apart from the number, so a half-typed value stays on screen). */
  readonly floorText: string;
  readonly onChoices: (change: (c: ExportChoices) => ExportChoices) => void;
  readonly onFloorText: (text: string) => void;
}

/** The options of the calibration kind (its judge run) or of the rewards kind, and the run read. */
export function KindOptions({
  kind,
  run,
  choices,
  runs,
  floorText,
  onChoices,
  onFloorText,
}: KindOptionsProps) {
  const rewards = choices.rewards;
  const setRewards = (change: (r: ExportChoices["rewards"]) => ExportChoices["rewards"]): void =>
    onChoices((c) => ({ ...c, rewards: change(c.rewards) }));
  return (
    <div className={styles.options}>
      {kind === "rewards" ? (
        <>
          <MenuSelect
            label="Source"
            testId="exports.source"
            value={rewards.source}
            options={SOURCE_OPTIONS}
            onPick={(source) => setRewards((r) => withRewardSource(r, source))}
          />
          <MenuSelect
            label="Mode"
            testId="exports.mode"
            value={rewards.mode}
            options={MODE_OPTIONS}
            onPick={(mode) => setRewards((r) => withRewardMode(r, mode))}
          />
          {rewards.source === "judge" ? (
            <RunSelect
              kind="rewards"
              value={rewards.judgeRunId}
              runs={runs}
              choices={choices}
              onPick={(judgeRunId) => setRewards((r) => ({ ...r, judgeRunId }))}
            />
          ) : null}
          {rewards.mode === "reward" ? (
            <label className={styles.option}>
              Floor{" "}
              <input
                type="number"
                min={0}
                max={0.99}
                step={0.05}
                className={styles.number}
                data-testid="exports.floor"
                value={floorText}
                onChange={(e) => {
                  const text = e.currentTarget.value;
                  onFloorText(text);
                  setRewards((r) => ({ ...r, floor: floorFromText(text) }));
                }}
              />
            </label>
          ) : null}
        </>
      ) : (
        <RunSelect
          kind="calibration"
          value={choices.calibrationRun}
          runs={runs}
          choices={choices}
          onPick={(calibrationRun) => onChoices((c) => ({ ...c, calibrationRun }))}
        />
      )}
      {run !== null ? (
        <span className={styles.note} data-testid={`exports.run.${kind}`}>
          reads {run}
        </span>
      ) : null}
    </div>
  );
}
