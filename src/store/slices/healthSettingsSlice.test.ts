/**
 * Covers: the run's health settings in the store (issue 19). A valid value is kept and one its
 * declaration refuses is ignored; reset goes back to core's defaults; stored values are read back
 * field by field (a bad one falls back to its default, never the whole set), and the page's
 * store persists them; every health setting of core's schema is in the store, with its default.
 */
import { afterEach, describe, expect, it } from "vitest";
import { HEALTH_DEFAULTS, HEALTH_SETTING_SCHEMA } from "../../core/index.ts";
import { createPlainStore } from "../createStore.ts";
import { PERSIST_KEY, useStore } from "../index.ts";
import { readHealthSettings } from "./healthSettingsSlice.ts";

describe("the health settings slice", () => {
  it("starts at core's defaults, one value per declared setting", () => {
    const store = createPlainStore();
    expect(store.getState().healthSettings).toEqual(HEALTH_DEFAULTS);
    expect(Object.keys(store.getState().healthSettings).sort()).toEqual(
      HEALTH_SETTING_SCHEMA.map((d) => d.key).sort(),
    );
  });

  it("keeps a valid value and ignores one the declaration refuses", () => {
    const store = createPlainStore();
    store.getState().setHealthSetting("window", 7);
    store.getState().setHealthSetting("zeroStdMax", 0.3);
    expect(store.getState().healthSettings).toEqual({
      ...HEALTH_DEFAULTS,
      window: 7,
      zeroStdMax: 0.3,
    });
    // A window under 3 steps, a share above 1, a fractional sample, a string: all refused.
    store.getState().setHealthSetting("window", 2);
    store.getState().setHealthSetting("zeroStdMax", 1.5);
    store.getState().setHealthSetting("clusterSample", 2.5);
    store.getState().setHealthSetting("trendAlpha", "0.1");
    expect(store.getState().healthSettings).toEqual({
      ...HEALTH_DEFAULTS,
      window: 7,
      zeroStdMax: 0.3,
    });
  });

  it("resets to the defaults and counts the reset", () => {
    const store = createPlainStore();
    store.getState().setHealthSetting("lengthRise", 0.5);
    store.getState().resetHealthSettings();
    expect(store.getState().healthSettings).toEqual(HEALTH_DEFAULTS);
    expect(store.getState().healthSettingsResets).toBe(1);
  });
});

describe("the page's store", () => {
  afterEach(() => {
    useStore.getState().resetHealthSettings();
    localStorage.clear();
  });

  it("persists the health settings and reads them back, a bad value as its default", async () => {
    useStore.getState().setHealthSetting("hackSpreadMax", 0.2);
    const stored = JSON.parse(localStorage.getItem(PERSIST_KEY) ?? "null") as {
      state: { healthSettings: unknown };
    };
    expect(stored.state.healthSettings).toEqual({ ...HEALTH_DEFAULTS, hackSpreadMax: 0.2 });
    localStorage.setItem(
      PERSIST_KEY,
      JSON.stringify({ state: { healthSettings: { window: 8, zeroStdMax: 7 } }, version: 1 }),
    );
    await useStore.persist.rehydrate();
    expect(useStore.getState().healthSettings).toEqual({ ...HEALTH_DEFAULTS, window: 8 });
  });
});

describe("readHealthSettings", () => {
  it("keeps every valid stored field", () => {
    const stored = { ...HEALTH_DEFAULTS, window: 9, hackSpreadMax: 0.25, clusterSample: 0 };
    expect(readHealthSettings({ healthSettings: stored })).toEqual(stored);
  });

  it("falls back field by field on invalid values, and to the defaults without any", () => {
    expect(
      readHealthSettings({
        healthSettings: { window: 1, trendAlpha: 0, passFlat: 0.1, dominanceShare: "most" },
      }),
    ).toEqual({ ...HEALTH_DEFAULTS, passFlat: 0.1 });
    expect(readHealthSettings(null)).toEqual(HEALTH_DEFAULTS);
    expect(readHealthSettings({ healthSettings: [1, 2] })).toEqual(HEALTH_DEFAULTS);
    // The analysis settings' record is not read as health settings.
    expect(readHealthSettings({ settings: { window: 9 } })).toEqual(HEALTH_DEFAULTS);
  });
});
