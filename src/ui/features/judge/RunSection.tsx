/**
 * Starting judge runs: one button per mode over a scope (the mixed groups, all groups, the selected
 * group), the pairwise options, the offline heuristic grader (always available, no key), and the
 * spread check before training: a seeded sample of passing groups graded, then go or no-go.
 */
import { useId, useState } from "react";
import {
  type JudgeMode,
  type RolloutGroup,
  judgePlanCluster,
  judgePlanGar,
  judgePlanPairwise,
  judgePlanRubric,
  judgeSample,
  JUDGE_SCOPE_SPREAD_CHECK,
  judgeScopeGroups,
  judgeScopeName,
  judgeSpreadEligible,
  JUDGE_TEMPLATES,
  type JudgeBuildOptions,
  type JudgeScope,
  JUDGE_TEXT_MAX_CHARS,
} from "../../../core/index.ts";
import { useStore } from "../../../store/index.ts";
import { useDataset, useSettings } from "../../../store/hooks.ts";
import { MODE_LABELS } from "./prepareJudge.ts";
import type { JudgeRunner } from "./useJudgeRunner.ts";
import styles from "./Judge.module.css";

type SpreadGrader = "gar" | "heuristic" | "rubric";

const RUN_LABELS: Readonly<Record<JudgeMode, string>> = {
  gar: "Run group grader (GAR)",
  pairwise: "Run pairwise judge",
  rubric: "Run rubric scorer (GRS)",
  cluster: "Run diversity clusterer",
};

