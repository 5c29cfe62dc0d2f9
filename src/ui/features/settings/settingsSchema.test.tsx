/**
 * Covers: one declaration per setting (core/settings). A setting added to the schema in a fixture
 * appears in the store's reader, the CLI's flags, their errors and --help, and the settings form,
 * with no other edit; and the real schema is what the store, the CLI and the form use.
 */
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { analyzeUsage } from "../../../cli/commands/analyze.ts";
import { settingsFromFlagsWith, UsageError } from "../../../cli/settings.ts";
import {
  ANALYSIS_DEFAULTS,
  ANALYSIS_SETTING_SCHEMA,
  COMPLETION_RULES,
  settingDefaults,
  settingFlagOptions,
  SIMILARITY_ON,
  type SettingDecl,
} from "../../../core/index.ts";
import { readSettings, readSettingsWith } from "../../../store/slices/settingsSlice.ts";
import { settingField, SETTING_FIELDS } from "./settingFields.ts";
import { SettingsForm } from "./SettingsPanel.tsx";

const KNOB: SettingDecl<"knob"> = {
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
const SCHEMA: readonly SettingDecl[] = [...ANALYSIS_SETTING_SCHEMA, KNOB];

afterEach(cleanup);

describe("a setting added to the schema", () => {
  it("is read back by the store: kept when valid, its default otherwise", () => {
    expect(readSettingsWith(SCHEMA, { settings: { knob: 7, cap: 2 } })).toMatchObject({
      knob: 7,
      cap: 2,
    });
    expect(readSettingsWith(SCHEMA, { settings: { knob: 0 } })).toMatchObject({ knob: 3 });
    expect(readSettingsWith(SCHEMA, {})).toEqual({
      ...settingDefaults(SCHEMA),
      rewardWeights: null,
    });
  });

  it("is a CLI flag, checked with an error naming it, and in --help with its default", () => {
    expect(settingFlagOptions(SCHEMA, "analysis")).toMatchObject({ knob: { type: "string" } });
    expect(settingsFromFlagsWith(SCHEMA, { knob: "5" })).toMatchObject({ knob: 5, cap: 3 });
    expect(settingsFromFlagsWith(SCHEMA, {})).toMatchObject({ knob: 3 });
    expect(() => settingsFromFlagsWith(SCHEMA, { knob: "0" })).toThrow(UsageError);
    expect(() => settingsFromFlagsWith(SCHEMA, { knob: "x" })).toThrow(
      "--knob must be a positive integer; got x",
    );
    expect(analyzeUsage(SCHEMA)).toMatch(/\n {2}--knob K +the fixture's knob \(default 3\)\n/);
  });

  it("is in the settings form, and only a valid value reaches the store", () => {
    const onChange = vi.fn();
    const fields = SCHEMA.map((d) => settingField(d));
    render(
      <SettingsForm
        fields={fields}
        values={settingDefaults(SCHEMA)}
        resets={0}
        onChange={onChange}
      />,
    );
    const input = screen.getByTestId("settings-knob");
    expect(screen.getByText("Fixture knob")).toBeTruthy();
    fireEvent.change(input, { target: { value: "0" } });
    expect(onChange).not.toHaveBeenCalled();
    fireEvent.change(input, { target: { value: "5" } });
    expect(onChange).toHaveBeenCalledWith("knob", 5);
  });
});

describe("the analysis settings schema", () => {
  it("gives the defaults, the store's reader, the CLI's flags and the form", () => {
    expect(settingDefaults(ANALYSIS_SETTING_SCHEMA)).toEqual(
      Object.fromEntries(Object.entries(ANALYSIS_DEFAULTS).filter(([k]) => k !== "rewardWeights")),
    );
    expect(readSettings({ settings: { scale: "none", eps: -1 } })).toEqual({
      ...ANALYSIS_DEFAULTS,
      scale: "none",
    });
    expect(SETTING_FIELDS.map((f) => f.key)).toEqual(ANALYSIS_SETTING_SCHEMA.map((d) => d.key));
    expect(() => settingsFromFlagsWith(ANALYSIS_SETTING_SCHEMA, { tie: "0.3" })).toThrow(
      "--tie must be 0 or 0.5; got 0.3",
    );
    expect(() => settingsFromFlagsWith(ANALYSIS_SETTING_SCHEMA, { scale: "x" })).toThrow(
      "--scale must be one of group, batch, none; got x",
    );
    expect(settingsFromFlagsWith(ANALYSIS_SETTING_SCHEMA, { "no-hack-zero": true }).hackZero).toBe(
      false,
    );
  });

  it("offers exactly the values core's types take", () => {
    const options = (key: string) =>
      ANALYSIS_SETTING_SCHEMA.flatMap((d) =>
        d.key === key && d.kind === "choice" ? d.options.map((o) => o.value) : [],
      );
    expect(options("completionRule")).toEqual([...COMPLETION_RULES]);
    expect(options("similarityOn")).toEqual([...SIMILARITY_ON]);
  });
});
