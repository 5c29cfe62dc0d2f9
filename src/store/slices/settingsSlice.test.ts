import { describe, expect, it } from "vitest";
import { ANALYSIS_DEFAULTS } from "../../core/index.ts";
import { readSettings } from "./settingsSlice.ts";

describe("readSettings", () => {
  it("keeps every valid stored field", () => {
    const stored = {
      ...ANALYSIS_DEFAULTS,
      scale: "none",
      aggregation: "normalize_then_sum",
      rewardWeights: { accuracy: 2, format: 0.5 },
      tieCredit: 0.5,
      rankTies: "index",
    };
    expect(readSettings({ settings: stored })).toEqual(stored);
  });

  it("falls back field by field on invalid values", () => {
    const read = readSettings({
      settings: {
        scale: "sideways",
        eps: -1,
        aggregation: 3,
        rewardWeights: { accuracy: "heavy" },
        ngram: 2.5,
        rankTies: "random",
        similarity: 0.7,
      },
    });
    expect(read).toEqual({ ...ANALYSIS_DEFAULTS, similarity: 0.7 });
    expect(readSettings(null)).toEqual(ANALYSIS_DEFAULTS);
    expect(readSettings({ settings: { rewardWeights: {} } }).rewardWeights).toBeNull();
  });
});
