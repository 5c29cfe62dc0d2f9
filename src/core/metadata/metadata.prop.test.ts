/** Properties of metadata slicing and splitting; examples live in metadata.test.ts. */
import { fc, test } from "@fast-check/vitest";
import { describe, expect } from "vitest";
import type { Rollout, RolloutGroup } from "../types.ts";
import { testRollout } from "../../test/rolloutFixtures.ts";
import {
  metadataFields,
  metadataGroupValue,
  metadataScalarAt,
  metadataSlices,
  metadataSplit,
} from "./metadata.ts";

const scalar = fc.oneof(
  fc.constantFrom("a", "b", "c", 1, 2, true, null),
  fc.string({ maxLength: 3 }),
);
const meta = fc.dictionary(
  fc.constantFrom("s", "t", "o"),
  fc.oneof(scalar, fc.dictionary(fc.constantFrom("x", "y"), scalar, { maxKeys: 2 })),
  { maxKeys: 3 },
);
const reward = fc.oneof(
  fc.constant(NaN),
  fc.double({ noNaN: true, noDefaultInfinity: true, min: -2, max: 2 }),
);
const groups = fc
  .array(fc.array(fc.tuple(meta, reward), { minLength: 1, maxLength: 5 }), { maxLength: 8 })
  .map((gs) =>
    gs.map((rs, gi): RolloutGroup => ({
      id: `g${gi}`,
      rollouts: rs.map(([m, x], i): Rollout =>
        testRollout({ id: `g${gi}/${i}`, groupId: `g${gi}`, index: i, meta: m, reward: x }),
      ),
    })),
  );
const path = fc.constantFrom("s", "t", "o.x", "o.y", "o");
const rewardOf = (r: Rollout): number => r.reward ?? NaN;

describe("metadataSlices", () => {
  test.prop([groups, path, fc.integer({ min: 0, max: 4 })])(
    "the slices' rollouts add up to the total; rates in [0, 1]; groups at most the total",
    (gs, p, max) => {
      const r = metadataSlices(gs, p, rewardOf, 0.5, max);
      const all = [...r.slices, ...(r.other === null ? [] : [r.other])];
      const total = gs.reduce((n, g) => n + g.rollouts.length, 0);
      expect(all.reduce((n, s) => n + s.rollouts, 0)).toBe(total);
      expect(r.totalRollouts).toBe(total);
      expect(r.slices.length).toBeLessThanOrEqual(max);
      for (const s of all) {
        expect(s.groups).toBeLessThanOrEqual(gs.length);
        expect(s.passes).toBeLessThanOrEqual(s.scored);
        expect(s.scored).toBeLessThanOrEqual(s.rollouts);
        if (s.scored > 0) {
          expect(s.passRate).toBeGreaterThanOrEqual(0);
          expect(s.passRate).toBeLessThanOrEqual(1);
        } else expect(s.passRate).toBeNaN();
      }
      // Slices are disjoint: distinct values, largest first.
      const values = r.slices.map((s) => s.value);
      expect(new Set(values).size).toBe(values.length);
      for (let i = 1; i < r.slices.length; i++)
        expect(r.slices[i - 1]!.rollouts).toBeGreaterThanOrEqual(r.slices[i]!.rollouts);
    },
  );
});

describe("metadataSplit", () => {
  test.prop([groups])("shared and own together hold every rollout's scalars", (gs) => {
    for (const g of gs) {
      const split = metadataSplit(g);
      g.rollouts.forEach((r, i) => {
        for (const f of metadataFields([r]).fields) {
          const own = metadataScalarAt(split.own[i]!, f.path);
          const shared = metadataScalarAt(split.shared, f.path);
          expect(own === undefined ? shared : own).toEqual(metadataScalarAt(r.meta, f.path));
          // never in both
          expect(own === undefined || shared === undefined).toBe(true);
        }
      });
    }
  });
});

describe("metadataGroupValue", () => {
  test.prop([groups, path])("constant exactly when one distinct value is present", (gs, p) => {
    for (const g of gs) {
      const present = g.rollouts
        .map((r) => metadataScalarAt(r.meta, p))
        .filter((v) => v !== undefined)
        .map(String);
      const v = metadataGroupValue(g, p);
      const distinct = new Set(present).size;
      expect(v.kind).toBe(distinct === 0 ? "none" : distinct === 1 ? "constant" : "mixed");
      if (v.kind === "mixed") expect(v.count).toBe(distinct);
    }
  });
});
