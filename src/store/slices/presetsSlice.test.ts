import { ANALYSIS_DEFAULTS, HEALTH_DEFAULTS } from "../../core/index.ts";
import { afterEach, describe, expect, it } from "vitest";
import { PERSIST_KEY, useStore } from "../index.ts";
import { mappingToFormatOptions, readPresets, type FieldMapping } from "./presetsSlice.ts";

const mapping: FieldMapping = {
  groupKey: "question",
  idKey: "",
  textKey: "sample",
  rewardKeys: ["score"],
};

afterEach(() => {
  useStore.setState({ presets: [] });
  localStorage.clear();
});

describe("presets slice", () => {
  it("saves, replaces by name and deletes presets", () => {
    const { savePreset, deletePreset } = useStore.getState();
    savePreset(" qa ", mapping);
    savePreset("other", { ...mapping, idKey: "id" });
    savePreset("qa", { ...mapping, rewardKeys: ["a", "b"] });
    expect(useStore.getState().presets).toEqual([
      { name: "qa", mapping: { ...mapping, rewardKeys: ["a", "b"] } },
      { name: "other", mapping: { ...mapping, idKey: "id" } },
    ]);
    deletePreset("qa");
    expect(useStore.getState().presets.map((p) => p.name)).toEqual(["other"]);
  });

  it("ignores a blank name", () => {
    useStore.getState().savePreset("  ", mapping);
    expect(useStore.getState().presets).toEqual([]);
  });

  it("persists the presets, the settings and the judge's preferences, never the dataset", () => {
    useStore.getState().savePreset("qa", mapping);
    const stored: unknown = JSON.parse(localStorage.getItem(PERSIST_KEY) ?? "null");
    // The judge connection is persisted only once the user set it (judgeSlice.test.ts).
    expect(stored).toEqual({
      state: {
        presets: [{ name: "qa", mapping }],
        settings: ANALYSIS_DEFAULTS,
        healthSettings: HEALTH_DEFAULTS,
        judgeTemplates: {},
        judgeGarSource: "human-only",
      },
      version: 1,
    });
  });

  it("rehydrates valid presets from storage", async () => {
    localStorage.setItem(
      PERSIST_KEY,
      JSON.stringify({ state: { presets: [{ name: "saved", mapping }] }, version: 1 }),
    );
    await useStore.persist.rehydrate();
    expect(useStore.getState().presets).toEqual([{ name: "saved", mapping }]);
    expect(useStore.getState().load).toEqual({ status: "idle" });
  });
});

describe("readPresets", () => {
  it("drops invalid entries and later duplicates, and fills optional fields", () => {
    expect(
      readPresets({
        presets: [
          { name: "a", mapping: { groupKey: "g", textKey: "t" } },
          { name: "a", mapping: { groupKey: "x", textKey: "y" } },
          { name: "", mapping },
          { name: "b", mapping: { groupKey: "", textKey: "t" } },
          { name: "c", mapping: { groupKey: "g", textKey: "t", idKey: 3, rewardKeys: "r" } },
          "junk",
        ],
      }),
    ).toEqual([
      { name: "a", mapping: { groupKey: "g", textKey: "t", idKey: "", rewardKeys: [] } },
      { name: "c", mapping: { groupKey: "g", textKey: "t", idKey: "", rewardKeys: [] } },
    ]);
  });

  it.each([null, 3, "x", {}, { presets: "x" }])("reads %j as no presets", (value) => {
    expect(readPresets(value)).toEqual([]);
  });
});

describe("mappingToFormatOptions", () => {
  it("leaves out an empty id", () => {
    expect(mappingToFormatOptions(mapping)).toEqual({
      groupKey: "question",
      textKey: "sample",
      rewardKeys: ["score"],
    });
    expect(mappingToFormatOptions({ ...mapping, idKey: "uid" })).toMatchObject({ idKey: "uid" });
  });
});
