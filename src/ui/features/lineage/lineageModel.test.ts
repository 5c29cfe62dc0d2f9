import { describe, expect, it } from "vitest";
import type { LineagePoint } from "../../../core/index.ts";
import type { LineageView } from "../../../store/lineage.ts";
import { exactAttr, lineageModel, marksText, pickedPair, togglePick } from "./lineageModel.ts";

const point = (step: number | null, over: Partial<LineagePoint> = {}): LineagePoint => ({
  step,
  groupId: step === null ? "p1" : `${step}/p1`,
  n: 8,
  passes: 4,
  passRate: 0.5,
  meanReward: 0.75,
  std: 0.25,
  clusters: 7,
  meanChars: 600.4,
  spread: "yes",
  hacks: { human: 0, heuristic: 0, judge: 0 },
  ...over,
});

const view = (over: Partial<LineageView> = {}): LineageView => ({
  prompt: "p1",
  members: [1, 2, 3].map((step) => ({ id: `${step}/p1`, step })),
  indexed: false,
  points: [point(1), point(2, { passes: 6, passRate: 0.75, clusters: null }), point(3)],
  parseMax: 128,
  reading: [],
  notLoaded: [],
  clustersPending: 1,
  ...over,
});

describe("lineageModel", () => {
  it("one row per member in step order, the open group's marked, core's numbers as they read", () => {
    const model = lineageModel(view(), "2/p1");
    expect(model.rows.map((r) => [r.groupId, r.stepLabel, r.current, r.state])).toEqual([
      ["1/p1", "1", false, "parsed"],
      ["2/p1", "2", true, "parsed"],
      ["3/p1", "3", false, "parsed"],
    ]);
    expect(model.rows[1]!.cells).toEqual({
      n: "8",
      passes: "6",
      passRate: "0.750",
      std: "0.250",
      clusters: "…",
      meanChars: "600",
      spread: "yes",
      marks: "–",
    });
    expect(model.steps).toBe(3);
    expect(model.coverage).toBe("The clusters of 1 groups are still being computed.");
  });

  it("series skip the points without a value and say how many", () => {
    const [pass, chars, clusters] = lineageModel(view(), "1/p1").series;
    expect(pass!.points).toEqual([
      { step: 1, value: 0.5 },
      { step: 2, value: 0.75 },
      { step: 3, value: 0.5 },
    ]);
    expect(chars!.format(600.4)).toBe("600");
    expect(clusters!.points.map((p) => p.step)).toEqual([1, 3]);
    expect(clusters!.missing).toBe(1);
  });

  it("lists groups being parsed and groups past the cap, and says so", () => {
    const model = lineageModel(
      view({
        points: [point(1)],
        reading: ["2/p1"],
        notLoaded: ["3/p1"],
        parseMax: 2,
        clustersPending: 0,
      }),
      "1/p1",
    );
    expect(model.rows.map((r) => r.state)).toEqual(["parsed", "reading", "not-loaded"]);
    expect(model.rows[2]!.point).toBeNull();
    expect(model.rows[2]!.cells.n).toBe("");
    expect(model.coverage).toBe(
      "1 of 3 groups are being parsed from the file; their rows fill in as they arrive; 1 groups past the first 2 are not loaded (open one to parse it); the sparklines show the parsed groups.",
    );
  });

  it("a step-less group reads so", () => {
    const model = lineageModel(
      view({ members: [{ id: "p1", step: null }], points: [point(null)], clustersPending: 0 }),
      "p1",
    );
    expect(model.rows[0]!.stepLabel).toBe("no step");
    expect(model.steps).toBe(0);
    expect(model.series[0]!.points).toEqual([]);
  });
});

describe("marks, attributes and picking two steps", () => {
  it("writes who marked hacks, skipping zeros", () => {
    expect(marksText({ human: 2, heuristic: 0, judge: 1 })).toBe("2 human, 1 judge");
    expect(marksText({ human: 0, heuristic: 0, judge: 0 })).toBe("–");
  });

  it("data attributes hold the exact number, or nothing", () => {
    expect(exactAttr(1 / 3)).toBe(String(1 / 3));
    expect(exactAttr(NaN)).toBe("");
    expect(exactAttr(null)).toBe("");
  });

  it("keeps at most two picks, the newest replacing the oldest, and orders the pair by step", () => {
    expect(togglePick([], "3/p1")).toEqual(["3/p1"]);
    expect(togglePick(["3/p1", "1/p1"], "2/p1")).toEqual(["1/p1", "2/p1"]);
    expect(togglePick(["3/p1", "1/p1"], "3/p1")).toEqual(["1/p1"]);
    const { rows } = lineageModel(view(), "1/p1");
    const pair = pickedPair(rows, ["3/p1", "1/p1"])!;
    expect([pair.left.groupId, pair.right.groupId]).toEqual(["1/p1", "3/p1"]);
    expect(pickedPair(rows, ["3/p1"])).toBeNull();
    expect(pickedPair(rows, ["3/p1", "9/p1"])).toBeNull();
  });
});
