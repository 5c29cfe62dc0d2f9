import { describe, expect, it } from "vitest";
import { expectClose } from "../../test/approx.ts";
import { GAR_GROUP_DEFAULTS } from "./gar.ts";
import { garFromHumanRanking } from "./garHuman.ts";

const on = GAR_GROUP_DEFAULTS;
const off = { ...GAR_GROUP_DEFAULTS, hackZero: false };

function applied(result: ReturnType<typeof garFromHumanRanking>) {
  if (result.kind !== "applied") throw new Error(`expected applied, got ${result.kind}`);
  return result.outcome;
}

describe("garFromHumanRanking: the foundation issue's annotation rules", () => {
  it("a full ranking of the passes matches the grader path", () => {
    expectClose(
      applied(garFromHumanRanking([1, 1, 0, 0], { ranking: [[0], [1]], hacks: [] }, on)).output,
      [1.1667, 0.8333, 0, 0],
    );
  });

  it("hacks are zeroed first and leave the ranking; an emptied tier vanishes", () => {
    const o = applied(
      garFromHumanRanking([1, 1, 1, 0], { ranking: [[1], [0], [2]], hacks: [0] }, on),
    );
    expect(o.effective).toEqual([0, 1, 1, 0]);
    expect(o.hacksZeroed).toEqual([0]);
    // Remaining ranking [[1],[2]]: factors 1 and 0.5 over two passes.
    expect(Object.fromEntries(o.factors)).toEqual({ 1: 1, 2: 0.5 });
    expectClose(o.output, [0, 1.1667, 0.8333, 0]);
  });

  it("hacks are zeroed in all-pass groups too, which can make them mixed", () => {
    const o = applied(garFromHumanRanking([1, 1, 1], { ranking: [[0], [1]], hacks: [2] }, on));
    expect(o.status).toBe("redistributed");
    expect(o.effective).toEqual([1, 1, 0]);
  });

  it("an all-pass group with no hack is returned as is", () => {
    const o = applied(garFromHumanRanking([1, 1], { ranking: [[0], [1]], hacks: [] }, on));
    expect(o.status).toBe("unmixed");
    expect(o.output).toEqual([1, 1]);
  });

  it("an all-pass group whose ranking leaves out a pass is returned as is, not an error", () => {
    // A rollout that failed when the ranking was made and passes now (a verifier raised its reward).
    const o = applied(garFromHumanRanking([1, 1, 2], { ranking: [[0], [1]], hacks: [] }, on));
    expect(o.status).toBe("unmixed");
    expect(o.output).toEqual([1, 1, 2]);
    expect(Object.fromEntries(o.factors)).toEqual({ 0: 1, 1: 0.5 });
  });

  it("a group left all-fail by zeroing returns the effective rewards", () => {
    const o = applied(garFromHumanRanking([1, 0], { ranking: [], hacks: [0] }, on));
    expect(o.status).toBe("unmixed");
    expect(o.output).toEqual([0, 0]);
  });

  it("with zeroing off a hack keeps its ranked place", () => {
    const o = applied(garFromHumanRanking([1, 1, 0], { ranking: [[1], [0]], hacks: [1] }, off));
    expect(o.effective).toEqual([1, 1, 0]);
    expect(Object.fromEntries(o.factors)).toEqual({ 1: 1, 0: 0.5 });
  });

  it("with zeroing off an unranked hack takes min_factor", () => {
    const o = applied(garFromHumanRanking([1, 1, 0], { ranking: [[0]], hacks: [1] }, off));
    expect(Object.fromEntries(o.factors)).toEqual({ 0: 1, 1: 0.5 });
  });

  it("a ranking that leaves out a pass that still counts is incomplete", () => {
    const r = garFromHumanRanking([1, 1, 1, 0], { ranking: [[0], [1]], hacks: [] }, on);
    expect(r).toMatchObject({ kind: "incomplete", unranked: [2] });
  });

  it("a failing rollout in the ranking is reported and ignored", () => {
    const r = garFromHumanRanking([1, 1, 0], { ranking: [[2], [0], [1]], hacks: [] }, on);
    expect(r.ignoredFailures).toEqual([2]);
    // The ranking becomes [[0],[1]]: factors 1 and 0.5, m = 2/3, A = 1/3 each, lambda = 4/3,
    // so A' = [4/9, 2/9, -2/3] and the output A' + m = [10/9, 8/9, 0].
    expectClose(applied(r).output, [10 / 9, 8 / 9, 0], 12);
  });

  it("a hack that is a failure is not zeroed or counted", () => {
    const o = applied(garFromHumanRanking([1, 1, 0.2], { ranking: [[0], [1]], hacks: [2] }, on));
    expect(o.hacksZeroed).toEqual([]);
    expect(o.effective).toEqual([1, 1, 0.2]);
  });
});
