import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import {
  ANALYSIS_DEFAULTS,
  GROUP_ANNOTATION_EMPTY,
  type GroupAnnotation,
  type Rollout,
  type RolloutGroup,
} from "../../../core/index.ts";
import { groupView } from "../../../store/hooks.ts";
import {
  prepareRanking,
  rankingAppendAll,
  rankingApply,
  rankingDescribe,
  rankingFocusNext,
  rankingPlaceOf,
  rankingKeyAction,
  type RankingAction,
} from "./prepareRanking.ts";

function rollout(id: string, reward: number): Rollout {
  return {
    id,
    groupId: "g",
    index: 0,
    prompt: "p",
    messages: [],
    completion: `answer ${id}`,
    reward,
    rewards: {},
    answer: null,
    testsPassed: null,
    meta: {},
    source: { file: "f", line: 1 },
  };
}

// Passes: a, c, d (reward 1); fails: b, e.
const group: RolloutGroup = {
  id: "g",
  rollouts: [rollout("a", 1), rollout("b", 0), rollout("c", 1), rollout("d", 1), rollout("e", 0)],
};

function view(annotation: GroupAnnotation) {
  const v = groupView(group, ANALYSIS_DEFAULTS, undefined, annotation, { status: "pending" });
  return prepareRanking(v.group, v.analysis, annotation);
}

const key = (k: string, altKey = false) => ({ key: k, altKey, ctrlKey: false, metaKey: false });

describe("prepareRanking", () => {
  it("in blind mode offers every rollout, with no reward, pass or GAR number", () => {
    const ranked = { ...GROUP_ANNOTATION_EMPTY, ranking: [["c"], ["b"]] };
    const v = groupView(group, ANALYSIS_DEFAULTS, undefined, ranked, { status: "pending" });
    const blind = prepareRanking(v.group, v.analysis, ranked, true);
    expect(blind.status).toBe("blind");
    // The fails (b, e) are rankable like the passes, and nothing says which is which.
    expect(blind.unranked.map((i) => i.id)).toEqual(["a", "d", "e"]);
    const items = [...blind.tiers.flatMap((t) => t.items), ...blind.unranked];
    expect(items.every((i) => i.reward === "" && i.garAdvantage === "" && i.factor === "")).toBe(
      true,
    );
    expect(items.every((i) => i.problem === "" && i.passed)).toBe(true);
    expect(blind.statusText).toBe(
      "Blind: rank the 5 rollouts, best first (3 to rank). Which pass shows once you submit; GAR then uses the passes.",
    );
    const all = { ...GROUP_ANNOTATION_EMPTY, ranking: [["a"], ["b"], ["c"], ["d"], ["e"]] };
    const done = groupView(group, ANALYSIS_DEFAULTS, undefined, all, { status: "pending" });
    expect(prepareRanking(done.group, done.analysis, all, true).statusText).toContain(
      "Every rollout is ranked",
    );
    // Not blind: the fail is flagged as ignored, as before.
    expect(prepareRanking(v.group, v.analysis, ranked).tiers[1]!.items[0]!.problem).toBe(
      "fails: ignored in the ranking",
    );
  });

  it("lists every pass as unranked until ranked, in file order", () => {
    const v = view(GROUP_ANNOTATION_EMPTY);
    expect(v.tiers).toEqual([]);
    expect(v.unranked.map((i) => i.id)).toEqual(["a", "c", "d"]);
    expect(v.status).toBe("none");
    expect(v.statusText).toBe("Rank the 3 passes, best first.");
    expect(v.order).toEqual(["a", "c", "d"]);
  });

  it("gives no GAR values while a pass is unranked (incomplete), and says how many are left", () => {
    const v = view({ ...GROUP_ANNOTATION_EMPTY, ranking: [["d"], ["a"]] });
    expect(v.status).toBe("incomplete");
    expect(v.statusText).toBe(
      "1 of 3 passes still to rank: no GAR values until every pass is ranked.",
    );
    expect(v.tiers.flatMap((t) => t.items.map((i) => i.garAdvantage))).toEqual(["", ""]);
    expect(v.order).toEqual(["d", "a", "c"]);
  });

  it("shows factors and GAR advantages from a complete ranking; ties share a factor", () => {
    const v = view({ ...GROUP_ANNOTATION_EMPTY, ranking: [["d"], ["a", "c"]] });
    expect(v.status).toBe("applied");
    expect(v.unranked).toEqual([]);
    const [best, tie] = v.tiers;
    expect(best!.items[0]!.factor).toBe("1.000");
    // min factor 0.5, n = 3: the tie spans ranks 1 and 2, mean 1.5 -> f = 1 - 0.5 * 1.5 / 2.
    expect(tie!.items.map((i) => i.factor)).toEqual(["0.625", "0.625"]);
    expect(best!.items[0]!.garAdvantage).not.toBe("");
    expect(Number(best!.items[0]!.garAdvantagePlain)).toBeGreaterThan(
      Number(tie!.items[0]!.garAdvantagePlain),
    );
  });

  it("flags a ranked failure and an id the group does not have", () => {
    const v = view({ ...GROUP_ANNOTATION_EMPTY, ranking: [["a"], ["b"], ["zz"]] });
    expect(v.tiers.map((t) => t.items[0]!.problem)).toEqual([
      "",
      "fails: ignored in the ranking",
      "not in this group",
    ]);
  });

  it("marks hacks and labels on the items", () => {
    const v = view({
      ...GROUP_ANNOTATION_EMPTY,
      ranking: [["a"], ["c"], ["d"]],
      hacks: ["c"],
      labels: { a: "pass" },
    });
    expect(v.tiers.map((t) => [t.items[0]!.hack, t.items[0]!.label])).toEqual([
      [false, "pass"],
      [true, null],
      [false, null],
    ]);
  });
});

