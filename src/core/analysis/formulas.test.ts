import { describe, expect, it } from "vitest";
import { ANALYSIS_DEFAULTS } from "./analyze.ts";
import { metricFormulas } from "./formulas.ts";

describe("metricFormulas", () => {
  it("names the formula and the settings in force", () => {
    expect(metricFormulas(ANALYSIS_DEFAULTS).advantage).toBe(
      "GRPO, scale group: A = (R - mean of the group) / (group sample std (n-1) + 0.0001)",
    );
    expect(metricFormulas({ ...ANALYSIS_DEFAULTS, scale: "none" }).advantage).toContain("R - mean");
    expect(
      metricFormulas({ ...ANALYSIS_DEFAULTS, scale: "batch", std: "population" }).advantage,
    ).toBe("GRPO, scale batch: A = (R - mean of the group) / (batch population std (n) + 0.0001)");
    expect(metricFormulas({ ...ANALYSIS_DEFAULTS, estimator: "rloo" }).advantage).toMatch(/^RLOO/);
    expect(metricFormulas({ ...ANALYSIS_DEFAULTS, ngram: 5 }).cluster).toContain(
      "character 5-grams",
    );
    expect(metricFormulas({ ...ANALYSIS_DEFAULTS, tieCredit: 0.5 }).winRate).toContain(
      "a tie counts 0.5",
    );
    expect(metricFormulas({ ...ANALYSIS_DEFAULTS, hackZero: false }).gar).toContain("hacks kept");
    expect(metricFormulas(ANALYSIS_DEFAULTS).rank).toContain("equal ones share their mean place");
    expect(metricFormulas(ANALYSIS_DEFAULTS).rank).toContain("1 = best");
    expect(metricFormulas(ANALYSIS_DEFAULTS).humanRank).toContain("1 = best");
    expect(metricFormulas({ ...ANALYSIS_DEFAULTS, rankTies: "index" }).rank).toContain(
      "equal ones in index order",
    );
  });

  it("says which reward a rollout's R is", () => {
    expect(metricFormulas(ANALYSIS_DEFAULTS).reward).toContain("the logged reward");
    expect(
      metricFormulas({ ...ANALYSIS_DEFAULTS, rewardWeights: { accuracy: 1, format: 0.5 } }).reward,
    ).toContain("accuracy x 1, format x 0.5");
  });
});
