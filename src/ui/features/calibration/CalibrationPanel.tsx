/**
 * The calibration view (a dataset panel, loaded on first open): a judge source against this
 * annotator's labels, on stratified seeded train/dev/test splits with the test split sealed until
 * one logged unseal; metrics with bootstrap intervals, rank agreement, the corrected pass rate, and
 * the disagreements to click through. The numbers come from core's `calibrationReport`.
 */
import { useEffect, useMemo, useRef, useState } from "react";
import { calibrationFormulas } from "../../../core/index.ts";
import { useStore } from "../../../store/index.ts";
import CorrectedRate from "./CorrectedRate.tsx";
import { DisagreementList, DisagreementWalker } from "./Disagreements.tsx";
import {
  nextRankSort,
  prepareCorrected,
  prepareDisagreements,
  prepareRankRows,
  prepareSeal,
  prepareSplitTables,
  type RankSort,
} from "./prepareCalibration.ts";
import RankAgreement from "./RankAgreement.tsx";
import { revealClear, revealRollout } from "./revealRollout.ts";
import SealPanel from "./SealPanel.tsx";
import SourcePicker from "./SourcePicker.tsx";
import SplitMetrics from "./SplitMetrics.tsx";
import SplitSettings from "./SplitSettings.tsx";
import { useCalibration } from "./useCalibration.ts";
import styles from "./Calibration.module.css";

export default function CalibrationPanel() {
  const [chosen, setChosen] = useState<string | null>(null);
  const data = useCalibration(chosen);
  const selectGroup = useStore((s) => s.selectGroup);
  const [rankSort, setRankSort] = useState<RankSort>({ key: "group", descending: false });
  const [walk, setWalk] = useState<number | null>(null);
  const [note, setNote] = useState("");
  const revealing = useRef<AbortController | null>(null);
  // The reveal waits on the DOM (an external system): stop it and unmark when the panel closes.
  useEffect(
    () => () => {
      revealing.current?.abort();
      revealClear();
    },
    [],
  );

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
  const disagreements = prepareDisagreements(report, walk);
  const corrected = prepareCorrected(report);
  const table = (split: string) => tables.find((t) => t.split === split);
  const train = table("train");
  const dev = table("dev");
  const test = table("test");

  const open = (index: number): void => {
    const item = disagreements.items[index];
    if (item === undefined) return;
    setWalk(index);
    setNote("");
    revealing.current?.abort();
    const controller = new AbortController();
    revealing.current = controller;
    selectGroup(item.groupId);
    revealRollout(item.rolloutId, controller.signal)
      .then((shown) => {
        if (controller.signal.aborted) return;
        setNote(
          shown ? "" : `Open the Rollouts tab of group ${item.groupId} to see ${item.rolloutId}.`,
        );
      })
      .catch((error: unknown) => console.error("could not show the rollout", error));
  };
  const stopWalk = (): void => {
    revealing.current?.abort();
    revealClear();
    setWalk(null);
    setNote("");
  };
  const at = disagreements.current;
  const walking = at === null ? undefined : disagreements.items[at];

  return (
    <section className={styles.panel} aria-label="Calibration" data-testid="calibration">
      <h3 className={styles.title}>Calibration: judge against human labels</h3>
      <SourcePicker
        human={data.human}
        counts={report.counts}
        unparsed={data.unparsed}
        choices={data.choices}
        value={choice?.value ?? ""}
        onChange={(value) => {
          stopWalk();
          setChosen(value);
        }}
      />
      <SplitSettings
        key={`${state.seed}:${state.fractions.train}:${state.fractions.dev}:${state.unsealed === null}`}
        state={state}
        title={formulas.splits}
        onApply={(next) => {
          stopWalk();
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
        <>
          <div className={styles.grid}>
            {train === undefined ? null : (
              <SplitMetrics table={train} confusionTitle={formulas.confusion} />
            )}
            {dev === undefined ? null : (
              <SplitMetrics table={dev} confusionTitle={formulas.confusion} />
            )}
          </div>
          <CorrectedRate
            view={corrected}
            titles={{
              observed: formulas.observed,
              corrected: formulas.corrected,
              interval: formulas.correctedInterval,
              wilson: formulas.correctedWilson,
            }}
          />
          <RankAgreement
            rows={rankRows}
            overall={report.ranks.overall}
            sort={rankSort}
            onSort={(key) => setRankSort((s) => nextRankSort(s, key))}
            titles={{ tau: formulas.tau, rho: formulas.rho, overall: formulas.overall }}
          />
          <SealPanel
            seal={prepareSeal(state, report, choice.source, data.warnings)}
            sourceLabel={choice.source.label}
            promptVersion={choice.source.promptVersion}
            canUnseal={choice.hasVerdicts && report.testRows > 0}
            onUnseal={data.unseal}
          >
            {test === undefined ? null : (
              <SplitMetrics table={test} confusionTitle={formulas.confusion} />
            )}
          </SealPanel>
          <DisagreementList
            items={disagreements.items}
            current={disagreements.current}
            sealed={report.sealed}
            onOpen={open}
          />
          {walking === undefined || at === null ? null : (
            <DisagreementWalker
              item={walking}
              index={at}
              total={disagreements.items.length}
              note={note}
              onStep={(delta) => open(at + delta)}
              onClose={stopWalk}
            />
          )}
        </>
      )}
    </section>
  );
}
