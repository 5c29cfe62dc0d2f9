import { describe, expect, it } from "vitest";
import { ANALYSIS_DEFAULTS } from "../../../core/index.ts";
import { settingHint } from "../../components/settingField.ts";
import { SETTING_FIELDS, settingsSummary } from "./settingFields.ts";

describe("settingsSummary", () => {
  it("is empty at the defaults", () => {
    expect(settingsSummary(ANALYSIS_DEFAULTS)).toEqual([]);
  });

  it("names each changed setting with its value, in the panel's order, and its default in the title", () => {
    const items = settingsSummary({
      ...ANALYSIS_DEFAULTS,
      eps: 1e-6,
      scale: "none",
      hackZero: false,
      tieCredit: 0.5,
    });
    expect(items.map((i) => i.text)).toEqual([
      "scale none",
      "eps 1e-6",
      "zero hacks off",
      "tie 0.5",
    ]);
    expect(items[0]!.title).toBe("Std scaling: none (default group)");
    expect(items[1]!.title).toBe("Epsilon: 1e-6 (default 0.0001)");
  });

  it("says when reward weights replace the logged reward", () => {
    const [item] = settingsSummary({ ...ANALYSIS_DEFAULTS, rewardWeights: { format: 0.5 } });
    expect(item).toEqual({
      key: "rewardWeights",
      text: "weighted components",
      title: "Reward weights: format 0.5 (default off: the logged reward)",
    });
  });

  it("has a chip for a change of any field", () => {
    for (const field of SETTING_FIELDS) {
      const value = ANALYSIS_DEFAULTS[field.key];
      const changed =
        typeof value === "number"
          ? value + 1
          : typeof value === "boolean"
            ? !value
            : field.control === "select"
              ? field.options.find((o) => o.value !== value)!.value
              : value;
      const items = settingsSummary({ ...ANALYSIS_DEFAULTS, [field.key]: changed });
      expect(items.map((i) => i.key)).toEqual([field.key]);
    }
  });
});

describe("text analysed per rollout", () => {
  it("says in its tooltip what it bounds, what it leaves whole, and its default", () => {
    const field = SETTING_FIELDS.find((f) => f.key === "textChars")!;
    const hint = settingHint(field);
    expect(hint).toMatch(/diversity clusters/);
    expect(hint).toMatch(/Divergence/);
    expect(hint).toMatch(/Lengths in Metrics stay whole/);
    expect(hint).toMatch(/--text-chars/);
    expect(hint).toMatch(/Default 200000/);
  });
  it("takes whole numbers of characters only", () => {
    const field = SETTING_FIELDS.find((f) => f.key === "textChars")!;
    expect(field.control === "number" && field.valid(50_000)).toBe(true);
    expect(field.control === "number" && field.valid(0)).toBe(false);
    expect(field.control === "number" && field.valid(1.5)).toBe(false);
  });
});
