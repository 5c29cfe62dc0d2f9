/**
 * Every analysis setting, declared once (./settingDecl.ts): the store reads them back with it,
 * the CLI's flags, their errors and their help come from it, the settings form is built from it,
 * and ANALYSIS_DEFAULTS is its defaults. The algorithms' own defaults (GRPO_DEFAULTS,
 * GAR_DEFAULTS, NGRAM_DEFAULTS) are where each value is set; the bounds are ./rules.ts. Sources:
 * methods.md sections 1.7, 2.7, 3.2 and 6; the README's settings table says the same.
 */
import { GAR_DEFAULTS } from "../advantage/gar.ts";
import { GRPO_DEFAULTS } from "../advantage/grpo.ts";
import type { AnalysisSettings } from "../analysis/analysisSettings.ts";
import { TEXT_CHARS_DEFAULT, textCharsValid } from "../analysis/text.ts";
import { NGRAM_DEFAULTS } from "../ngram/ngrams.ts";
import { SIMILARITY_ON_TEXT } from "../analysis/formulas.ts";
import {
  capValid,
  epsValid,
  minFactorValid,
  ngramValid,
  passThresholdValid,
  similarityValid,
} from "./rules.ts";
import type { SettingDecl } from "./settingDecl.ts";

/** The settings with a declaration: all but the reward weights (a record, edited on their own). */
export type AnalysisSettingKey = Exclude<keyof AnalysisSettings, "rewardWeights">;

/** A declaration whose default (and so every value read with it) has the setting's type. */
export type AnalysisSettingDecl = {
  readonly [K in AnalysisSettingKey]: SettingDecl<K> & { readonly default: AnalysisSettings[K] };
}[AnalysisSettingKey];

