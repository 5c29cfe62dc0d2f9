/**
 * Every setting the panel shows: its label, its control, its default and where that default comes
 * from (methods.md sections 1.7, 2.7, 3.2 and 6). The README's settings table says the same.
 */
import {
  ANALYSIS_DEFAULTS,
  SIMILARITY_ON_TEXT,
  textCharsValid,
  type AnalysisSettings,
} from "../../../core/index.ts";

interface Base<K extends keyof AnalysisSettings> {
  readonly key: K;
  readonly label: string;
  /** Where the default comes from. */
  readonly source: string;
  /** The stable test id (the issue fixes `settings-scale`; the others follow the pattern). */
  readonly testId: string;
  /** Its name in the dataset bar's summary of changed settings ("scale none"); the label by default. */
  readonly short?: string;
  /** What the setting does, when its label does not say it: the start of its tooltip. */
  readonly help?: string;
}

export type SettingField =
  | (Base<
      "scale" | "std" | "completionRule" | "estimator" | "aggregation" | "rankTies" | "similarityOn"
    > & {
      readonly control: "select";
      readonly options: readonly { readonly value: string; readonly label: string }[];
    })
  | (Base<"tieCredit"> & { readonly control: "tie" })
  | (Base<"eps" | "passThreshold" | "cap" | "minFactor" | "ngram" | "similarity" | "textChars"> & {
      readonly control: "number";
      readonly min?: number;
      readonly max?: number;
      readonly step: number;
      /** Accepts a typed value (the store is only updated with valid ones). */
      readonly valid: (x: number) => boolean;
    })
  | (Base<"hackZero"> & { readonly control: "checkbox" });

export const SETTING_FIELDS: readonly SettingField[] = [
  {
    key: "estimator",
    short: "estimator",
    label: "Estimator",
    control: "select",
    options: [
      { value: "grpo", label: "GRPO" },
      { value: "rloo", label: "RLOO (leave one out)" },
    ],
    source: "GRPO, as TRL and verl",
    testId: "settings-estimator",
  },
  {
    key: "scale",
    short: "scale",
    label: "Std scaling",
    control: "select",
    options: [
      { value: "group", label: "group" },
      { value: "batch", label: "batch" },
      { value: "none", label: "none" },
    ],
    source: 'TRL scale_rewards="group"; "none" is Dr. GRPO',
    testId: "settings-scale",
  },
  {
    key: "eps",
    short: "eps",
    label: "Epsilon",
    control: "number",
    min: 0,
    step: 1e-4,
    valid: (x) => x >= 0,
    source: "TRL 1e-4 (verl 1e-6)",
    testId: "settings-eps",
  },
  {
    key: "std",
    short: "std",
    label: "Std",
    control: "select",
    options: [
      { value: "sample", label: "sample (n-1)" },
      { value: "population", label: "population (n)" },
    ],
    source: "TRL, verl: sample",
    testId: "settings-std",
  },
  {
    key: "aggregation",
    short: "components",
    label: "Reward components",
    control: "select",
    options: [
      { value: "sum_then_normalize", label: "sum, then normalise" },
      { value: "normalize_then_sum", label: "normalise each, then sum (GDPO)" },
    ],
    source: 'TRL multi_objective_aggregation="sum_then_normalize"',
    testId: "settings-aggregation",
  },
  {
    key: "passThreshold",
    short: "pass ≥",
    label: "Pass threshold",
    control: "number",
    step: 0.05,
    valid: Number.isFinite,
    source: "whileai: reward >= 0.5",
    testId: "settings-pass-threshold",
  },
  {
    key: "cap",
    short: "cap",
    label: "GAR cap",
    control: "number",
    min: 1,
    step: 0.5,
    valid: (x) => x >= 1,
    source: "whileai GROUPWISE_CAP",
    testId: "settings-cap",
  },
  {
    key: "minFactor",
    short: "min factor",
    label: "GAR min factor",
    control: "number",
    min: 0.01,
    max: 1,
    step: 0.05,
    valid: (x) => x > 0 && x <= 1,
    source: "whileai GROUPWISE_MIN_FACTOR",
    testId: "settings-min-factor",
  },
  {
    key: "hackZero",
    short: "zero hacks",
    label: "Zero hacks",
    control: "checkbox",
    source: "whileai hack_zero=True",
    testId: "settings-hack-zero",
  },
  {
    key: "ngram",
    short: "n-gram",
    label: "n-gram n",
    control: "number",
    min: 1,
    step: 1,
    valid: (x) => Number.isInteger(x) && x >= 1,
    source: "benchmax n=3",
    testId: "settings-ngram",
  },
  {
    key: "similarity",
    short: "similarity",
    label: "Similarity",
    control: "number",
    min: 0,
    max: 1,
    step: 0.05,
    valid: (x) => x >= 0 && x <= 1,
    source: "benchmax threshold 0.5",
    testId: "settings-similarity",
  },
  {
    key: "similarityOn",
    label: "Similarity compares",
    control: "select",
    options: [
      { value: "both", label: "both" },
      { value: "text", label: "text" },
      { value: "tools", label: "tool calls" },
    ],
    source: `issue 13: ${SIMILARITY_ON_TEXT.both("n")} (benchmax compares the text only: "text")`,
    testId: "settings-similarity-on",
  },
  {
    key: "tieCredit",
    short: "tie",
    label: "Tie counts",
    control: "tie",
    source: "benchmax seed: 0 (Pref-GRPO: 0.5)",
    testId: "settings-tie",
  },
  {
    key: "rankTies",
    short: "rank ties",
    label: "Rank ties",
    control: "select",
    options: [
      { value: "average", label: "share their mean position" },
      { value: "index", label: "by index (benchmax seed)" },
    ],
    source: "benchmax rubric ranking's tier midpoints (methods.md 1.7); the seed sorts by index",
    testId: "settings-rank-ties",
  },
  {
    key: "completionRule",
    short: "text",
    label: "Text compared",
    control: "select",
    options: [
      { value: "final-assistant", label: "final assistant message" },
      { value: "benchmax", label: "last message if assistant" },
      { value: "all-assistant", label: "all assistant text" },
    ],
    source: "methods.md 6.5",
    testId: "settings-text",
  },
  {
    key: "textChars",
    short: "text analysed",
    label: "Text analysed per rollout",
    control: "number",
    min: 1,
    // Any whole number is valid: a coarser step would mark the default (200,000) invalid.
    step: 1,
    valid: textCharsValid,
    help:
      "Characters of each rollout's text that diversity clusters, Find similar and Divergence read " +
      "(a tool result's or call's text too): a longer text is compared by its first this many " +
      "characters, and the views say how many texts were cut. Lengths in Metrics stay whole. " +
      "rollout-studio analyze --text-chars N takes the same setting.",
    source: "issue 16: a 50 MB completion stays cheap (the CLI's --text-chars, same default)",
    testId: "settings-text-chars",
  },
];

