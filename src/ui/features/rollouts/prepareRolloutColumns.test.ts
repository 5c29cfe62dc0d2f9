import { describe, expect, it } from "vitest";
import {
  ANALYSIS_DEFAULTS,
  analyzeDataset,
  analyzeGroup,
  analysisAdvantages,
  annotationsResolve,
  type Rollout,
  type RolloutGroup,
  GROUP_ANNOTATION_EMPTY,
  ANNOTATIONS_EMPTY,
} from "../../../core/index.ts";
import {
  MAX_PINNED,
  pinSlots,
  prepareRolloutColumns,
  sameRolloutColumn,
  syncedScrollTop,
  togglePin,
  visibleColumns,
  type RolloutColumn,
} from "./prepareRolloutColumns.ts";
import { testRollout } from "../../../test/rolloutFixtures.ts";

function rollout(
  id: string,
  reward: number | null,
  completion: string,
  over: Partial<Rollout> = {},
): Rollout {
  return testRollout({
    id,
    prompt: "Solve  2+2\nplease",
    completion,
    reward,
    ...over,
  });
}

describe("prepareRolloutColumns", () => {
  const group: RolloutGroup = {
    id: "g",
    rollouts: [
      rollout("a", 1, "four", { rewards: { correct: 1, style: null } }),
      rollout("b", 0, "five", { meta: { trainerAdvantage: -0.5 } }),
      rollout("c", null, ""),
    ],
  };

  it("shows no number at all for a group nothing scored (an agent trajectory without a report)", () => {
    const lone: RolloutGroup = { id: "t", rollouts: [rollout("t1", null, "did the task")] };
    const analysis = analyzeDataset([lone]).groups[0]!;
    const [c] = prepareRolloutColumns(lone, analysis, ANALYSIS_DEFAULTS).columns;
    expect(c!.scored).toBe(false);
    expect([c!.plain.reward, c!.plain.place, c!.plain.rank, c!.plain.winRate]).toEqual([
      "",
      "",
      "",
      "",
    ]);
    expect(c!.plain.advantage).toBe("");
  });

  it("gives plain numbers, and a missing reward as empty, never as 0", () => {
    const analysis = analyzeDataset([group]).groups[0]!;
    const view = prepareRolloutColumns(group, analysis, ANALYSIS_DEFAULTS);
    expect(
      view.columns.map((c) => [c.id, c.plain.reward, c.passed, c.plain.advantage, c.plain.rank]),
    ).toEqual([
      ["a", "1", true, "0.707", "1"],
      ["b", "0", false, "-0.707", "0.5"],
      // Unscored: the trainer's advantage (TRL gives 0), but no rank, place or win rate.
      ["c", "", false, "0", ""],
    ]);
    expect(view.columns.map((c) => c.plain.winRate)).toEqual(["1", "0.5", ""]);
    expect(view.columns.map((c) => c.plain.place)).toEqual(["1", "2", ""]);
  });

  it("has no GAR without a ranking, and shows the trainer's advantage when logged", () => {
    const analysis = analyzeDataset([group]).groups[0]!;
    const view = prepareRolloutColumns(group, analysis, ANALYSIS_DEFAULTS);
    expect(view.hasGar).toBe(false);
    expect(view.columns.map((c) => c.plain.garAdvantage)).toEqual(["", "", ""]);
    expect(view.hasTrainer).toBe(true);
    expect(view.columns.map((c) => c.trainerAdvantage)).toEqual([null, "-0.500", null]);
  });

  it("lists reward components, a missing one as n/a, with its weight", () => {
    const analysis = analyzeDataset([group]).groups[0]!;
    const view = prepareRolloutColumns(group, analysis, {
      ...ANALYSIS_DEFAULTS,
      rewardWeights: { correct: 2 },
    });
    expect(view.columns[0]!.components).toEqual([
      { name: "correct ×2", value: "1" },
      { name: "style", value: "n/a" },
    ]);
  });

  it("follows the settings: scale none gives R - mean", () => {
    const two: RolloutGroup = { id: "g", rollouts: [rollout("a", 1, "x"), rollout("b", 0, "y")] };
    const settings = { ...ANALYSIS_DEFAULTS, scale: "none" as const };
    const analysis = analyzeGroup(two, settings, analysisAdvantages([two], settings)[0]!);
    expect(
      prepareRolloutColumns(two, analysis, settings).columns.map((c) => c.plain.advantage),
    ).toEqual(["0.5", "-0.5"]);
  });

  it("gives GAR values once a ranking of the passes resolves", () => {
    const passes: RolloutGroup = {
      id: "g",
      rollouts: [rollout("a", 1, "x"), rollout("b", 1, "yy"), rollout("c", 0, "zzz")],
    };
    const resolved = annotationsResolve([passes], {
      ...ANNOTATIONS_EMPTY,
      groups: {
        g: {
          ...GROUP_ANNOTATION_EMPTY,
          ranking: [["b"], ["a"]],
          hacks: [],
          labels: {},
          notes: "",
          reviewed: false,
        },
      },
    }).byGroup.get("g");
    const analysis = analyzeGroup(
      passes,
      ANALYSIS_DEFAULTS,
      analysisAdvantages([passes], ANALYSIS_DEFAULTS)[0]!,
      resolved,
    );
    const view = prepareRolloutColumns(passes, analysis, ANALYSIS_DEFAULTS);
    expect(view.hasGar).toBe(true);
    const gar = view.columns.map((c) => Number(c.plain.garAdvantage));
    expect(gar[1]!).toBeGreaterThan(gar[0]!);
  });
});

