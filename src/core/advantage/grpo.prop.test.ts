/**
 * Order invariance of GRPO advantages (methods.md 3.2, 4.1): permuting the rollouts of a group
 * permutes its advantages the same way, for every scale. Golden vectors live in grpo.test.ts.
 */
import { fc, test } from "@fast-check/vitest";
import { expect } from "vitest";
import { grpoAdvantages, type AdvantageScale, type GrpoOptions } from "./grpo.ts";

/** NaN on purpose: it marks an unscorable rollout, whose advantage is 0 wherever it sits. */
const reward = fc.oneof(
  fc.constantFrom(0, 0.5, 1),
  fc.double({ min: -100, max: 100, noNaN: true, noDefaultInfinity: true }),
  fc.constant(NaN),
);

const options: fc.Arbitrary<GrpoOptions> = fc.record({
  scale: fc.constantFrom<AdvantageScale>("group", "batch", "none"),
  eps: fc.constantFrom(1e-4, 1e-6),
  std: fc.constantFrom("sample" as const, "population" as const),
});

const permutation = (n: number) =>
  fc.shuffledSubarray(
    Array.from({ length: n }, (_, i) => i),
    { minLength: n, maxLength: n },
  );

/** A batch of groups and, per group, a permutation of its rollouts. */
const batch = fc
  .array(fc.array(reward, { maxLength: 10 }), { minLength: 1, maxLength: 4 })
  .chain((groups) =>
    fc.tuple(fc.constant(groups), fc.tuple(...groups.map((g) => permutation(g.length)))),
  );

/**
 * Means and stds are summed in a different order after a permutation, so results agree to rounding:
 * about n ulps of the largest reward (1e2) in the numerator, divided by at least eps (1e-6).
 */
const close = (a: number, b: number): boolean => Math.abs(a - b) <= 1e-6 * (1 + Math.abs(b));

test.prop([batch, options])(
  "grpoAdvantages: permuting a group's rollouts permutes its advantages (each scale)",
  ([groups, perms], opts) => {
    const base = grpoAdvantages(groups, opts);
    const moved = grpoAdvantages(
      groups.map((g, k) => perms[k]!.map((i) => g[i]!)),
      opts,
    );
    perms.forEach((p, k) => {
      p.forEach((from, to) => {
        const m = moved[k]![to]!;
        const b = base[k]![from]!;
        expect(close(m, b), `group ${k}: moved[${to}] = ${m}, base[${from}] = ${b}`).toBe(true);
        if (Number.isNaN(groups[k]![from]!)) expect(m).toBe(0);
      });
    });
  },
);

test.prop([
  batch.chain(([groups]) => fc.tuple(fc.constant(groups), permutation(groups.length))),
  options,
])("grpoAdvantages: permuting the groups of a batch permutes the result", ([groups, p], opts) => {
  const base = grpoAdvantages(groups, opts);
  const moved = grpoAdvantages(
    p.map((i) => groups[i]!),
    opts,
  );
  p.forEach((from, to) => {
    moved[to]!.forEach((m, i) => expect(close(m, base[from]![i]!)).toBe(true));
  });
});
