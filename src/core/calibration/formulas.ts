/**
 * How every calibration number is computed, in words, for the view's tooltips (the style of
 * analysis/formulas.ts): the bootstrap's size, level and seed are filled in from what is in force.
 */
import type { CalibrationBootstrapOptions } from "./bootstrap.ts";
import { calibrationFractionsText } from "./seal.ts";
import { CALIBRATION_MIN_N } from "./wilson.ts";
import type { CalibrationState } from "./state.ts";

export interface CalibrationFormulas {
  readonly confusion: string;
  readonly tpr: string;
  readonly tnr: string;
  readonly accuracy: string;
  readonly kappa: string;
  readonly interval: string;
  readonly tau: string;
  readonly rho: string;
  readonly overall: string;
  readonly observed: string;
  readonly corrected: string;
  readonly correctedInterval: string;
  /** The interval of a proportion where the bootstrap says nothing. */
  readonly wilson: string;
  /** The corrected rate's interval where the bootstrap says nothing. */
  readonly correctedWilson: string;
  readonly splits: string;
}

export function calibrationFormulas(
  state: Pick<CalibrationState, "seed" | "fractions">,
  options: CalibrationBootstrapOptions,
): CalibrationFormulas {
  const level = `${Number((options.level * 100).toFixed(2))}%`;
  return {
    confusion:
      "Rows: rollouts with a human pass/fail label and a verdict from the source. TP: both pass; TN: both fail; FP: judge pass, human fail; FN: judge fail, human pass",
    tpr: "TPR = TP / (TP + FN): how often the judge passes what the person passed",
    tnr: "TNR = TN / (TN + FP): how often the judge fails what the person failed",
    accuracy: "Accuracy = (TP + TN) / n",
    kappa:
      "Cohen's kappa = (po - pe) / (1 - pe), po = accuracy, pe = p_judge_pass x p_human_pass + p_judge_fail x p_human_fail; undefined when pe = 1",
    interval: `${level} percentile bootstrap interval: ${options.samples} resamples of the split's rows with replacement, seeded from the split seed ${state.seed}; resamples where the metric is undefined are dropped and counted`,
    tau: "Kendall's tau-b between the human and the source's tier positions, over the rollouts both rank (ties handled: (C - D) / sqrt((n0 - n1)(n0 - n2)))",
    rho: "Spearman's rho: Pearson correlation of the average ranks of the tier positions, over the rollouts both rank",
    overall:
      "Overall: the mean of the groups' coefficients weighted by their pairs n(n - 1)/2, over the groups where it is defined: every compared pair weighs the same",
    observed:
      "Observed pass rate: the source's passes / every rollout it judged in the loaded groups",
    corrected:
      "Rogan-Gladen corrected pass rate = (observed + TNR - 1) / (TPR + TNR - 1), with dev's TPR and TNR, clipped to [0, 1]; undefined when TPR + TNR <= 1",
    correctedInterval: `${level} percentile bootstrap interval: ${options.samples} resamples of dev's rows (the observed rate held fixed); resamples with TPR + TNR <= 1 are left out and counted`,
    wilson: `${level} Wilson score interval of the proportion, used instead of the bootstrap below ${CALIBRATION_MIN_N} rows or when every resample gives the same value (a bootstrap of a few agreeing rows has zero width and claims a certainty they cannot give)`,
    correctedWilson: `${level} range of Rogan-Gladen over the Wilson intervals of dev's TPR and TNR (its extremes are at their corners; [0, 1] when a corner is at chance), used instead of the bootstrap below ${CALIBRATION_MIN_N} dev rows or when every resample gives the same rate`,
    splits: `Stratified by the human label, seeded (seed ${state.seed}), train/dev/test ${calibrationFractionsText(state.fractions)}%; a rollout keeps its split once assigned`,
  };
}
