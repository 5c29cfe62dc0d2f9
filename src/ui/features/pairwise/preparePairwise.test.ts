import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  PAIRWISE_SCHEDULES,
  pairwiseChoose,
  pairwiseStart,
  type PairwiseSession,
} from "../../../core/index.ts";
import {
  pairwiseDefaultSeed,
  prepareMatch,
  prepareResults,
  prepareScheduleChoices,
  sameRanking,
} from "./preparePairwise.ts";
import { pairwiseCommand } from "./shortcuts.ts";

const IDS = ["r0", "r1", "r2", "r3", "r4", "r5", "r6", "r7"];

/** Plays a session to the end, the lower-numbered rollout always winning. */
function playOut(session: PairwiseSession): PairwiseSession {
  let s = session;
  for (;;) {
    const m = prepareMatch(s, IDS);
    if (m.kind !== "match") return s;
    s = pairwiseChoose(s, m.left < m.right ? "left" : "right");
  }
}

describe("prepareScheduleChoices", () => {
  it("gives each schedule's cost for the group", () => {
    expect(prepareScheduleChoices(PAIRWISE_SCHEDULES, 8).map((c) => c.total)).toEqual([14, 28, 56]);
    expect(prepareScheduleChoices(["round-robin"], 2)[0]!.label).toMatch(/1 comparison$/);
  });
});

describe("pairwiseDefaultSeed", () => {
  it("is a stable non-negative integer per group", () => {
    fc.assert(
      fc.property(fc.string(), (id) => {
        const s = pairwiseDefaultSeed(id);
        expect(Number.isInteger(s) && s >= 0 && s < 2 ** 31).toBe(true);
        expect(pairwiseDefaultSeed(id)).toBe(s);
      }),
    );
    expect(pairwiseDefaultSeed("a")).not.toBe(pairwiseDefaultSeed("b"));
  });
});

describe("prepareMatch", () => {
  it("counts '1 of 14' up to complete for a single elimination of 8", () => {
    let s = pairwiseStart("single-elimination", IDS, 5);
    const progress: string[] = [];
    for (;;) {
      const m = prepareMatch(s, IDS);
      progress.push(m.kind === "error" ? "error" : m.progress);
      if (m.kind !== "match") break;
      expect(m.left).not.toBe(m.right);
      s = pairwiseChoose(s, "tie");
    }
    expect(progress).toHaveLength(15);
    expect(progress[0]).toBe("1 of 14");
    expect(progress[2]).toBe("3 of 14");
    expect(progress[14]).toBe("14 of 14: complete");
  });

  it("reports a session over other rollouts instead of throwing", () => {
    const s = pairwiseStart("round-robin", ["x", "y"], 1);
    expect(prepareMatch(s, IDS).kind).toBe("error");
    const broken: PairwiseSession = {
      ...pairwiseStart("round-robin", IDS, 1),
      judgements: [{ a: "r0", b: "r0", verdict: "a" }],
    };
    const m = prepareMatch(broken, IDS);
    expect(m.kind).toBe("error");
  });
});

describe("prepareResults", () => {
  it("ranks a consistent single elimination best first and accepts the passes only", () => {
    const s = playOut(pairwiseStart("single-elimination", IDS, 9));
    const passed = new Map(IDS.map((id, i) => [id, i % 2 === 0]));
    const r = prepareResults(s, passed);
    expect(r.complete).toBe(true);
    expect(r.judged).toBe(14);
    expect(r.rows[0]!.id).toBe("r0");
    expect(r.rows[0]!.place).toBe(1);
    expect(r.cycles).toEqual([]);
    expect(r.accept.flat()).toEqual(r.proposed.flat().filter((id) => passed.get(id)));
    expect(r.accept.flat()).toContain("r0");
    expect(r.leftOut).toEqual(r.rows.filter((x) => !x.passed).map((x) => x.id));
    expect(r.leftOut).toHaveLength(4);
    expect(r.rows[0]!.winRate).toMatch(/^\d+%$/);
    expect(r.rows[0]!.interval).toMatch(/ to /);
  });

  it("places follow the strengths (equal ones share their mean place); a hack above a pass is named", () => {
    const s = playOut(pairwiseStart("single-elimination", IDS, 9));
    const passed = new Map(IDS.map((id) => [id, true]));
    const r = prepareResults(s, passed, ["r0"]);
    for (let i = 1; i < r.rows.length; i++) {
      const [a, b] = [r.rows[i - 1]!, r.rows[i]!];
      expect(b.strengthValue).toBeLessThanOrEqual(a.strengthValue + 1e-9);
      if (Math.abs(a.strengthValue - b.strengthValue) < 1e-9) expect(b.place).toBe(a.place);
      else expect(b.place).toBeGreaterThan(a.place);
    }
    expect(r.rows[0]).toMatchObject({ id: "r0", place: 1 });
    expect(r.hackWarnings).toHaveLength(1);
    expect(r.hackWarnings[0]).toMatch(/^r0 is marked as a hack but is proposed above the passes /);
    expect(prepareResults(s, passed, ["r7"]).hackWarnings).toEqual([]);
    expect(r.dropped).toBe("");
  });

  it("flags a cycle in a round robin of three", () => {
    const ids = ["x", "y", "z"];
    let s = pairwiseStart("round-robin", ids, 2);
    const beats: Record<string, string> = { x: "y", y: "z", z: "x" };
    for (;;) {
      const m = prepareMatch(s, ids);
      if (m.kind !== "match") break;
      s = pairwiseChoose(s, beats[m.left] === m.right ? "left" : "right");
    }
    const r = prepareResults(s, new Map(ids.map((id) => [id, true])));
    expect(r.cycles).toHaveLength(1);
    expect(r.cycles[0]).toMatch(/beat/);
  });

  it("every rollout appears once in the rows, whatever the judgements", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...PAIRWISE_SCHEDULES),
        fc.array(fc.constantFrom<"left" | "right" | "tie">("left", "right", "tie"), {
          maxLength: 20,
        }),
        fc.integer({ min: 0, max: 1000 }),
        (schedule, choices, seed) => {
          const ids = IDS.slice(0, 5);
          let s = pairwiseStart(schedule, ids, seed);
          for (const c of choices) {
            if (prepareMatch(s, ids).kind !== "match") break;
            s = pairwiseChoose(s, c);
          }
          const r = prepareResults(s, new Map(ids.map((id) => [id, true])));
          expect(r.rows.map((x) => x.id).sort()).toEqual([...ids].sort());
          expect(r.accept.flat().sort()).toEqual([...ids].sort());
        },
      ),
    );
  });
});

describe("sameRanking and keys", () => {
  it("compares tiers as sets, in order", () => {
    expect(sameRanking([["a", "b"], ["c"]], [["b", "a"], ["c"]])).toBe(true);
    expect(sameRanking([["a"], ["c"]], [["c"], ["a"]])).toBe(false);
    expect(sameRanking([["a", "b"]], [["a", "c"]])).toBe(false);
  });
  it("maps a, b, t, u and the arrows; never with a modifier", () => {
    const k = (key: string, ctrlKey = false) => ({ key, ctrlKey, metaKey: false, altKey: false });
    expect(
      ["a", "b", "t", "u", "ArrowLeft", "ArrowRight", "x"].map((x) => pairwiseCommand(k(x))),
    ).toEqual(["left", "right", "tie", "undo", "left", "right", null]);
    expect(pairwiseCommand(k("a", true))).toBeNull();
  });
});
