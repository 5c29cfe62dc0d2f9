import { describe, expect, it } from "vitest";
import { spreadCheck } from "./spread.ts";

describe("spreadCheck: methods.md 2.5", () => {
  it("the seed example: pstdev 0.250, median 0.75, 0% within band, spread yes", () => {
    const r = spreadCheck([0.5, 1.0, 1.0, 0.5], 2);
    expect(r.std).toBeCloseTo(0.25, 12);
    expect(r.median).toBe(0.75);
    expect(r.withinBand).toBe(0);
    expect(r.ok).toBe(true);
    expect(r.text).toBe(
      "spread check: 4 grader scores over 2 group(s), std 0.250, 0% within 0.05 of the median 0.75\n" +
        "spread: yes. The grader tells these passes apart.",
    );
  });

  it.each([
    { scores: [0.93, 0.93, 0.94, 0.93, 0.92, 0.93], ok: false },
    { scores: [1.0, 0.75, 0.5, 1.0, 0.5, 0.875], ok: true },
  ])("$scores -> ok $ok", ({ scores, ok }) => {
    const r = spreadCheck(scores, 1);
    expect(r.ok).toBe(ok);
    if (!ok) expect(r.text).toMatch(/\nno spread \(.*\): /);
  });

  it("one score is not OK and says it needs at least two", () => {
    const r = spreadCheck([0.9], 1);
    expect(r.ok).toBe(false);
    expect(r.text).toContain("at least two");
  });

  it("both equality cases count as OK", () => {
    // std exactly 0.05 with nothing near the median.
    expect(spreadCheck([0.45, 0.55], 1).ok).toBe(true);
    // Exactly 90% clustered, with enough std from the outlier.
    const scores = [...new Array<number>(9).fill(0.5), 1.0];
    const r = spreadCheck(scores, 1, { minStd: 0.05, band: 0.05, clusterShare: 0.9 });
    expect(r.withinBand).toBe(0.9);
    expect(r.ok).toBe(true);
  });

  it("names the failing criterion", () => {
    expect(spreadCheck([0.5, 0.5, 0.5], 1).text).toContain("std 0.000 < 0.05");
  });
});
