import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import {
  PAIRWISE_SCHEDULES,
  PairwiseError,
  pairwiseChoose,
  pairwiseNext,
  pairwiseStart,
  pairwiseSummary,
  pairwiseTotal,
  pairwiseUndo,
  type PairwiseSchedule,
  type PairwiseSession,
} from "./pairwise.ts";

const ids = (n: number) => Array.from({ length: n }, (_, i) => `r${i}`);

/** Plays a session to the end, the better player (lower number) winning every match. */
function playByQuality(session: PairwiseSession): { session: PairwiseSession; steps: number } {
  let steps = 0;
  for (;;) {
    const step = pairwiseNext(session);
    if (step.kind === "done") return { session, steps };
    const better = Number(step.left.slice(1)) < Number(step.right.slice(1)) ? "left" : "right";
    session = pairwiseChoose(session, better);
    steps++;
  }
}

describe("pairwise sessions", () => {
  it("a single elimination of 8 takes exactly 14 comparisons and proposes a full ranking", () => {
    const start = pairwiseStart("single-elimination", ids(8), 7);
    expect(pairwiseTotal("single-elimination", 8)).toBe(14);
    const { session, steps } = playByQuality(start);
    expect(steps).toBe(14);
    const summary = pairwiseSummary(session);
    expect(summary.complete).toBe(true);
    expect(summary.proposed[0]).toEqual(["r0"]);
    expect(summary.proposed.flat().sort()).toEqual(ids(8).sort());
    expect(summary.cycles).toEqual([]);
  });

  it("round robin and all pairs take n(n-1)/2 and n(n-1), and order by strength", () => {
    for (const [schedule, total] of [
      ["round-robin", 15],
      ["all-pairs", 30],
    ] as const) {
      const { session, steps } = playByQuality(pairwiseStart(schedule, ids(6), 3));
      expect(steps).toBe(total);
      const summary = pairwiseSummary(session);
      expect(summary.proposed).toEqual(ids(6).map((id) => [id]));
      const winRate = (id: string) => summary.winRates[summary.players.indexOf(id)];
      expect(winRate("r0")).toBe(1);
      expect(winRate("r5")).toBe(0);
      for (let i = 0; i < 6; i++) {
        expect(summary.lower[i]).toBeLessThanOrEqual(summary.strength[i]! + 1e-9);
        expect(summary.upper[i]).toBeGreaterThanOrEqual(summary.strength[i]! - 1e-9);
      }
    }
  });

  it("randomises left and right blind, and records the chosen side", () => {
    let session = pairwiseStart("all-pairs", ids(6), 11);
    let swapped = 0;
    for (let k = 0; k < 30; k++) {
      const step = pairwiseNext(session);
      if (step.kind === "done") break;
      if (step.left !== step.a) swapped++;
      session = pairwiseChoose(session, "left");
      const last = session.judgements[session.judgements.length - 1]!;
      expect(last.verdict).toBe(step.left === step.a ? "a" : "b");
    }
    expect(swapped).toBeGreaterThan(5);
    expect(swapped).toBeLessThan(25);
  });

  it("undo returns to the same match; ties are ties", () => {
    const start = pairwiseStart("round-robin", ids(4), 1);
    const first = pairwiseNext(start);
    const tied = pairwiseChoose(start, "tie");
    expect(tied.judgements[0]!.verdict).toBe("tie");
    expect(pairwiseNext(pairwiseUndo(tied))).toEqual(first);
  });

  it("flags an intransitive cycle", () => {
    // r0 beats r1, r1 beats r2, r2 beats r0.
    let session = pairwiseStart("round-robin", ["r0", "r1", "r2"], 5);
    const beats = new Set(["r0>r1", "r1>r2", "r2>r0"]);
    for (;;) {
      const step = pairwiseNext(session);
      if (step.kind === "done") break;
      session = pairwiseChoose(session, beats.has(`${step.left}>${step.right}`) ? "left" : "right");
    }
    const summary = pairwiseSummary(session);
    expect(summary.cycles).toHaveLength(1);
    expect([...summary.cycles[0]!].sort()).toEqual(["r0", "r1", "r2"]);
    // Three equal strengths: one tier.
    expect(summary.proposed).toHaveLength(1);
  });

  it("rejects judgements that do not follow the schedule", () => {
    const session = pairwiseStart("round-robin", ids(3), 2);
    const step = pairwiseNext(session);
    if (step.kind === "done") throw new Error("unexpected");
    const tampered: PairwiseSession = {
      ...session,
      judgements: [{ a: step.b, b: step.a, verdict: "a" }],
    };
    expect(() => pairwiseNext(tampered)).toThrow(PairwiseError);
    const done = playByQuality(session).session;
    expect(() => pairwiseChoose(done, "left")).toThrow("complete");
  });

  test.prop([
    fc.constantFrom<PairwiseSchedule>(...PAIRWISE_SCHEDULES),
    fc.integer({ min: 0, max: 9 }),
    fc.integer({ min: 0, max: 2 ** 31 }),
    fc.array(fc.constantFrom("left" as const, "right" as const, "tie" as const), {
      minLength: 90,
      maxLength: 90,
    }),
  ])("any choices end after exactly the schedule's total", (schedule, n, seed, choices) => {
    let session = pairwiseStart(schedule, ids(n), seed);
    let steps = 0;
    while (pairwiseNext(session).kind === "match") {
      session = pairwiseChoose(session, choices[steps % choices.length]!);
      steps++;
    }
    expect(steps).toBe(pairwiseTotal(schedule, n));
    const summary = pairwiseSummary(session);
    expect(summary.proposed.flat().sort()).toEqual(ids(n).sort());
  });
});
