/**
 * The run's health settings (issue 19), declared once like the analysis settings
 * (./analysisSchema.ts): the window of the trend tests, each detector's threshold, and how many
 * groups per step the diversity series clusters. The run view's detector form, the store's reader
 * and `rollout-studio health`'s flags, errors and help all derive from this list. The formulas
 * each threshold enters are in core/run/detectors.ts (`DETECTOR_FORMULAS`).
 */
import { settingDefaults, type SettingDecl } from "./settingDecl.ts";

/** The run's health settings: numbers, by key (see each declaration's help). */
export interface HealthSettings {
  readonly window: number;
  readonly trendAlpha: number;
  readonly zeroStdMax: number;
  readonly zeroStdRise: number;
  readonly lengthRise: number;
  readonly passFlat: number;
  readonly diversityDrop: number;
  readonly dominanceShare: number;
  readonly hackSpreadMax: number;
  readonly clusterSample: number;
}

/** A health setting's declaration: a number. */
export type HealthSettingDecl = SettingDecl<keyof HealthSettings> & {
  readonly kind: "number";
  readonly default: number;
};

const share = (x: number): boolean => x >= 0 && x <= 1;
const openShare = (x: number): boolean => x > 0 && x < 1;
const windowValid = (x: number): boolean => Number.isInteger(x) && x >= 3;
const sampleValid = (x: number): boolean => Number.isInteger(x) && x >= 0;

/** Every health setting in the form's (and the help's) order. */
export const HEALTH_SETTING_SCHEMA: readonly HealthSettingDecl[] = [
  {
    key: "window",
    kind: "number",
    default: 5,
    label: "Window (steps)",
    help: "How many consecutive steps each trend test reads (the window ends at the step it reports).",
    min: 3,
    step: 1,
    valid: windowValid,
    rule: "an integer >= 3",
    source: "five steps: enough for a slope test, short enough to warn early",
    testId: "health-window",
    flag: {
      name: "window",
      metavar: "N",
      help: "steps each trend test reads (default {default})",
      group: "health",
    },
  },
  {
    key: "trendAlpha",
    kind: "number",
    default: 0.05,
    label: "Trend significance",
    help: "The one-sided p-value below which a slope over the window counts as rising or falling.",
    min: 0,
    max: 1,
    step: 0.01,
    valid: openShare,
    rule: "in (0, 1)",
    source: "the usual 5% level",
    testId: "health-trend-alpha",
    flag: {
      name: "trend-alpha",
      metavar: "P",
      help: "p-value of the slope tests (default {default})",
      group: "health",
    },
  },
  {
    key: "zeroStdMax",
    kind: "number",
    default: 0.5,
    label: "Zero-std share above",
    help: "zero-std fires where more than this share of a step's groups have one reward for every rollout (they teach nothing).",
    min: 0,
    max: 1,
    step: 0.05,
    valid: share,
    rule: "in [0, 1]",
    source: "half the batch carrying no signal",
    testId: "health-zero-std-max",
    flag: {
      name: "zero-std-max",
      metavar: "S",
      help: "zero-std fires above this share of groups (default {default})",
      group: "health",
    },
  },
  {
    key: "zeroStdRise",
    kind: "number",
    default: 0.2,
    label: "Zero-std rise over the window",
    help: "zero-std also fires where the share rises significantly by at least this much across the window.",
    min: 0,
    max: 1,
    step: 0.05,
    valid: share,
    rule: "in [0, 1]",
    source: "a fifth of the batch going flat within one window",
    testId: "health-zero-std-rise",
    flag: {
      name: "zero-std-rise",
      metavar: "S",
      help: "or when the share rises this much over the window (default {default})",
      group: "health",
    },
  },
  {
    key: "lengthRise",
    kind: "number",
    default: 0.1,
    label: "Length rise over the window",
    help: "length-drift fires where mean completion characters rise significantly, by at least this fraction of the window's first fitted value, while the pass rate is flat.",
    min: 0,
    step: 0.05,
    valid: (x: number) => x >= 0,
    rule: "a number >= 0",
    source: "10% longer within one window: 2.5% a step over five steps",
    testId: "health-length-rise",
    flag: {
      name: "length-rise",
      metavar: "F",
      help: "length-drift: relative rise over the window (default {default})",
      group: "health",
    },
  },
  {
    key: "passFlat",
    kind: "number",
    default: 0.05,
    label: "Flat pass rate within",
    help: "The pass rate counts as flat while its fitted change across the window is below this (absolute).",
    min: 0,
    max: 1,
    step: 0.01,
    valid: share,
    rule: "in [0, 1]",
    source: "five points of pass rate",
    testId: "health-pass-flat",
    flag: {
      name: "pass-flat",
      metavar: "D",
      help: "length-drift: the pass rate is flat below this change (default {default})",
      group: "health",
    },
  },
  {
    key: "diversityDrop",
    kind: "number",
    default: 0.2,
    label: "Diversity fall over the window",
    help: "diversity-collapse fires where clusters per group fall significantly, by at least this fraction of the window's first fitted value.",
    min: 0,
    max: 1,
    step: 0.05,
    valid: share,
    rule: "in [0, 1]",
    source: "a fifth of the distinct answers gone within one window",
    testId: "health-diversity-drop",
    flag: {
      name: "diversity-drop",
      metavar: "F",
      help: "diversity-collapse: relative fall over the window (default {default})",
      group: "health",
    },
  },
  {
    key: "dominanceShare",
    kind: "number",
    default: 0.8,
    label: "Component share of the variance",
    help: "component-dominance fires where one reward component carries at least this share of the within-group variance of the total.",
    min: 0,
    max: 1,
    step: 0.05,
    valid: openShare,
    rule: "in (0, 1)",
    source: "four fifths of what the advantage sees",
    testId: "health-dominance-share",
    flag: {
      name: "dominance-share",
      metavar: "S",
      help: "component-dominance: one component's variance share (default {default})",
      group: "health",
    },
  },
  {
    key: "hackSpreadMax",
    kind: "number",
    default: 0.1,
    label: "Hack-like share above",
    help: "hack-spread fires where more than this share of a step's rollouts are within the similarity threshold of a rollout a person marked as a hack.",
    min: 0,
    max: 1,
    step: 0.01,
    valid: share,
    rule: "in [0, 1]",
    source: "one rollout in ten copying a known hack",
    testId: "health-hack-spread-max",
    flag: {
      name: "hack-spread-max",
      metavar: "S",
      help: "hack-spread fires above this share of rollouts (default {default})",
      group: "health",
    },
  },
  {
    key: "clusterSample",
    kind: "number",
    default: 200,
    label: "Groups clustered per step",
    help: "The diversity series clusters at most this many groups of each step, picked by a hash of their ids (the same ones every time); 0 clusters every group.",
    min: 0,
    step: 50,
    valid: sampleValid,
    rule: "an integer >= 0",
    source: "clustering is most of the cost of a large run; 200 groups give the mean to about ±0.1",
    testId: "health-cluster-sample",
    flag: {
      name: "cluster-sample",
      metavar: "N",
      help: "groups clustered per step for the diversity series, 0 = all (default {default})",
      group: "health",
    },
  },
];

/** Every health setting's default. */
export const HEALTH_DEFAULTS: HealthSettings = settingDefaults(HEALTH_SETTING_SCHEMA);
