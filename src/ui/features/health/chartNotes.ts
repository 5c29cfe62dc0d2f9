/**
 * What each of the run view's charts says under its title: how its numbers were computed, with
 * the settings in force and, for an indexed file, what the series are over. Pure.
 */
import type { AnalysisSettings, RunHealth } from "../../../core/index.ts";
import type { HealthView } from "./healthModel.ts";

export interface ChartNotes {
  readonly shares: string;
  readonly reward: string;
  readonly length: string;
  readonly diversity: string;
  readonly hacks: string;
}

const count = (n: number): string => n.toLocaleString("en-US");

/** "over the 120 of 4,000 groups parsed" for an indexed file's text series, else null. */
export function parsedOver(view: HealthView): string | null {
  const c = view.coverage;
  return c.indexed
    ? `over the ${count(c.parsedGroups)} of ${count(c.totalGroups)} groups parsed`
    : null;
}

/** ", over the 120 of 4,000 groups parsed", or "" when every group is read. */
function parsedNote(view: HealthView): string {
  const over = parsedOver(view);
  return over === null ? "" : `, ${over}`;
}

function judgedNote(run: RunHealth): string {
  const j = run.judged;
  const judged = j.tp + j.fp + j.fn + j.tn;
  if (judged === 0) return "no rollout judged by a person, so no corrected share";
  return `corrected: Rogan-Gladen over the unjudged rollouts, from the test's agreement with people on ${count(judged)} judged rollouts (${j.tp} hacks found, ${j.fn} missed, ${j.fp} false alarms), with its interval`;
}

export function chartNotes(
  view: HealthView,
  settings: Pick<
    AnalysisSettings,
    "passThreshold" | "completionRule" | "ngram" | "similarity" | "similarityOn"
  >,
  clusterSample: number,
): ChartNotes {
  const parsed = parsedNote(view);
  const { run } = view;
  const sample =
    clusterSample === 0 ? "every group" : `at most ${count(clusterSample)} groups per step`;
  return {
    shares: `Per step: pass rate = rollouts with reward ≥ ${settings.passThreshold} / rollouts (reward: ${view.coverage.rewards}); zero-std share = groups whose rollouts all have one reward / groups; mixed share = groups with passes and failures / groups. Shaded: steps where the zero-std rule fired.`,
    reward: `Mean reward over the rollouts with one (${view.coverage.rewards}); each component's mean over the rollouts it applies to (dashed)${parsed}. Shaded: component dominance.`,
    length: `Per rollout: mean characters of the completion (rule "${settings.completionRule}"), assistant turns and tool calls${parsed}. Shaded: steps where length drift fired; dashed: the step its alert names.`,
    diversity: `Line: mean diversity clusters per group (${settings.ngram}-grams, similarity ≥ ${settings.similarity} on ${settings.similarityOn}) over ${sample}, picked by a hash of their ids. Bars: groups by spread check${parsed}. Shaded: diversity collapse.`,
    hacks:
      run.exemplars === 0
        ? `Shares of rollouts marked as hacks by people, the heuristic grader and an LLM judge${parsed}. No rollout is marked as a hack by a person, so there is no hack-like share: mark one in a group to follow its strategy across steps.`
        : `Shares of the step's rollouts: hack-like = marked, or ≥ ${settings.similarity} similar to one of the ${count(run.exemplars)} rollouts people marked as hacks ("Find similar"); marked by people, the heuristic grader and an LLM judge; ${judgedNote(run)}${parsed}. Shaded: hack spread.`,
  };
}