describe("column layout", () => {
  it.each([
    [4, 8, 4],
    [4, 2, 2],
    [8, 20, 8],
    [2, 1, 1],
    [12, 20, 8],
    [4, 0, 1],
  ])("choice %i with %i rollouts shows %i", (choice, n, want) => {
    expect(visibleColumns(choice, n)).toBe(want);
  });

  it("pins at most two columns, unpins on a second click", () => {
    let pins = togglePin([], "a");
    pins = togglePin(pins, "c");
    expect(pins).toEqual(["a", "c"]);
    expect(togglePin(pins, "b")).toEqual(["a", "c"]);
    expect(MAX_PINNED).toBe(2);
    expect(togglePin(pins, "a")).toEqual(["c"]);
  });

  it("gives pinned columns slots in group order, not pin order", () => {
    const cols = [{ id: "a" }, { id: "b" }, { id: "c" }];
    expect([...pinSlots(cols, ["c", "a"])]).toEqual([
      ["a", 0],
      ["c", 1],
    ]);
  });
});

describe("syncedScrollTop", () => {
  it("moves to the same relative position", () => {
    const source = { scrollTop: 250, scrollHeight: 1500, clientHeight: 500 };
    expect(syncedScrollTop(source, { scrollHeight: 700, clientHeight: 500 })).toBe(50);
    expect(syncedScrollTop(source, { scrollHeight: 3500, clientHeight: 500 })).toBe(750);
  });

  it("keeps a column that cannot scroll, or a source that cannot, at 0", () => {
    expect(
      syncedScrollTop(
        { scrollTop: 100, scrollHeight: 900, clientHeight: 500 },
        { scrollHeight: 400, clientHeight: 500 },
      ),
    ).toBe(0);
    expect(
      syncedScrollTop(
        { scrollTop: 0, scrollHeight: 500, clientHeight: 500 },
        { scrollHeight: 900, clientHeight: 500 },
      ),
    ).toBe(0);
  });

  it("clamps overscroll to the ends", () => {
    expect(
      syncedScrollTop(
        { scrollTop: 2000, scrollHeight: 1000, clientHeight: 500 },
        { scrollHeight: 900, clientHeight: 500 },
      ),
    ).toBe(400);
  });
});

describe("sameRolloutColumn", () => {
  const group: RolloutGroup = {
    id: "g",
    rollouts: [rollout("a", 1, "four", { rewards: { correct: 1, style: null } })],
  };
  const column = (): RolloutColumn =>
    prepareRolloutColumns(group, analyzeDataset([group]).groups[0]!, ANALYSIS_DEFAULTS).columns[0]!;

  it("is true for the same values in a rebuilt view model", () => {
    const a = column();
    const b = column();
    expect(b).not.toBe(a);
    expect(sameRolloutColumn(a, b)).toBe(true);
  });

  it("is false when any value differs, a plain number or a component included", () => {
    const a = column();
    const other = (v: unknown): unknown =>
      typeof v === "number" ? v + 1 : typeof v === "boolean" ? !v : `${String(v)}!`;
    for (const key of Object.keys(a) as (keyof RolloutColumn)[]) {
      if (key === "plain") {
        for (const p of Object.keys(a.plain) as (keyof RolloutColumn["plain"])[])
          expect(
            sameRolloutColumn(a, { ...a, plain: { ...a.plain, [p]: other(a.plain[p]) } }),
            p,
          ).toBe(false);
      } else if (key === "components") {
        const [first, ...rest] = a.components;
        expect(
          sameRolloutColumn(a, { ...a, components: [{ ...first!, value: "9" }, ...rest] }),
        ).toBe(false);
        expect(sameRolloutColumn(a, { ...a, components: rest })).toBe(false);
      } else {
        expect(sameRolloutColumn(a, { ...a, [key]: other(a[key]) }), key).toBe(false);
      }
    }
  });
});
