/**
 * Covers: the store reads the settings back through core's settings schema. A setting added in a
 * fixture (src/test/settingFixture.ts) is read back with no other edit: kept when valid, its
 * default otherwise; and a declared setting is set only to a value its declaration takes.
 */
import { describe, expect, it } from "vitest";
import { ANALYSIS_DEFAULTS, settingDefaults } from "../../core/index.ts";
import { SCHEMA_WITH_KNOB } from "../../test/settingFixture.ts";
import { createPlainStore } from "../createStore.ts";
import { readSettings, readSettingsWith } from "./settingsSlice.ts";

describe("a setting added to the schema, in the store", () => {
  it("is read back: kept when valid, its default otherwise", () => {
    expect(readSettingsWith(SCHEMA_WITH_KNOB, { settings: { knob: 7, cap: 2 } })).toMatchObject({
      knob: 7,
      cap: 2,
    });
    expect(readSettingsWith(SCHEMA_WITH_KNOB, { settings: { knob: 0 } })).toMatchObject({
      knob: 3,
    });
    expect(readSettingsWith(SCHEMA_WITH_KNOB, {})).toEqual({
      ...settingDefaults(SCHEMA_WITH_KNOB),
      rewardWeights: null,
    });
  });
});

describe("the store's settings", () => {
  it("are read with the analysis schema, and set only to values it takes", () => {
    expect(readSettings({ settings: { scale: "none", eps: -1 } })).toEqual({
      ...ANALYSIS_DEFAULTS,
      scale: "none",
    });
    const store = createPlainStore();
    store.getState().setSettingValue("cap", 0.5);
    expect(store.getState().settings.cap).toBe(ANALYSIS_DEFAULTS.cap);
    store.getState().setSettingValue("cap", 2);
    store.getState().setSettingValue("scale", "nope");
    store.getState().setSettingValue("tieCredit", 0.5);
    expect(store.getState().settings).toEqual({
      ...ANALYSIS_DEFAULTS,
      cap: 2,
      tieCredit: 0.5,
    });
  });
});
