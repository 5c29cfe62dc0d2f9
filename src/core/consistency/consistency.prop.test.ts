/**
 * Properties of the label-free group rewards (methods.md 1.7). Golden vectors live in
 * consistency.test.ts.
 */
import { fc, test } from "@fast-check/vitest";
import { expect } from "vitest";
import { consistencyComplementarity } from "./consistency.ts";

const permutation = (n: number) =>
  fc.shuffledSubarray(
    Array.from({ length: n }, (_, i) => i),
    { minLength: n, maxLength: n },
  );

/** Passed test-case lists over a small id pool (cases are shared), repeats and nulls included. */
const passedLists = fc.array(
  fc.option(fc.array(fc.constantFrom("a", "b", "c", "d", "e", "f"), { maxLength: 6 }), {
    nil: null,
  }),
  { maxLength: 12 },
);

test.prop([passedLists.chain((lists) => fc.tuple(fc.constant(lists), permutation(lists.length)))])(
  "consistencyComplementarity: permuting the rollouts permutes the scores",
  ([lists, p]) => {
    const base = consistencyComplementarity(lists);
    const moved = consistencyComplementarity(p.map((i) => lists[i]!));
    // Each score sums 1/count over the rollout's own cases in its own order: the same doubles.
    expect(moved).toEqual(p.map((i) => base[i]!));
  },
);
