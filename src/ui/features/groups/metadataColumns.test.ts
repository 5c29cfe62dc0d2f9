import { describe, expect, it } from "vitest";
import type { RolloutGroup } from "../../../core/index.ts";
import { testRollout } from "../../../test/rolloutFixtures.ts";
import { filterMetadataRows, metadataCell } from "./metadataColumns.tsx";
import { prepareGroupRows } from "./prepareGroupRows.ts";

function group(id: string, metas: readonly Record<string, unknown>[]): RolloutGroup {
  return {
    id,
    rollouts: metas.map((meta, i) =>
      testRollout({ id: `${id}/${i}`, groupId: id, index: i, meta }),
    ),
  };
}

const groups = new Map(
  [
    group("g1", [
      { s: "a", t: 1 },
      { s: "b", t: 1 },
    ]),
    group("g2", [{ s: "a" }, { s: "a", t: 2 }]),
    group("g3", [{}]),
  ].map((g) => [g.id, g]),
);
const summaries = [...groups.values()].map((g) => ({
  id: g.id,
  rewards: g.rollouts.map(() => 1),
  prompt: "",
  partial: false,
  step: null,
}));
const rows = prepareGroupRows(summaries, groups, {
  passThreshold: 0.5,
  rewardWeights: null,
  minFactor: 0.5,
  completionRule: "final-assistant",
});

describe("metadataCell", () => {
  it("shows the constant value, mixed with its count, nothing, or – before parsing", () => {
    expect(metadataCell(groups.get("g1"), "t")).toEqual({
      text: "1",
      title: "t: 1 (every rollout)",
    });
    expect(metadataCell(groups.get("g1"), "s").text).toBe("mixed (2 values)");
    expect(metadataCell(groups.get("g2"), "t")).toEqual({
      text: "2",
      title: "t: 2 (1 rollout without it)",
    });
    expect(metadataCell(groups.get("g3"), "s").text).toBe("");
    expect(metadataCell(undefined, "s").text).toBe("–");
  });
});

describe("filterMetadataRows", () => {
  it("keeps groups with a rollout whose field has the value", () => {
    const ids = (f: Parameters<typeof filterMetadataRows>[1], g = groups) =>
      filterMetadataRows(rows, f, g).map((r) => r.id);
    expect(ids({ path: "s", value: "a" })).toEqual(["g1", "g2"]);
    expect(ids({ path: "s", value: "b" })).toEqual(["g1"]);
    expect(ids({ path: "t", value: "2" })).toEqual(["g2"]);
    expect(ids(null)).toEqual(["g1", "g2", "g3"]);
    // A field without a value keeps every row; an unparsed group is not known to match.
    expect(ids({ path: "s", value: "" })).toEqual(["g1", "g2", "g3"]);
    expect(ids({ path: "s", value: "a" }, new Map([["g2", groups.get("g2")!]]))).toEqual(["g2"]);
  });
});
