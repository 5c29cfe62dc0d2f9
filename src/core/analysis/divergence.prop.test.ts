/**
 * Properties of the divergence prefix tree: identical trajectories never split, the common prefix
 * is a prefix of every trajectory, branches partition their parent and differ in their first step,
 * and following a member's path from the root rebuilds its whole trajectory.
 */
import { fc, test } from "@fast-check/vitest";
import { describe, expect } from "vitest";
import {
  divergenceFirstSplit,
  divergenceTree,
  type DivergenceNode,
  type DivergenceStep,
} from "./divergence.ts";

/** Steps drawn from a small pool so that shared prefixes and ties are common. */
const step: fc.Arbitrary<DivergenceStep> = fc
  .constantFrom("a", "b", "c")
  .map((t) => ({ kind: "turn", key: t, role: "assistant", text: t, cut: false }));
const trajectory = fc.array(step, { maxLength: 6 });
const trajectories = fc.array(trajectory, { minLength: 1, maxLength: 8 });

function keys(steps: readonly DivergenceStep[]): string[] {
  return steps.map((s) => s.key);
}

/** The steps along member m's path from `n` down to its leaf. */
function path(n: DivergenceNode, m: number): string[] {
  const next = n.branches.find((b) => b.members.includes(m));
  return [...keys(n.steps), ...(next === undefined ? [] : path(next, m))];
}

function check(n: DivergenceNode, ts: readonly (readonly DivergenceStep[])[]): void {
  for (const m of n.members) {
    expect(keys(ts[m]!.slice(n.start, n.start + n.steps.length))).toEqual(keys(n.steps));
  }
  if (n.branches.length === 0) {
    for (const m of n.members) expect(ts[m]!.length).toBe(n.start + n.steps.length);
    return;
  }
  expect(n.branches.length).toBeGreaterThanOrEqual(2);
  expect(n.branches.flatMap((b) => b.members).sort((a, b) => a - b)).toEqual(n.members);
  const firsts = n.branches.map((b) => b.steps[0]?.key ?? null);
  expect(new Set(firsts).size).toBe(firsts.length);
  for (const b of n.branches) {
    expect(b.start).toBe(n.start + n.steps.length);
    check(b, ts);
  }
}

describe("divergenceTree", () => {
  test.prop([trajectory, fc.integer({ min: 1, max: 8 })])(
    "identical trajectories never diverge",
    (t, copies) => {
      const tree = divergenceTree(Array.from({ length: copies }, () => t));
      expect(divergenceFirstSplit(tree)).toBeNull();
      expect(keys(tree.steps)).toEqual(keys(t));
    },
  );

  test.prop([trajectories])("the common prefix is a prefix of every trajectory", (ts) => {
    const tree = divergenceTree(ts);
    for (const t of ts) expect(keys(t.slice(0, tree.steps.length))).toEqual(keys(tree.steps));
    const split = divergenceFirstSplit(tree);
    if (split !== null) {
      // At the split, not every trajectory has the same next step (or some end there).
      const next = new Set(ts.map((t) => t[split]?.key ?? null));
      expect(next.size).toBeGreaterThan(1);
    }
  });

  test.prop([trajectories])(
    "branches partition their parent, differ in their first step, and rebuild every trajectory",
    (ts) => {
      const tree = divergenceTree(ts);
      expect(tree.members).toEqual(ts.map((_, i) => i));
      check(tree, ts);
      ts.forEach((t, m) => expect(path(tree, m)).toEqual(keys(t)));
    },
  );
});
