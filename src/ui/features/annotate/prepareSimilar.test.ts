import { describe, expect, it } from "vitest";
import { prepareSimilar, SIMILAR_BELOW_SHOWN } from "./prepareSimilar.ts";

const c = (groupId: string, rolloutId: string, similarity: number) => ({
  groupId,
  rolloutId,
  similarity,
});

describe("prepareSimilar", () => {
  it("lists matches at or above the threshold, best first, ties by group then rollout", () => {
    const v = prepareSimilar(
      [c("g2", "g2/1", 0.5), c("g1", "g1/0", 0.9), c("g1", "g1/3", 0.5), c("g3", "g3/0", 0.2)],
      0.5,
    );
    expect(v.items.map((i) => [i.rolloutId, i.shown])).toEqual([
      ["g1/0", "0.900"],
      ["g1/3", "0.500"],
      ["g2/1", "0.500"],
    ]);
    expect(v.belowThreshold).toBe(false);
    expect(v.summary).toBe("3 of 3 at or above 0.5 (of 4 rollouts in other groups):");
  });

  it("caps the list and says N of M", () => {
    const many = Array.from({ length: 30 }, (_, i) =>
      c("g", `g/${String(i).padStart(2, "0")}`, 0.8),
    );
    const v = prepareSimilar(many, 0.5, 20);
    expect(v.items).toHaveLength(20);
    expect(v.aboveThreshold).toBe(30);
    expect(v.summary.startsWith("20 of 30")).toBe(true);
  });

  it("shows the closest few below the threshold when none reaches it, and drops NaN", () => {
    const v = prepareSimilar(
      [...Array.from({ length: 8 }, (_, i) => c("g", `g/${i}`, i / 100)), c("h", "h/0", NaN)],
      0.5,
    );
    expect(v.belowThreshold).toBe(true);
    expect(v.items).toHaveLength(SIMILAR_BELOW_SHOWN);
    expect(v.items[0]!.rolloutId).toBe("g/7");
    expect(v.summary).toContain("None of 9 rollouts in other groups reaches 0.5");
  });

  it("says when there is nothing to compare with", () => {
    expect(prepareSimilar([], 0.5).summary).toBe("No other parsed group to compare with.");
  });
});