/** The settings in the form's (and the help's) order; one entry per setting, by the type. */
const SETTINGS: {
  readonly [K in AnalysisSettingKey]: Extract<AnalysisSettingDecl, { readonly key: K }>;
} = {
  estimator: {
    key: "estimator",
    kind: "choice",
    default: "grpo",
    short: "estimator",
    label: "Estimator",
    options: [
      { value: "grpo", label: "GRPO" },
      { value: "rloo", label: "RLOO (leave one out)" },
    ],
    source: "GRPO, as TRL and verl",
    testId: "settings-estimator",
    flag: { name: "estimator", help: "advantage estimator (default {default})", group: "analysis" },
  },
  scale: {
    key: "scale",
    kind: "choice",
    default: GRPO_DEFAULTS.scale,
    short: "scale",
    label: "Std scaling",
    options: [
      { value: "group", label: "group" },
      { value: "batch", label: "batch" },
      { value: "none", label: "none" },
    ],
    source: 'TRL scale_rewards="group"; "none" is Dr. GRPO',
    testId: "settings-scale",
    flag: {
      name: "scale",
      help: "GRPO std scaling (default {default}, as TRL)",
      group: "analysis",
    },
  },
  eps: {
    key: "eps",
    kind: "number",
    default: GRPO_DEFAULTS.eps,
    short: "eps",
    label: "Epsilon",
    min: 0,
    step: 1e-4,
    valid: epsValid,
    rule: "a number >= 0",
    source: "TRL 1e-4 (verl 1e-6)",
    testId: "settings-eps",
    flag: {
      name: "eps",
      metavar: "E",
      help: "added to the std (default 1e-4, as TRL)",
      group: "analysis",
    },
  },
  std: {
    key: "std",
    kind: "choice",
    default: GRPO_DEFAULTS.std,
    short: "std",
    label: "Std",
    options: [
      { value: "sample", label: "sample (n-1)" },
      { value: "population", label: "population (n)" },
    ],
    source: "TRL, verl: sample",
    testId: "settings-std",
    flag: { name: "std", help: "std estimator (default {default}, n-1)", group: "analysis" },
  },
  aggregation: {
    key: "aggregation",
    kind: "choice",
    default: "sum_then_normalize",
    short: "components",
    label: "Reward components",
    options: [
      { value: "sum_then_normalize", label: "sum, then normalise" },
      { value: "normalize_then_sum", label: "normalise each, then sum (GDPO)" },
    ],
    source: 'TRL multi_objective_aggregation="sum_then_normalize"',
    testId: "settings-aggregation",
    flag: {
      name: "aggregation",
      help: "multi-reward aggregation (default {default}; GDPO is the other)",
      group: "analysis",
    },
  },
  passThreshold: {
    key: "passThreshold",
    kind: "number",
    default: GAR_DEFAULTS.passThreshold,
    short: "pass ≥",
    label: "Pass threshold",
    step: 0.05,
    valid: passThresholdValid,
    rule: "a number",
    source: "whileai: reward >= 0.5",
    testId: "settings-pass-threshold",
    flag: {
      name: "pass-threshold",
      metavar: "T",
      help: "a reward >= T is a pass (default {default}, as whileai)",
      group: "gar",
    },
  },
  cap: {
    key: "cap",
    kind: "number",
    default: GAR_DEFAULTS.cap,
    short: "cap",
    label: "GAR cap",
    min: 1,
    step: 0.5,
    valid: capValid,
    rule: "a number >= 1",
    source: "whileai GROUPWISE_CAP",
    testId: "settings-cap",
    flag: { name: "cap", metavar: "C", help: "GAR lambda cap (default {default})", group: "gar" },
  },
  minFactor: {
    key: "minFactor",
    kind: "number",
    default: GAR_DEFAULTS.minFactor,
    short: "min factor",
    label: "GAR min factor",
    min: 0.01,
    max: 1,
    step: 0.05,
    valid: minFactorValid,
    rule: "in (0, 1]",
    source: "whileai GROUPWISE_MIN_FACTOR",
    testId: "settings-min-factor",
    flag: {
      name: "min-factor",
      metavar: "M",
      help: "GAR factor of the worst-ranked pass (default {default})",
      group: "gar",
    },
  },
  hackZero: {
    key: "hackZero",
    kind: "switch",
    default: GAR_DEFAULTS.hackZero,
    short: "zero hacks",
    label: "Zero hacks",
    source: "whileai hack_zero=True",
    testId: "settings-hack-zero",
    flag: {
      name: "no-hack-zero",
      help: "keep hacks' rewards instead of zeroing them",
      group: "gar",
    },
  },
  ngram: {
    key: "ngram",
    kind: "number",
    default: NGRAM_DEFAULTS.n,
    short: "n-gram",
    label: "n-gram n",
    min: 1,
    step: 1,
    valid: ngramValid,
    rule: "a positive integer",
    source: "benchmax n=3",
    testId: "settings-ngram",
    flag: {
      name: "ngram",
      metavar: "N",
      help: "character n-gram length for diversity clusters (default {default})",
      group: "analysis",
    },
  },
  similarity: {
    key: "similarity",
    kind: "number",
    default: NGRAM_DEFAULTS.threshold,
    short: "similarity",
    label: "Similarity",
    min: 0,
    max: 1,
    step: 0.05,
    valid: similarityValid,
    rule: "in [0, 1]",
    source: "benchmax threshold 0.5",
    testId: "settings-similarity",
    flag: {
      name: "similarity",
      metavar: "S",
      help: "Jaccard threshold that links two rollouts (default {default})",
      group: "analysis",
    },
  },
  similarityOn: {
    key: "similarityOn",
    kind: "choice",
    default: "both",
    label: "Similarity compares",
    options: [
      { value: "both", label: "both" },
      { value: "text", label: "text" },
      { value: "tools", label: "tool calls" },
    ],
    source: `issue 13: ${SIMILARITY_ON_TEXT.both("n")} (benchmax compares the text only: "text")`,
    testId: "settings-similarity-on",
    flag: {
      name: "similarity-on",
      help:
        "what clusters compare: the mean of the text's and the tool-call\n" +
        "sequence's Jaccard (default {default}; text alone without tool calls)",
      group: "analysis",
    },
  },
  tieCredit: {
    key: "tieCredit",
    kind: "number-choice",
    default: 0,
    short: "tie",
    label: "Tie counts",
    options: [
      { value: 0, label: "0 (benchmax)" },
      { value: 0.5, label: "0.5 (Pref-GRPO)" },
    ],
    source: "benchmax seed: 0 (Pref-GRPO: 0.5)",
    testId: "settings-tie",
    flag: {
      name: "tie",
      metavar: "0|0.5",
      help: "win-rate credit for a tie (default {default}, the benchmax seed)",
      group: "analysis",
    },
  },
  rankTies: {
    key: "rankTies",
    kind: "choice",
    default: "average",
    short: "rank ties",
    label: "Rank ties",
    options: [
      { value: "average", label: "share their mean position" },
      { value: "index", label: "by index (benchmax seed)" },
    ],
    source: "benchmax rubric ranking's tier midpoints (methods.md 1.7); the seed sorts by index",
    testId: "settings-rank-ties",
    flag: {
      name: "rank-ties",
      help: "equal rewards in the rank: mean position (default) or index order",
      group: "analysis",
    },
  },
  completionRule: {
    key: "completionRule",
    kind: "choice",
    default: "final-assistant",
    short: "text",
    label: "Text compared",
    options: [
      { value: "final-assistant", label: "final assistant message" },
      { value: "benchmax", label: "last message if assistant" },
      { value: "all-assistant", label: "all assistant text" },
    ],
    source: "methods.md 6.5",
    testId: "settings-text",
    flag: {
      name: "text",
      help: "which text clustering compares (default {default})",
      group: "gar",
    },
  },
  textChars: {
    key: "textChars",
    kind: "number",
    default: TEXT_CHARS_DEFAULT,
    short: "text analysed",
    label: "Text analysed per rollout",
    min: 1,
    // Any whole number is valid: a coarser step would mark the default (200,000) invalid.
    step: 1,
    valid: textCharsValid,
    rule: "a positive integer",
    help:
      "Characters of each rollout's text that diversity clusters, Find similar and Divergence read " +
      "(a tool result's or call's text too): a longer text is compared by its first this many " +
      "characters, and the views say how many texts were cut. Lengths in Metrics stay whole. " +
      "rollout-studio analyze --text-chars N takes the same setting.",
    source: "issue 16: a 50 MB completion stays cheap (the CLI's --text-chars, same default)",
    testId: "settings-text-chars",
    flag: {
      name: "text-chars",
      metavar: "N",
      help:
        "text analysed per rollout: clusters read at most the first N\n" +
        "characters of each text (default {default}, as the studio); lengths\n" +
        "stay whole",
      group: "analysis",
    },
  },
};

/** Every analysis setting's declaration, in the form's order. */
export const ANALYSIS_SETTING_SCHEMA: readonly AnalysisSettingDecl[] = Object.values(SETTINGS);

/** One setting's declaration. */
export function analysisSettingDecl<K extends AnalysisSettingKey>(
  key: K,
): Extract<AnalysisSettingDecl, { readonly key: K }> {
  return SETTINGS[key];
}
