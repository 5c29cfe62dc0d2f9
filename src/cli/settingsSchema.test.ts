/**
 * Covers: the CLI's settings come from core's settings schema. A setting added in a fixture
 * (src/test/settingFixture.ts) is a flag, checked with an error naming it, and in --help with its
 * default, with no other edit; the real schema's flags keep their errors.
 */
import { describe, expect, it } from "vitest";
import { ANALYSIS_SETTING_SCHEMA, settingFlagOptions } from "../core/index.ts";
import { SCHEMA_WITH_KNOB } from "../test/settingFixture.ts";
import { analyzeUsage } from "./commands/analyze.ts";
import { settingsFromFlagsWith, UsageError } from "./settings.ts";

describe("a setting added to the schema, in the CLI", () => {
  it("is a flag, checked with an error naming it, and in --help with its default", () => {
    expect(settingFlagOptions(SCHEMA_WITH_KNOB, "analysis")).toMatchObject({
      knob: { type: "string" },
    });
    expect(settingsFromFlagsWith(SCHEMA_WITH_KNOB, { knob: "5" })).toMatchObject({
      knob: 5,
      cap: 3,
    });
    expect(settingsFromFlagsWith(SCHEMA_WITH_KNOB, {})).toMatchObject({ knob: 3 });
    expect(() => settingsFromFlagsWith(SCHEMA_WITH_KNOB, { knob: "0" })).toThrow(UsageError);
    expect(() => settingsFromFlagsWith(SCHEMA_WITH_KNOB, { knob: "x" })).toThrow(
      "--knob must be a positive integer; got x",
    );
    expect(analyzeUsage(SCHEMA_WITH_KNOB)).toMatch(
      /\n {2}--knob K +the fixture's knob \(default 3\)\n/,
    );
  });
});

describe("the analysis settings' flags", () => {
  it("keep their errors, and --no-hack-zero turns zeroing off", () => {
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
});
