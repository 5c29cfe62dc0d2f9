import { describe, expect, it } from "vitest";
import { calibrationFormulas } from "./formulas.ts";
import { CALIBRATION_STATE_EMPTY } from "./state.ts";

describe("calibration formulas", () => {
  it("say the bootstrap's size, level and seed, and the split shares in force", () => {
    const f = calibrationFormulas(
      { ...CALIBRATION_STATE_EMPTY, seed: 42 },
      { samples: 1000, level: 0.95 },
    );
    expect(f.interval).toMatch(/^95% percentile bootstrap interval: 1000 resamples/);
    expect(f.interval).toContain("split seed 42");
    expect(f.splits).toBe(
      "Stratified by the human label, seeded (seed 42), train/dev/test 15/42.5/42.5%; a rollout keeps its split once assigned",
    );
    expect(f.corrected).toContain("(observed + TNR - 1) / (TPR + TNR - 1)");
    expect(
      calibrationFormulas(CALIBRATION_STATE_EMPTY, { samples: 200, level: 0.9 }).correctedInterval,
    ).toMatch(/^90% percentile bootstrap interval: 200 resamples of dev's rows/);
  });
});
