import { describe, expect, it } from "vitest";
import type { RolloutGroup } from "../../../core/index.ts";
import { testRollout } from "../../../test/rolloutFixtures.ts";
import { MAX_SLICES, prepareMetadataSlices, prepareSliceFields } from "./prepareMetadataSlices.ts";

function group(
  id: string,
  rows: readonly [Record<string, unknown>, number | null][],
): RolloutGroup {
  return {
    id,
    rollouts: rows.map(([meta, reward], i) =>
      testRollout({ id: `${id}/${i}`, groupId: id, index: i, meta, reward }),
    ),
  };
}

const groups = [
  group("g1", [
    [{ kind: "a", id: "x1" }, 1],
    [{ kind: "b", id: "x2" }, 0],
  ]),
  group("g2", [
    [{ kind: "a", id: "x3" }, 0],
    [{ id: "x4" }, null],
  ]),
];
const settings = { passThreshold: 0.5, rewardWeights: null };

describe("prepareSliceFields", () => {
  it("starts on the first field with 2 to 12 values", () => {
    const many = [
      group(
        "g",
        Array.from({ length: 14 }, (_, i) => [{ id: i, kind: i % 2 }, 1] as const),
      ),
    ];
    expect(prepareSliceFields(many).initial).toBe("kind");
    expect(prepareSliceFields([]).initial).toBe("");
  });
});

describe("prepareMetadataSlices", () => {
  it("labels the slices (no value last among equals) and formats pass rate and mean reward", () => {
    const m = prepareMetadataSlices(groups, "kind", settings, 2);
    expect(
      m.rows.map((r) => [
        r.label,
        r.key,
        r.rollouts,
        r.groups,
        r.passes,
        r.passRateText,
        r.meanRewardText,
      ]),
    ).toEqual([
      ["a", "a", 2, 2, 1, "50.0%", "0.500"],
      ["b", "b", 1, 1, 0, "0.0%", "0.000"],
      ["(no value)", "", 1, 1, 0, "–", "–"],
    ]);
    expect(m.how).toContain("R >= 0.5");
    expect(m.how).not.toContain("parsed of");
  });
  it("says when an indexed file's groups are not all parsed", () => {
    expect(prepareMetadataSlices(groups, "kind", settings, 10).how).toContain(
      "2 parsed of 10 groups",
    );
  });
  it("pools what is past MAX_SLICES into other", () => {
    const wide = [
      group(
        "g",
        Array.from({ length: MAX_SLICES + 3 }, (_, i) => [{ v: i }, 1] as const),
      ),
    ];
    const m = prepareMetadataSlices(wide, "v", settings, 1);
    expect(m.rows).toHaveLength(MAX_SLICES + 1);
    expect(m.rows.at(-1)).toMatchObject({ label: "other (3 values)", key: "*", rollouts: 3 });
  });
});
