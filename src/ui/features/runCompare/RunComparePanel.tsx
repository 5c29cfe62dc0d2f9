/**
 * The Run vs run panel (issue 19): the dataset on screen (run A) against a second run (run B)
 * opened here, on the prompts both hold, with core's `compareRuns` (store/runCompare.ts). A
 * regression or an improvement opens the prompt's groups of both runs side by side in the main
 * area (ui/app shows the store's `comparePair` there): each run's group at its latest step.
 */
import { useMemo, useState } from "react";
import type { CompareMetric } from "../../../core/index.ts";
import { useStore } from "../../../store/index.ts";
import { useRunComparison } from "../../../store/runCompare.ts";
import { CompareLoader } from "./CompareLoader.tsx";
import { CompareResults } from "./CompareResults.tsx";
import { latestGroup, runCompareModel, type PromptRow } from "./runCompareModel.ts";
import styles from "./RunCompare.module.css";

export default function RunComparePanel() {
  const run = useStore((s) => s.compareRun);
  const closeCompare = useStore((s) => s.closeCompare);
  const openComparePair = useStore((s) => s.openComparePair);
  const openPrompt = useStore((s) => s.comparePair?.prompt ?? null);
  const [metric, setMetric] = useState<CompareMetric>("passRate");
  const view = useRunComparison(metric);
  const model = useMemo(() => (view === null ? null : runCompareModel(view)), [view]);
  const open = (row: PromptRow): void => {
    if (view === null) return;
    const a = latestGroup(row.a, view.stepsA);
    const b = latestGroup(row.b, view.stepsB);
    if (a !== null && b !== null) openComparePair({ a, b, prompt: row.prompt });
  };
  return (
    <div className={styles.panel} data-testid="run-compare">
      {run.status !== "ready" ? (
        <CompareLoader />
      ) : (
        <div className={styles.runs}>
          <p className={styles.names}>
            <span title={view?.a.name}>
              <b>A</b> {view?.a.name ?? "the run on screen"}
            </span>
            <span title={run.file.name} data-testid="compare-run-b">
              <b>B</b> {run.file.name}
            </span>
          </p>
          <button type="button" className={styles.button} onClick={closeCompare}>
            Close run B
          </button>
        </div>
      )}
      {model === null ? null : (
        <CompareResults
          model={model}
          metric={metric}
          onMetric={setMetric}
          open={openPrompt}
          onOpen={open}
        />
      )}
    </div>
  );
}
