import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import { reviewPosition, reviewQueue } from "./reviewQueue.ts";

const groups = Array.from({ length: 20 }, (_, i) => ({ id: `g${i}`, mixed: i % 3 === 0 }));

describe("reviewQueue", () => {
  it("lists all groups, or the mixed ones, in file order", () => {
    expect(reviewQueue(groups, { kind: "all" })).toHaveLength(20);
    expect(reviewQueue(groups, { kind: "mixed" })).toEqual([
      "g0",
      "g3",
      "g6",
      "g9",
      "g12",
      "g15",
      "g18",
    ]);
  });

  it("samples N groups by seed, stably, in file order", () => {
    const a = reviewQueue(groups, { kind: "sample", size: 5, seed: 1 });
    expect(a).toHaveLength(5);
    expect(reviewQueue(groups, { kind: "sample", size: 5, seed: 1 })).toEqual(a);
    expect(reviewQueue(groups, { kind: "sample", size: 5, seed: 2 })).not.toEqual(a);
    const order = a.map((id) => Number(id.slice(1)));
    expect(order).toEqual([...order].sort((x, y) => x - y));
    // Removing a group that was not sampled leaves the sample as it was.
    const other = groups.find((g) => !a.includes(g.id))!;
    expect(
      reviewQueue(
        groups.filter((g) => g !== other),
        { kind: "sample", size: 5, seed: 1 },
      ),
    ).toEqual(a);
    expect(reviewQueue(groups, { kind: "sample", size: 50, seed: 1 })).toHaveLength(20);
  });

  it("says where a group is in the queue", () => {
    expect(reviewPosition(["a", "b", "c"], "b")).toEqual({ index: 2, total: 3 });
    expect(reviewPosition(["a"], "z")).toBeNull();
    expect(reviewPosition(["a"], null)).toBeNull();
  });

  test.prop([fc.integer({ min: 0, max: 30 }), fc.integer({ min: 0, max: 2 ** 31 })])(
    "a sample has min(N, groups) distinct members of the data",
    (size, seed) => {
      const s = reviewQueue(groups, { kind: "sample", size, seed });
      expect(s).toHaveLength(Math.min(size, groups.length));
      expect(new Set(s).size).toBe(s.length);
    },
  );
});
