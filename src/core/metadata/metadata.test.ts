import { describe, expect, it } from "vitest";
import type { Rollout, RolloutGroup } from "../types.ts";
import { testRollout } from "../../test/rolloutFixtures.ts";
import {
  metadataFields,
  metadataGroupHas,
  metadataGroupText,
  metadataGroupValue,
  metadataRollouts,
  metadataScalarAt,
  metadataSlices,
  metadataSplit,
  metadataValueKey,
} from "./metadata.ts";

function group(
  id: string,
  metas: readonly Record<string, unknown>[],
  rewards?: number[],
): RolloutGroup {
  return {
    id,
    rollouts: metas.map((meta, i): Rollout =>
      testRollout({ id: `${id}/${i}`, groupId: id, index: i, meta, reward: rewards?.[i] ?? 1 }),
    ),
  };
}

describe("metadataScalarAt", () => {
  const meta = { a: { b: { c: 3 } }, "x.y": "whole", x: { y: "split" }, list: [1], o: {} };
  it("follows dotted paths into nested objects", () => {
    expect(metadataScalarAt(meta, "a.b.c")).toBe(3);
  });
  it("matches a key with dots whole first", () => {
    expect(metadataScalarAt(meta, "x.y")).toBe("whole");
  });
  it("is undefined for objects, arrays and missing paths", () => {
    expect(metadataScalarAt(meta, "a")).toBeUndefined();
    expect(metadataScalarAt(meta, "list")).toBeUndefined();
    expect(metadataScalarAt(meta, "a.b.d")).toBeUndefined();
    expect(metadataScalarAt(meta, "nope")).toBeUndefined();
  });
  it("keeps null as a value", () => {
    expect(metadataScalarAt({ h: null }, "h")).toBeNull();
  });
});

describe("metadataValueKey", () => {
  it("prints strings as they are and other scalars as JavaScript does", () => {
    expect(["a", 1, 0.5, true, null].map(metadataValueKey)).toEqual([
      "a",
      "1",
      "0.5",
      "true",
      "null",
    ]);
  });
});

describe("metadataFields", () => {
  it("finds scalar paths in order of appearance, with counts and distinct values", () => {
    const g = group("g", [
      { strategy: "a", info: { task: { id: 1, actions: [{ name: "x" }] }, cost: 0.5 } },
      { strategy: "b", info: { task: { id: 1 } }, flag: true },
      { strategy: "a" },
    ]);
    const { fields, omitted } = metadataFields(g.rollouts);
    expect(fields.map((f) => f.path)).toEqual(["strategy", "info.task.id", "info.cost", "flag"]);
    expect(fields[0]).toEqual({
      path: "strategy",
      rollouts: 3,
      values: ["a", "b"],
      moreValues: false,
    });
    expect(fields[1]!.rollouts).toBe(2);
    expect(omitted).toBe(0);
  });
  it("caps fields, values and depth, and says so", () => {
    const g = group(
      "g",
      Array.from({ length: 5 }, (_, i) => ({ id: `r${i}`, [`k${i}`]: 1, deep: { a: { b: i } } })),
    );
    const r = metadataFields(g.rollouts, { maxFields: 3, maxValues: 2, maxDepth: 2 });
    expect(r.fields.map((f) => f.path)).toEqual(["id", "k0", "k1"]);
    expect(r.omitted).toBe(3);
    expect(r.fields[0]).toMatchObject({ values: ["r0", "r1"], moreValues: true, rollouts: 5 });
  });
  it("reads many groups through metadataRollouts", () => {
    const fields = metadataFields(
      metadataRollouts([group("a", [{ s: 1 }]), group("b", [{ s: 2 }])]),
    );
    expect(fields.fields[0]).toMatchObject({ path: "s", rollouts: 2, values: [1, 2] });
  });
});

describe("metadataGroupValue", () => {
  const g = group("g", [{ s: "x", m: 1 }, { s: "x", m: 2 }, { m: 3 }]);
  it("is constant when every rollout with the field agrees", () => {
    const v = metadataGroupValue(g, "s");
    expect(v).toEqual({ kind: "constant", value: "x", missing: 1 });
    expect(metadataGroupText(v)).toBe("x");
  });
  it("counts the values of a mixed field", () => {
    expect(metadataGroupText(metadataGroupValue(g, "m"))).toBe("mixed (3 values)");
  });
  it("is empty without the field", () => {
    expect(metadataGroupText(metadataGroupValue(g, "none"))).toBe("");
  });
  it("tells whether any rollout has a value", () => {
    expect(metadataGroupHas(g, "m", "2")).toBe(true);
    expect(metadataGroupHas(g, "m", "4")).toBe(false);
  });
});

describe("metadataSplit", () => {
  it("puts what every rollout shares in the task, key by key through nested objects", () => {
    const task = { user_id: "u", actions: [{ name: "book", kwargs: { a: 1 } }] };
    const g = group("g", [
      { trial: 0, info: { task, source: "user", cost: 0.1 } },
      { trial: 1, info: { task, source: "user", cost: 0.2 } },
    ]);
    const split = metadataSplit(g);
    expect(split.shared).toEqual({ info: { task, source: "user" } });
    expect(split.own).toEqual([
      { trial: 0, info: { cost: 0.1 } },
      { trial: 1, info: { cost: 0.2 } },
    ]);
  });
  it("keeps a field some rollouts lack as their own, and compares arrays whole", () => {
    const g = group("g", [
      { a: [1, 2], b: 1 },
      { a: [1, 2], b: 1, c: 3 },
      { a: [2, 1], b: 1 },
    ]);
    expect(metadataSplit(g)).toEqual({
      shared: { b: 1 },
      own: [{ a: [1, 2] }, { a: [1, 2], c: 3 }, { a: [2, 1] }],
    });
  });
  it("compares objects by content, not key order", () => {
    const g = group("g", [{ o: { x: 1, y: 2 } }, { o: { y: 2, x: 1 } }]);
    expect(metadataSplit(g).shared).toEqual({ o: { x: 1, y: 2 } });
  });
  it("gives a single rollout all its metadata as its own", () => {
    const g = group("g", [{ a: 1 }]);
    expect(metadataSplit(g)).toEqual({ shared: {}, own: [{ a: 1 }] });
  });
});

describe("metadataSlices", () => {
  const groups = [
    group("g1", [{ s: "a" }, { s: "b" }, {}], [1, 0, 1]),
    group("g2", [{ s: "a" }, { s: "a" }], [0, NaN]),
  ];
  const reward = (r: Rollout) => r.reward ?? NaN;
  it("counts rollouts, groups, passes, pass rate and mean reward per value", () => {
    const r = metadataSlices(groups, "s", reward, 0.5);
    expect(r.slices).toEqual([
      { value: "a", rollouts: 3, groups: 2, scored: 2, passes: 1, passRate: 0.5, meanReward: 0.5 },
      { value: "b", rollouts: 1, groups: 1, scored: 1, passes: 0, passRate: 0, meanReward: 0 },
      { value: null, rollouts: 1, groups: 1, scored: 1, passes: 1, passRate: 1, meanReward: 1 },
    ]);
    expect(r.other).toBeNull();
    expect(r.totalRollouts).toBe(5);
    expect(r.totalGroups).toBe(2);
  });
  it("pools the slices past the cap into other", () => {
    const r = metadataSlices(groups, "s", reward, 0.5, 1);
    expect(r.slices.map((s) => s.value)).toEqual(["a"]);
    expect(r.other).toMatchObject({ values: 2, rollouts: 2, groups: 1, passes: 1, scored: 2 });
  });
});
