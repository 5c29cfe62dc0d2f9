import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import {
  reviewNeighbours,
  reviewNextUnreviewed,
  reviewPosition,
  reviewQueue,
} from "./reviewQueue.ts";

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

  it("steps to the neighbours; from outside the queue Next is its first group", () => {
    expect(reviewNeighbours(["a", "b", "c"], "b")).toEqual({ previous: "a", next: "c" });
    expect(reviewNeighbours(["a", "b", "c"], "a")).toEqual({ previous: null, next: "b" });
    expect(reviewNeighbours(["a", "b", "c"], "c")).toEqual({ previous: "b", next: null });
    expect(reviewNeighbours(["a", "b"], "z")).toEqual({ previous: null, next: "a" });
    expect(reviewNeighbours(["a", "b"], null)).toEqual({ previous: null, next: "a" });
    expect(reviewNeighbours([], null)).toEqual({ previous: null, next: null });
  });

  it("finds the next unreviewed group after the open one, wrapping round", () => {
    const reviewed =
      (...ids: string[]) =>
      (id: string) =>
        ids.includes(id);
    const queue = ["a", "b", "c", "d"];
    expect(reviewNextUnreviewed(queue, "b", reviewed())).toBe("c");
    expect(reviewNextUnreviewed(queue, "c", reviewed("d"))).toBe("a");
    expect(reviewNextUnreviewed(queue, "z", reviewed("a"))).toBe("b");
    expect(reviewNextUnreviewed(queue, null, reviewed())).toBe("a");
    // The open group itself is never next, reviewed or not.
    expect(reviewNextUnreviewed(queue, "b", reviewed("a", "c", "d"))).toBeNull();
    expect(reviewNextUnreviewed([], null, reviewed())).toBeNull();
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