export default function RunSection({ runner }: { runner: JudgeRunner }) {
  const dataset = useDataset();
  const settings = useSettings();
  const configured = useStore((s) => s.judgeConfigured);
  const selected = useStore((s) => s.selectedGroupId);
  const templates = useStore((s) => s.judgeTemplates);
  const rubrics = useStore((s) => s.annotations.rubrics);
  const [scope, setScope] = useState<JudgeScope>("mixed");
  const [bothOrders, setBothOrders] = useState(true);
  const [among, setAmong] = useState<"all" | "passes">("passes");
  const [sampleSize, setSampleSize] = useState("20");
  const [seed, setSeed] = useState("0");
  const [spreadGrader, setSpreadGrader] = useState<SpreadGrader>("heuristic");
  const id = useId();
  const running = runner.state.status === "running";
  if (dataset === null) return null;

  const options: JudgeBuildOptions = {
    passThreshold: settings.passThreshold,
    rewardWeights: settings.rewardWeights,
    completionRule: settings.completionRule,
    maxChars: JUDGE_TEXT_MAX_CHARS,
  };
  const groups = dataset.groups;
  const inScope = judgeScopeGroups(groups, scope, options, selected);
  const template = (mode: JudgeMode) => templates[mode] ?? JUDGE_TEMPLATES[mode];

  const start = (
    mode: JudgeMode,
    chosen: readonly RolloutGroup[],
    label: string,
    what: string,
  ): void => {
    switch (mode) {
      case "gar":
        runner.start(label, judgePlanGar(chosen, options, template("gar")), what);
        break;
      case "pairwise":
        runner.start(
          label,
          judgePlanPairwise(chosen, options, { bothOrders, among }, template("pairwise")),
          what,
        );
        break;
      case "rubric":
        runner.start(label, judgePlanRubric(chosen, rubrics, options, template("rubric")), what);
        break;
      case "cluster":
        runner.start(label, judgePlanCluster(chosen, options, template("cluster")), what);
        break;
    }
  };

  const eligible = judgeSpreadEligible(groups, options);
  const n = Number(sampleSize);
  const s = Number(seed);
  const sampleOk = Number.isInteger(n) && n >= 1 && Number.isInteger(s) && s >= 0;
  const sample = sampleOk ? judgeSample(eligible, n, s) : [];
  const llmBlocked = running || !configured;

  return (
    <section className={styles.section} data-testid="judge.run">
      <h3 className={styles.heading}>Run</h3>
      {dataset.indexed ? (
        <p className={styles.note}>
          This file is indexed: only the {groups.length} group(s) parsed so far (the ones you
          opened) can be judged.
        </p>
      ) : null}
      <div className={styles.row}>
        <label htmlFor={`${id}-scope`}>Groups</label>
        <select
          id={`${id}-scope`}
          value={scope}
          data-testid="judge.scope"
          onChange={(e) => setScope(e.currentTarget.value as JudgeScope)}
        >
          <option value="mixed">mixed groups (pass and fail)</option>
          <option value="all">all groups</option>
          <option value="selected" disabled={selected === null}>
            the selected group{selected === null ? "" : ` (${selected})`}
          </option>
        </select>
        <span className={styles.muted} data-testid="judge.scope-count">
          {inScope.length} group{inScope.length === 1 ? "" : "s"}
        </span>
      </div>
      <div className={styles.row}>
        <span>Pairwise:</span>
        <label className={styles.inline}>
          <input
            type="checkbox"
            checked={bothOrders}
            data-testid="judge.both-orders"
            onChange={(e) => setBothOrders(e.currentTarget.checked)}
          />
          both orders (position-flip rate)
        </label>
        <select
          aria-label="Pairwise compares"
          value={among}
          onChange={(e) => setAmong(e.currentTarget.value === "all" ? "all" : "passes")}
        >
          <option value="passes">the passes of each group</option>
          <option value="all">every rollout of each group</option>
        </select>
      </div>
      <div className={styles.row}>
        {(["gar", "pairwise", "rubric", "cluster"] as const).map((mode) => (
          <button
            key={mode}
            type="button"
            className={styles.button}
            disabled={llmBlocked || inScope.length === 0}
            title={configured ? undefined : "Save a connection first"}
            data-testid={`judge.run.${mode}`}
            onClick={() => start(mode, inScope, MODE_LABELS[mode], judgeScopeName(scope))}
          >
            {RUN_LABELS[mode]}
          </button>
        ))}
        <button
          type="button"
          className={styles.button}
          disabled={running || inScope.length === 0}
          data-testid="judge.run.heuristic"
          onClick={() =>
            runner.runHeuristic(
              "Heuristic grader (offline)",
              inScope,
              options,
              judgeScopeName(scope),
            )
          }
        >
          Run heuristic grader (offline)
        </button>
      </div>
      {!configured ? (
        <p className={styles.note}>
          LLM runs need a saved connection. The heuristic grader needs none: it ranks passes by
          fewest tool calls, then shortest, and flags ids no tool or user gave.
        </p>
      ) : null}

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
          value={spreadGrader}
          data-testid="judge.spread-grader"
          onChange={(e) => setSpreadGrader(e.currentTarget.value as SpreadGrader)}
        >
          <option value="heuristic">the heuristic grader (offline)</option>
          <option value="gar">the LLM group grader</option>
          <option value="rubric">the LLM rubric scorer</option>
        </select>
        <button
          type="button"
          className={styles.primary}
          disabled={
            !sampleOk ||
            sample.length === 0 ||
            running ||
            (spreadGrader !== "heuristic" && !configured)
          }
          data-testid="judge.spread-run"
          onClick={() =>
            spreadGrader === "heuristic"
              ? runner.runHeuristic(
                  "Spread check (heuristic grader)",
                  sample,
                  options,
                  JUDGE_SCOPE_SPREAD_CHECK,
                )
              : start(
                  spreadGrader,
                  sample,
                  `Spread check (${spreadGrader === "gar" ? "LLM group grader" : "LLM rubric scorer"})`,
                  JUDGE_SCOPE_SPREAD_CHECK,
                )
          }
        >
          Check spread
        </button>
        <span className={styles.muted} data-testid="judge.spread-sample">
          {sampleOk
            ? `${sample.length} of ${eligible.length} eligible group${eligible.length === 1 ? "" : "s"}`
            : "sample: a whole number >= 1; seed: a whole number >= 0"}
        </span>
      </div>
    </section>
  );
}
