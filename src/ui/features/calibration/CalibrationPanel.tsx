/**
 * The calibration view (a dataset panel, loaded on first open): a judge source against this
 * annotator's labels, on stratified seeded train/dev/test splits with the test split sealed until
 * one logged unseal; metrics with bootstrap intervals, rank agreement, the corrected pass rate, and
 * the disagreements to click through (CalibrationResults). The numbers come from core's
 * `calibrationReport`.
 */
import { useMemo, useState } from "react";
import { calibrationFormulas } from "../../../core/index.ts";
import CalibrationResults from "./CalibrationResults.tsx";
import { splitSettingsKey } from "./calibrationPanelModel.ts";
import {
  nextRankSort,
  prepareRankRows,
  prepareSplitTables,
  type RankSort,
} from "./prepareCalibration.ts";
import SourcePicker from "./SourcePicker.tsx";
import SplitSettings from "./SplitSettings.tsx";
import { OWN_LABELS, useCalibration } from "./useCalibration.ts";
import { useDisagreementWalk } from "./useDisagreementWalk.ts";
import styles from "./Calibration.module.css";

export default function CalibrationPanel() {
  const [chosen, setChosen] = useState<string | null>(null);
  const [humanChosen, setHumanChosen] = useState<string>(OWN_LABELS);
  const data = useCalibration(chosen, humanChosen);
  const [rankSort, setRankSort] = useState<RankSort>({ key: "group", descending: false });
  const walker = useDisagreementWalk();

  const report = data?.report;
  const state = data?.state;
  const formulas = useMemo(
    () =>
      state === undefined || report === undefined
        ? null
        : calibrationFormulas(state, report.options),
    [state, report],
  );
  const tables = useMemo(
    () => (report === undefined || formulas === null ? [] : prepareSplitTables(report, formulas)),
    [report, formulas],
  );
  const rankRows = useMemo(
    () => (report === undefined ? [] : prepareRankRows(report.ranks.groups, rankSort)),
    [report, rankSort],
  );
  if (data === null || report === undefined || state === undefined || formulas === null)
    return null;
  const { choice } = data;

  return (
    <section className={styles.panel} aria-label="Calibration" data-testid="calibration">
      <h3 className={styles.title}>Calibration: judge against human labels</h3>
      <SourcePicker
        human={data.human}
        humans={data.humans}
        humanValue={data.humanValue}
        onHuman={(value) => {
          walker.stop();
          setHumanChosen(value);
        }}
        counts={report.counts}
        unparsed={data.unparsed}
        choices={data.choices}
        value={choice?.value ?? ""}
        onChange={(value) => {
          walker.stop();
          setChosen(value);
        }}
      />
      <SplitSettings
        key={splitSettingsKey(state)}
        state={state}
        title={formulas.splits}
        onApply={(next) => {
          walker.stop();
          data.resplit(next);
        }}
      />
      {choice === null ? (
        <p className={styles.note} role="status" data-testid="calibration.no-source">
          No judge source chosen: pick a judge run, the reward or a verifier above to compare with
          your labels. None is picked for you (a run you did not choose, such as a spread check,
          never becomes the judge by default).
        </p>
      ) : (
        <CalibrationResults
          data={data}
          choice={choice}
          formulas={formulas}
          tables={tables}
          rankRows={rankRows}
          rankSort={rankSort}
          onSort={(key) => setRankSort((s) => nextRankSort(s, key))}
          walker={walker}
        />
      )}
    </section>
  );
}
