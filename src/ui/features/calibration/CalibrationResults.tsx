/**
 * The calibration panel once a source is picked: train and dev metrics, the corrected pass rate,
 * rank agreement, the test split behind its seal, and the disagreements with their walker. The
 * layout's decisions come from calibrationPanelModel.
 */
import type { CalibrationFormulas } from "../../../core/index.ts";
import CorrectedRate from "./CorrectedRate.tsx";
import { DisagreementList, DisagreementWalker } from "./Disagreements.tsx";
import { correctedTitles, prepareCalibrationPanel } from "./calibrationPanelModel.ts";
import type {
  RankRowView,
  RankSort,
  RankSortKey,
  SourceChoice,
  SplitTable,
} from "./prepareCalibration.ts";
import RankAgreement from "./RankAgreement.tsx";
import SealPanel from "./SealPanel.tsx";
import SplitMetrics from "./SplitMetrics.tsx";
import type { CalibrationData } from "./useCalibration.ts";
import type { DisagreementWalk } from "./useDisagreementWalk.ts";
import styles from "./Calibration.module.css";

export default function CalibrationResults({
  data,
  choice,
  formulas,
  tables,
  rankRows,
  rankSort,
  onSort,
  walker,
}: {
  data: CalibrationData;
  choice: SourceChoice;
  formulas: CalibrationFormulas;
  tables: readonly SplitTable[];
  rankRows: readonly RankRowView[];
  rankSort: RankSort;
  onSort: (key: RankSortKey) => void;
  walker: DisagreementWalk;
}) {
  const { report } = data;
  const view = prepareCalibrationPanel(
    report,
    data.state,
    tables,
    choice,
    data.warnings,
    walker.walk,
  );
  const { train, dev, test } = view.tables;
  const walking = view.walking;
  const open = (index: number): void => {
    const item = view.disagreements[index];
    if (item !== undefined) walker.open(item, index);
  };

  return (
    <>
      <div className={styles.grid}>
        {train === undefined ? null : (
          <SplitMetrics table={train} confusionTitle={formulas.confusion} />
        )}
        {dev === undefined ? null : (
          <SplitMetrics table={dev} confusionTitle={formulas.confusion} />
        )}
      </div>
      <CorrectedRate view={view.corrected} titles={correctedTitles(formulas)} />
      <RankAgreement
        rows={rankRows}
        overall={report.ranks.overall}
        sort={rankSort}
        onSort={onSort}
        titles={{ tau: formulas.tau, rho: formulas.rho, overall: formulas.overall }}
      />
      <SealPanel
        seal={view.seal}
        sourceLabel={choice.source.label}
        promptVersion={choice.source.promptVersion}
        canUnseal={view.canUnseal}
        onUnseal={data.unseal}
      >
        {test === undefined ? null : (
          <SplitMetrics table={test} confusionTitle={formulas.confusion} />
        )}
      </SealPanel>
      <DisagreementList
        items={view.disagreements}
        current={walking?.index ?? null}
        sealed={report.sealed}
        onOpen={open}
      />
      {walking === null ? null : (
        <DisagreementWalker
          item={walking.item}
          index={walking.index}
          total={view.disagreements.length}
          note={walker.note}
          onStep={(delta) => open(walking.index + delta)}
          onClose={walker.stop}
        />
      )}
    </>
  );
}