describe("ranking keys", () => {
  it("maps keys to actions, and leaves Ctrl and Meta chords and other keys alone", () => {
    expect(rankingKeyAction(key("ArrowUp", true))).toEqual({ kind: "move", direction: -1 });
    expect(rankingKeyAction(key("ArrowDown", true))).toEqual({ kind: "move", direction: 1 });
    expect(rankingKeyAction(key("ArrowUp"))).toEqual({ kind: "focus", direction: -1 });
    expect(rankingKeyAction(key("t"))).toEqual({ kind: "tie" });
    expect(rankingKeyAction(key("s"))).toEqual({ kind: "split" });
    expect(rankingKeyAction(key("x"))).toEqual({ kind: "remove" });
    expect(rankingKeyAction(key("Delete"))).toEqual({ kind: "remove" });
    expect(rankingKeyAction(key("a"))).toEqual({ kind: "add" });
    expect(rankingKeyAction(key("Enter"))).toEqual({ kind: "add" });
    expect(rankingKeyAction({ ...key("t"), ctrlKey: true })).toBeNull();
    expect(rankingKeyAction({ ...key("ArrowUp", true), metaKey: true })).toBeNull();
    expect(rankingKeyAction(key("t", true))).toBeNull();
    expect(rankingKeyAction(key("p"))).toBeNull();
  });

  it("applies core's edits; unranked ids are only added", () => {
    const r = [["a"], ["c", "d"]];
    expect(rankingApply(r, "a", { kind: "move", direction: 1 })).toEqual([["c", "d"], ["a"]]);
    expect(rankingApply(r, "d", { kind: "split" })).toEqual([["a"], ["c"], ["d"]]);
    expect(rankingApply(r, "c", { kind: "tie" })).toEqual([["a", "c"], ["d"]]);
    expect(rankingApply(r, "a", { kind: "remove" })).toEqual([["c", "d"]]);
    expect(rankingApply([["a"]], "c", { kind: "add" })).toEqual([["a"], ["c"]]);
    // An unranked id does not move, tie or get removed; a ranked one is not added twice.
    expect(rankingApply(r, "e", { kind: "move", direction: -1 })).toBe(r);
    expect(rankingApply(r, "e", { kind: "tie" })).toBe(r);
    expect(rankingApply(r, "e", { kind: "remove" })).toBe(r);
    expect(rankingApply(r, "a", { kind: "add" })).toBe(r);
  });

  it("describes where an id sits and walks the focus, clamped at the ends", () => {
    expect(rankingDescribe([["a"], ["c", "d"]], "d")).toBe("d: tier 2 of 2, tied with c");
    expect(rankingDescribe([["a"]], "c")).toBe("c: unranked");
    expect(rankingFocusNext(["a", "c", "d"], "a", -1)).toBe("a");
    expect(rankingFocusNext(["a", "c", "d"], "a", 1)).toBe("c");
    expect(rankingFocusNext(["a", "c", "d"], "d", 1)).toBe("d");
    expect(rankingFocusNext([], "d", 1)).toBeNull();
  });

  it("finds an id's tier and place in it (where the focus goes before a move renders)", () => {
    expect(rankingPlaceOf([["a"], ["c", "d"]], "d")).toEqual({ tier: 1, at: 1 });
    expect(rankingPlaceOf([["a"], ["c", "d"]], "a")).toEqual({ tier: 0, at: 0 });
    expect(rankingPlaceOf([["a"]], "c")).toBeNull();
    const moved = rankingApply([["a"], ["b"], ["c"]], "a", { kind: "move", direction: 1 });
    expect(rankingPlaceOf(moved, "a")).toEqual({ tier: 1, at: 0 });
  });

  it("appends the unranked in file order, skipping ranked ones", () => {
    expect(rankingAppendAll([["c"]], ["a", "c", "d"])).toEqual([["c"], ["a"], ["d"]]);
  });

  const ids = ["a", "b", "c", "d", "e", "f"];
  const actions: fc.Arbitrary<Exclude<RankingAction, { kind: "focus" }>> = fc.oneof(
    fc
      .constantFrom(-1 as const, 1 as const)
      .map((direction) => ({ kind: "move" as const, direction })),
    fc.constantFrom({ kind: "tie" as const }, { kind: "split" as const }),
    fc.constantFrom({ kind: "remove" as const }, { kind: "add" as const }),
  );
  test.prop([fc.array(fc.tuple(fc.constantFrom(...ids), actions), { maxLength: 40 })])(
    "any key sequence keeps a ranking: no empty tier, no duplicate, only known ids",
    (steps) => {
      let r: readonly (readonly string[])[] = [];
      for (const [id, action] of steps) r = rankingApply(r, id, action);
      const flat = r.flat();
      expect(new Set(flat).size).toBe(flat.length);
      expect(r.every((t) => t.length > 0)).toBe(true);
      expect(flat.every((id) => ids.includes(id))).toBe(true);
    },
  );
});
