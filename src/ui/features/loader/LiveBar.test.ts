import { describe, expect, it } from "vitest";
import { arrivalsOf } from "./LiveBar.tsx";

const summary = (id: string, step: number | null, rewards: number[]) => ({
  id,
  step,
  rewards,
  prompt: "",
  partial: false,
});

describe("arrivalsOf", () => {
  it("counts only the arrived groups, with their steps and their zero-std and no-spread ones", () => {
    const summaries = [
      summary("1/a", 1, [1, 1, 1, 1]),
      summary("4/a", 4, [1, 1, 1, 1]),
      summary("4/b", 4, [0, 1, 0, 1]),
      summary("5/c", 5, [0.5, 0.5, 0.5, 0.51]),
      summary("5/d", 5, [0, 0.25, 0.75, 1]),
    ];
    const got = arrivalsOf(summaries, ["4/a", "4/b", "5/c", "5/d", "gone"], 0.5);
    expect(got.count).toBe(4);
    expect(got.steps).toEqual([4, 5]);
    expect(got.zeroStd).toEqual(["4/a"]);
    // Nearly equal rewards: no spread by the spread check's band; a zero-std group is only zero-std.
    expect(got.noSpread).toContain("5/c");
    expect(got.noSpread).not.toContain("4/a");
    expect(got.noSpread).not.toContain("5/d");
  });
});
