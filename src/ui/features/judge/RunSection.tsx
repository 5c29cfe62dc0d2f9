/**
 * Starting judge runs: one button per mode over a scope (the mixed groups, all groups, the selected
 * group), the pairwise options, the offline heuristic grader (always available, no key), and the
 * spread check before training (SpreadCheck). What is open and what the counts say comes from
 * prepareRunSection.
 */
import { useId, useState } from "react";
import {
  type JudgeMode,
  judgePlanCluster,
  judgePlanGar,
  judgePlanPairwise,
  judgePlanRubric,
  judgeScopeGroups,
  judgeScopeName,
  JUDGE_TEMPLATES,
  type JudgeScope,
} from "../../../core/index.ts";
import { useStore } from "../../../store/index.ts";
import { useDataset, useSettings } from "../../../store/hooks.ts";
import { MODE_LABELS } from "./prepareJudge.ts";
import {
  groupCountText,
  judgeOptionsFrom,
  prepareRunButtons,
  RUN_LABELS,
  RUN_MODES,
  selectedScopeLabel,
  type StartRun,
} from "./prepareRunSection.ts";
import SpreadCheck from "./SpreadCheck.tsx";
import type { JudgeRunner } from "./useJudgeRunner.ts";
import styles from "./Judge.module.css";

type PairwiseAmong = "all" | "passes";

export default function RunSection({ runner }: { runner: JudgeRunner }) {
  const dataset = useDataset();
  const settings = useSettings();
  const configured = useStore((s) => s.judgeConfigured);
  const selected = useStore((s) => s.selectedGroupId);
  const templates = useStore((s) => s.judgeTemplates);
  const rubrics = useStore((s) => s.annotations.rubrics);
  const [scope, setScope] = useState<JudgeScope>("mixed");
  const [bothOrders, setBothOrders] = useState(true);
  const [among, setAmong] = useState<PairwiseAmong>("passes");
  const id = useId();
  const running = runner.state.status === "running";
  if (dataset === null) return null;

  const options = judgeOptionsFrom(settings);
  const groups = dataset.groups;
  const inScope = judgeScopeGroups(groups, scope, options, selected);
  const buttons = prepareRunButtons(inScope.length, running, configured);
  const template = (mode: JudgeMode) => templates[mode] ?? JUDGE_TEMPLATES[mode];

  const start: StartRun = (mode, chosen, label, what) => {
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
            {selectedScopeLabel(selected)}
          </option>
        </select>
        <span className={styles.muted} data-testid="judge.scope-count">
          {groupCountText(inScope.length)}
        </span>
      </div>
      <PairwiseOptions
        bothOrders={bothOrders}
        among={among}
        onBothOrders={setBothOrders}
        onAmong={setAmong}
      />
      <div className={styles.row}>
        {RUN_MODES.map((mode) => (
          <button
            key={mode}
            type="button"
            className={styles.button}
            disabled={buttons.llmDisabled}
            title={buttons.llmTitle}
            data-testid={`judge.run.${mode}`}
            onClick={() => start(mode, inScope, MODE_LABELS[mode], judgeScopeName(scope))}
          >
            {RUN_LABELS[mode]}
          </button>
        ))}
        <button
          type="button"
          className={styles.button}
          disabled={buttons.heuristicDisabled}
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
      <SpreadCheck
        groups={groups}
        options={options}
        running={running}
        configured={configured}
        onStart={start}
        onHeuristic={runner.runHeuristic}
      />
    </section>
  );
}

/** What a pairwise run compares: both orders of each pair (the flip rate), and among which rollouts. */
function PairwiseOptions({
  bothOrders,
  among,
  onBothOrders,
  onAmong,
}: {
  bothOrders: boolean;
  among: PairwiseAmong;
  onBothOrders: (on: boolean) => void;
  onAmong: (among: PairwiseAmong) => void;
}) {
  return (
    <div className={styles.row}>
      <span>Pairwise:</span>
      <label className={styles.inline}>
        <input
          type="checkbox"
          checked={bothOrders}
          data-testid="judge.both-orders"
          onChange={(e) => onBothOrders(e.currentTarget.checked)}
        />
        both orders (position-flip rate)
      </label>
      <select
        aria-label="Pairwise compares"
        value={among}
        onChange={(e) => onAmong(e.currentTarget.value === "all" ? "all" : "passes")}
      >
        <option value="passes">the passes of each group</option>
        <option value="all">every rollout of each group</option>
      </select>
    </div>
  );
}