/** A field's tooltip: what it does (when it says), its default and where that comes from. */
export function settingHint(field: SettingField): string {
  const hint = `Default ${settingDefaultLabel(field)}: ${field.source}`;
  return field.help === undefined ? hint : `${field.help} ${hint}`;
}

/** The default of a field, as shown beside it. */
export function settingDefaultLabel(field: SettingField): string {
  const value = ANALYSIS_DEFAULTS[field.key];
  if (field.control === "select")
    return field.options.find((o) => o.value === value)?.label ?? String(value);
  if (field.control === "checkbox") return value ? "on" : "off";
  return String(value);
}

/** A number as the summary writes it: short, and 1e-6 rather than 0.000001. */
function shortNumber(x: number): string {
  return x !== 0 && Math.abs(x) < 1e-3 ? x.toExponential() : String(x);
}

/** The value of a field as the summary writes it: an option's value, on/off, or the number. */
function shortValue(field: SettingField, settings: AnalysisSettings): string {
  const value = settings[field.key];
  if (field.control === "checkbox") return value ? "on" : "off";
  if (typeof value === "number") return shortNumber(value);
  return String(value);
}

export interface SettingSummaryItem {
  readonly key: keyof AnalysisSettings;
  /** "scale none", "eps 1e-6". */
  readonly text: string;
  /** The field's label, its value and its default, for the tooltip. */
  readonly title: string;
}

/**
 * The settings that differ from their defaults, in the panel's order, as short chips for the
 * dataset bar (issue 13: the settings live in a side sheet, and what is in force stays in view).
 */
export function settingsSummary(settings: AnalysisSettings): SettingSummaryItem[] {
  const items: SettingSummaryItem[] = SETTING_FIELDS.filter(
    (field) => settings[field.key] !== ANALYSIS_DEFAULTS[field.key],
  ).map((field) => {
    const value = shortValue(field, settings);
    return {
      key: field.key,
      text: `${field.short ?? field.label.toLowerCase()} ${value}`,
      title: `${field.label}: ${value} (default ${settingDefaultLabel(field)})`,
    };
  });
  if (settings.rewardWeights !== null) {
    const weights = Object.entries(settings.rewardWeights)
      .map(([name, w]) => `${name} ${shortNumber(w)}`)
      .join(", ");
    items.push({
      key: "rewardWeights",
      text: "weighted components",
      title: `Reward weights: ${weights === "" ? "every component 1" : weights} (default off: the logged reward)`,
    });
  }
  return items;
}
