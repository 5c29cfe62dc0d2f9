/**
 * A setting added to the analysis settings schema in a fixture, for the tests that check it
 * reaches the store's reader (store/slices/settingsSlice.test.ts), the CLI's flags, errors and
 * --help (cli/settingsSchema.test.ts) and the settings form
 * (ui/features/settings/settingsSchema.test.tsx) with no other edit.
 */
import { ANALYSIS_SETTING_SCHEMA, type SettingDecl } from "../core/index.ts";

export const KNOB: SettingDecl<"knob"> = {
  key: "knob",
  kind: "number",
  default: 3,
  valid: (x) => Number.isInteger(x) && x >= 1,
  rule: "a positive integer",
  min: 1,
  step: 1,
  label: "Fixture knob",
  source: "a test fixture",
  testId: "settings-knob",
  flag: {
    name: "knob",
    metavar: "K",
    help: "the fixture's knob (default {default})",
    group: "analysis",
  },
};

/** The analysis settings and the fixture's. */
export const SCHEMA_WITH_KNOB: readonly SettingDecl[] = [...ANALYSIS_SETTING_SCHEMA, KNOB];
