/**
 * The spread check before training, in the Run section: a seeded sample of passing groups graded by
 * the heuristic or an LLM grader, whose run then says go or no-go (methods.md 2.5). The sample and
 * whether it can run come from prepareRunSection.
 */
import { useId, useState } from "react";
import {
  JUDGE_SCOPE_SPREAD_CHECK,
  type JudgeBuildOptions,
  type RolloutGroup,
} from "../../../core/index.ts";
import {
  prepareSpreadCheck,
  spreadRunLabel,
  type SpreadGrader,
  type StartRun,
} from "./prepareRunSection.ts";
import type { JudgeRunner } from "./useJudgeRunner.ts";
import styles from "./Judge.module.css";

export default function SpreadCheck({
  groups,
  options,
  running,
  configured,
  onStart,
  onHeuristic,
}: {
  groups: readonly RolloutGroup[];
  options: JudgeBuildOptions;
  running: boolean;
  configured: boolean;
  onStart: StartRun;
  onHeuristic: JudgeRunner["runHeuristic"];
}) {
  const [sampleSize, setSampleSize] = useState("20");
  const [seed, setSeed] = useState("0");
  const [grader, setGrader] = useState<SpreadGrader>("heuristic");
  const id = useId();
  const view = prepareSpreadCheck(groups, options, {
    sampleSize,
    seed,
    grader,
    running,
    configured,
  });

  return (
    <>
      <h3 className={styles.heading}>Spread check before training</h3>
      <p className={styles.note}>
        Grades a seeded sample of groups with two or more passes (all-pass groups included) and asks
        whether the grader tells passes apart (methods.md 2.5): population std of the non-hack
        passes&apos; GAR factors (or the rubric&apos;s s·b) at least 0.05, and at most 90% of them
        within 0.05 of the median.
      </p>
      <div className={styles.row}>
        <label htmlFor={`${id}-n`}>Sample</label>
        <input
          id={`${id}-n`}
          className={styles.small}
          inputMode="numeric"
          value={sampleSize}
          data-testid="judge.spread-size"
          onChange={(e) => setSampleSize(e.currentTarget.value)}
        />
        <label htmlFor={`${id}-seed`}>seed</label>
        <input
          id={`${id}-seed`}
          className={styles.small}
          inputMode="numeric"
          value={seed}
          data-testid="judge.spread-seed"
          onChange={(e) => setSeed(e.currentTarget.value)}
        />
        <label htmlFor={`${id}-grader`}>graded by</label>
        <select
          id={`${id}-grader`}
          value={grader}
          data-testid="judge.spread-grader"
          onChange={(e) => setGrader(e.currentTarget.value as SpreadGrader)}
        >
          <option value="heuristic">the heuristic grader (offline)</option>
          <option value="gar">the LLM group grader</option>
          <option value="rubric">the LLM rubric scorer</option>
        </select>
        <button
          type="button"
          className={styles.primary}
          disabled={view.disabled}
          data-testid="judge.spread-run"
          onClick={() =>
            grader === "heuristic"
              ? onHeuristic(spreadRunLabel(grader), view.sample, options, JUDGE_SCOPE_SPREAD_CHECK)
              : onStart(grader, view.sample, spreadRunLabel(grader), JUDGE_SCOPE_SPREAD_CHECK)
          }
        >
          Check spread
        </button>
        <span className={styles.muted} data-testid="judge.spread-sample">
          {view.sampleText}
        </span>
      </div>
    </>
  );
}
