import { describe, expect, it } from "vitest";
import type { RolloutGroup } from "../../../core/index.ts";
import { testRollout } from "../../../test/rolloutFixtures.ts";
import {
  discoveryScope,
  DISCOVERY_ROLLOUTS,
  fieldValues,
  FILTER_VALUES_CAP,
  firstRollouts,
  optionsKeeping,
} from "./metadataControlsModel.ts";

const group = (id: string, metas: readonly Record<string, unknown>[]): RolloutGroup => ({
  id,
  rollouts: metas.map((meta, i) => testRollout({ id: `${id}/${i}`, groupId: id, index: i, meta })),
});

const groups = (...list: RolloutGroup[]): ReadonlyMap<string, RolloutGroup> =>
  new Map(list.map((g) => [g.id, g]));

describe("metadata controls' view model", () => {
  it("discovers from the first rollouts across groups, in order", () => {
    const gs = groups(group("a", [{}, {}]), group("b", [{}, {}]));
    expect([...firstRollouts(gs, 3)].map((r) => r.id)).toEqual(["a/0", "a/1", "b/0"]);
  });

  it("says what the fields were discovered from", () => {
    expect(discoveryScope(DISCOVERY_ROLLOUTS)).toBe("every rollout");
    expect(discoveryScope(DISCOVERY_ROLLOUTS + 1)).toBe("the first 20,000 of 20,001 rollouts");
  });

  it("lists a field's distinct values as text in natural order, capped", () => {
    const gs = groups(
      group("a", [{ task: { n: 10 } }, { task: { n: 2 } }]),
      group("b", [{ task: { n: 2 } }, { task: { n: "x" } }, {}]),
    );
    expect(fieldValues(gs, "task.n")).toEqual({ values: ["2", "10", "x"], more: false });
    const many = groups(
      group(
        "m",
        Array.from({ length: FILTER_VALUES_CAP + 1 }, (_, i) => ({ k: i })),
      ),
    );
    const capped = fieldValues(many, "k");
    expect(capped.values).toHaveLength(FILTER_VALUES_CAP);
    expect(capped.more).toBe(true);
  });

  it("keeps a linked choice the options lack, first", () => {
    expect(optionsKeeping(["a", "b"], "")).toEqual(["a", "b"]);
    expect(optionsKeeping(["a", "b"], "b")).toEqual(["a", "b"]);
    expect(optionsKeeping(["a", "b"], "c")).toEqual(["c", "a", "b"]);
  });
});
