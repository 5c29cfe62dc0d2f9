import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import {
  rankingMove,
  rankingPlace,
  rankingRemove,
  rankingSplit,
  rankingTieWithAbove,
  type Ranking,
} from "./rankingEdit.ts";

const r: Ranking = [["a"], ["b", "c"], ["d"]];

describe("ranking edits", () => {
  it("moves out of a tie into its own tier, or swaps a lone tier", () => {
    expect(rankingMove(r, "c", -1)).toEqual([["a"], ["c"], ["b"], ["d"]]);
    expect(rankingMove(r, "c", 1)).toEqual([["a"], ["b"], ["c"], ["d"]]);
    expect(rankingMove(r, "d", -1)).toEqual([["a"], ["d"], ["b", "c"]]);
    expect(rankingMove(r, "a", -1)).toEqual(r);
    expect(rankingMove(r, "d", 1)).toEqual(r);
    expect(rankingMove(r, "zz", 1)).toEqual(r);
  });

  it("ties with the tier above, and splits a tie", () => {
    expect(rankingTieWithAbove(r, "d")).toEqual([["a"], ["b", "c", "d"]]);
    expect(rankingTieWithAbove(r, "b")).toEqual([["a", "b"], ["c"], ["d"]]);
    expect(rankingTieWithAbove(r, "a")).toEqual(r);
    expect(rankingSplit(r, "b")).toEqual([["a"], ["c"], ["b"], ["d"]]);
    expect(rankingSplit(r, "a")).toEqual(r);
  });

  it("places a dragged id into a tier or between tiers", () => {
    expect(rankingPlace(r, "d", 0, "into")).toEqual([
      ["a", "d"],
      ["b", "c"],
    ]);
    expect(rankingPlace(r, "a", 3, "before")).toEqual([["b", "c"], ["d"], ["a"]]);
    expect(rankingPlace(r, "a", 2, "before")).toEqual([["b", "c"], ["a"], ["d"]]);
    expect(rankingPlace(r, "new", 1, "before")).toEqual([["a"], ["new"], ["b", "c"], ["d"]]);
    expect(rankingPlace([], "x", 0, "into")).toEqual([["x"]]);
    expect(rankingRemove(r, "a")).toEqual([["b", "c"], ["d"]]);
  });

  const ranking = fc
    .uniqueArray(fc.constantFrom("a", "b", "c", "d", "e", "f"), { minLength: 1 })
    .chain((ids) =>
      fc.array(fc.boolean(), { minLength: ids.length, maxLength: ids.length }).map((breaks) => {
        const tiers: string[][] = [];
        ids.forEach((id, i) => (i === 0 || breaks[i] ? tiers.push([id]) : tiers.at(-1)!.push(id)));
        return tiers;
      }),
    );
  const op = fc.oneof(
    fc.tuple(fc.constant("up" as const), fc.integer({ min: 0, max: 5 })),
    fc.tuple(fc.constant("down" as const), fc.integer({ min: 0, max: 5 })),
    fc.tuple(fc.constant("tie" as const), fc.integer({ min: 0, max: 5 })),
    fc.tuple(fc.constant("split" as const), fc.integer({ min: 0, max: 5 })),
    fc.tuple(fc.constant("place" as const), fc.integer({ min: 0, max: 5 })),
  );

  test.prop([ranking, fc.array(op, { maxLength: 20 })])(
    "edits keep the same ids, once each, and no empty tier",
    (start, ops) => {
      const ids = start.flat().sort();
      let current: Ranking = start;
      for (const [kind, k] of ops) {
        const id = ids[k % ids.length]!;
        current =
          kind === "up"
            ? rankingMove(current, id, -1)
            : kind === "down"
              ? rankingMove(current, id, 1)
              : kind === "tie"
                ? rankingTieWithAbove(current, id)
                : kind === "split"
                  ? rankingSplit(current, id)
                  : rankingPlace(current, id, k % (current.length + 1), k % 2 ? "into" : "before");
        expect([...current.flat()].sort()).toEqual(ids);
        expect(current.every((t) => t.length > 0)).toBe(true);
      }
    },
  );

  test.prop([ranking])("moving up then down returns a lone tier to its place", (start) => {
    for (const tier of start.slice(1, -1))
      if (tier.length === 1)
        expect(rankingMove(rankingMove(start, tier[0]!, -1), tier[0]!, 1)).toEqual(start);
  });
});
