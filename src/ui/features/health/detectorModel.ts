/**
 * The run view's detectors (issue 19): core's five rules (core/run/detectors.ts) as the panel
 * lists them, each with its formula (a tooltip), the steps where it fired, its alerts, or why it
 * could not run, and the thresholds it reads as form fields derived from core's health settings
 * schema (core/settings/healthSchema.ts). The window, the trend tests' significance and the
 * diversity sample are every rule's, listed once. Pure.
 */
import {
  HEALTH_RULES,
  HEALTH_SETTING_SCHEMA,
  type DetectorResult,
  type HealthAlert,
  type HealthRule,
  type HealthSettings,
} from "../../../core/index.ts";
import { settingField, type SettingField } from "../../components/settingField.ts";

export type HealthSettingKey = keyof HealthSettings;

/** The settings every rule reads: the trend tests' window and level, the diversity sample. */
export const SHARED_HEALTH_SETTINGS: readonly HealthSettingKey[] = [
  "window",
  "trendAlpha",
  "clusterSample",
];

/** The thresholds of each rule (the formulas of core/run/detectors.ts say where each enters). */
export const RULE_HEALTH_SETTINGS: Readonly<Record<HealthRule, readonly HealthSettingKey[]>> = {
  "zero-std": ["zeroStdMax", "zeroStdRise"],
  "length-drift": ["lengthRise", "passFlat"],
  "diversity-collapse": ["diversityDrop"],
  "component-dominance": ["dominanceShare"],
  "hack-spread": ["hackSpreadMax"],
};

const FIELDS = new Map(HEALTH_SETTING_SCHEMA.map((d) => [d.key, settingField(d)]));

/** The form fields of these settings, in the schema's order. */
export function healthFields(keys: readonly HealthSettingKey[]): SettingField<HealthSettingKey>[] {
  return HEALTH_SETTING_SCHEMA.filter((d) => keys.includes(d.key)).map((d) => FIELDS.get(d.key)!);
}

export type DetectorStatus = "fired" | "quiet" | "idle";

export interface DetectorRow {
  readonly rule: HealthRule;
  readonly label: string;
  readonly formula: string;
  readonly status: DetectorStatus;
  /** "fired at 3 steps", "quiet", "idle: needs 5 steps (the window); the run has 3". */
  readonly statusText: string;
  readonly fired: readonly number[];
  /** The fired steps comma-joined, for `data-fired`. */
  readonly firedAttribute: string;
  readonly alerts: readonly HealthAlert[];
  readonly fields: readonly SettingField<HealthSettingKey>[];
  /** What the rule's series are over when that is not every group (an indexed file), or null. */
  readonly over: string | null;
}

/**
 * The rules that read a series of the parsed groups only, in an indexed file: completion length,
 * clusters, component variance and the hack-like share (zero-std reads every group's rewards).
 */
export const PARSED_SERIES_RULES: readonly HealthRule[] = [
  "length-drift",
  "diversity-collapse",
  "component-dominance",
  "hack-spread",
];

/**
 * Each rule's row, in core's rule order. `parsed` ("over the 20 of 480 groups parsed") is said of
 * the rules reading parsed groups' series, when not every group is parsed.
 */
export function detectorRows(
  results: readonly DetectorResult[],
  parsed: string | null = null,
): DetectorRow[] {
  const byRule = new Map(results.map((r) => [r.rule, r]));
  return HEALTH_RULES.flatMap((rule): DetectorRow[] => {
    const r = byRule.get(rule);
    if (r === undefined) return [];
    const status: DetectorStatus =
      r.idle !== null ? "idle" : r.fired.length > 0 ? "fired" : "quiet";
    const n = r.fired.length;
    return [
      {
        rule,
        label: r.label,
        formula: r.formula,
        status,
        statusText:
          status === "idle"
            ? `idle: ${r.idle}`
            : status === "fired"
              ? `fired at ${n} step${n === 1 ? "" : "s"}`
              : "quiet: did not fire",
        fired: r.fired,
        firedAttribute: r.fired.join(","),
        alerts: r.alerts,
        fields: healthFields(RULE_HEALTH_SETTINGS[rule]),
        over: PARSED_SERIES_RULES.includes(rule) ? parsed : null,
      },
    ];
  });
}

/** The steps where a rule fired (none while it is idle), for the charts' marks. */
export function firedSteps(
  results: readonly DetectorResult[],
  rule: HealthRule,
): readonly number[] {
  const r = results.find((x) => x.rule === rule);
  return r === undefined || r.idle !== null ? [] : r.fired;
}
