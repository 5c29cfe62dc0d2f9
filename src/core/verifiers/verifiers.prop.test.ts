/**
 * Invariants of the verifiers: the length penalty never drives a reward of 0 or more below zero
 * and never adds; binary verifiers give 0 or their weight (or null); a row's outcome depends on that
 * row alone (order invariance); an answer always matches itself; totals add up; with the default
 * logged-reward rule, a 0/1 reward under 0/1 verifiers stays 0/1 and never turns a fail into a pass.
 */
import { fc, test } from "@fast-check/vitest";
import { expect } from "vitest";
import { testRollout } from "../../test/rolloutFixtures.ts";
import { ANALYSIS_DEFAULTS } from "../analysis/analyze.ts";
import { verifierApply, verifierLayout } from "./apply.ts";
import { verifierFlips } from "./combine.ts";
import { lengthPenalize } from "./length.ts";
import { answerEquals } from "./match.ts";
import { verifierScore, type VerifierInput } from "./run.ts";
import {
  ANSWER_NORMALIZATION_DEFAULT,
  FORMAT_PRESET_REASONING_ANSWER,
  VERIFIER_SPEC_EMPTY,
  type AnswerNormalization,
  type Verifier,
  type VerifierSpec,
} from "./spec.ts";

const finite = fc.double({ min: -1e6, max: 1e6, noNaN: true, noDefaultInfinity: true });
const nonNegative = fc.double({ min: 0, max: 1e6, noNaN: true, noDefaultInfinity: true });

test.prop([finite, fc.nat(100_000), fc.nat(10_000), nonNegative])(
  "the length penalty stays in [0, reward] for a reward >= 0, and leaves a negative one alone",
  (reward, length, target, perUnit) => {
    const out = lengthPenalize(reward, length, target, perUnit);
    if (reward >= 0) {
      expect(out).toBeGreaterThanOrEqual(0);
      expect(out).toBeLessThanOrEqual(reward);
    } else expect(out).toBe(reward);
  },
);

test.prop([nonNegative, fc.nat(10_000), fc.nat(10_000), fc.nat(1000), nonNegative])(
  "a longer text is never penalised less",
  (reward, a, b, target, perUnit) => {
    const [short, long] = a <= b ? [a, b] : [b, a];
    expect(lengthPenalize(reward, long, target, perUnit)).toBeLessThanOrEqual(
      lengthPenalize(reward, short, target, perUnit),
    );
  },
);

const normalization: fc.Arbitrary<AnswerNormalization> = fc.record({
  trim: fc.boolean(),
  ignoreCase: fc.boolean(),
  collapseWhitespace: fc.boolean(),
  numeric: fc.boolean(),
});

test.prop([fc.string(), normalization])(
  "an answer equals itself under any normalisation",
  (s, n) => {
    expect(answerEquals(s, s, n)).toBe(true);
  },
);

const text = fc.oneof(
  fc.string(),
  fc.constantFrom(
    "<reasoning>r</reasoning><answer>42</answer>",
    "<reasoning>r</reasoning>\n<answer>41</answer>",
    "<answer>42</answer>",
    '{"a": 1}',
    "42",
  ),
);
const row: fc.Arbitrary<VerifierInput> = fc.record({
  text,
  fields: fc.record({ gold: fc.oneof(fc.constantFrom("42", "41"), fc.constant(undefined)) }),
  components: fc.record({ file: fc.oneof(finite, fc.constant(null)) }),
  verdicts: fc.constant({}),
});

const verifiers: Verifier[] = [
  { kind: "format", name: "format", enabled: true, weight: 0.5, ...FORMAT_PRESET_REASONING_ANSWER },
  {
    kind: "exact-match",
    name: "exact",
    enabled: true,
    weight: 2,
    field: "gold",
    pattern: null,
    flags: "",
    normalize: ANSWER_NORMALIZATION_DEFAULT,
  },
  {
    kind: "json-schema",
    name: "json",
    enabled: true,
    weight: 1,
    schema: { from: "inline", schema: { type: "object", required: ["a"] } },
    draft: "2020-12",
  },
  {
    kind: "length-penalty",
    name: "exact_len",
    enabled: true,
    weight: 1,
    wraps: "exact",
    target: 3,
    penaltyPerUnit: 0.3,
    unit: "words",
  },
  {
    kind: "length-penalty",
    name: "file_len",
    enabled: true,
    weight: 1,
    wraps: "file",
    target: 2,
    penaltyPerUnit: 0.5,
    unit: "characters",
  },
];
const spec: VerifierSpec = { ...VERIFIER_SPEC_EMPTY, verifiers };

test.prop([fc.array(row, { minLength: 1, maxLength: 8 })])(
  "binary verifiers give 0 or their weight; penalties stay in [0, their input] for inputs >= 0",
  (rows) => {
    const run = verifierScore(spec, rows);
    for (const [i, outcomes] of run.outcomes.entries()) {
      const [format, exact, json, exactLen, fileLen] = outcomes;
      expect([0, 0.5]).toContain(format!.value);
      expect([0, 2, null]).toContain(exact!.value);
      expect([0, 1]).toContain(json!.value);
      if (exact!.value === null) expect(exactLen!.value).toBeNull();
      else {
        expect(exactLen!.value).toBeGreaterThanOrEqual(0);
        expect(exactLen!.value).toBeLessThanOrEqual(exact!.value);
      }
      const file = rows[i]!.components.file ?? null;
      if (file === null) expect(fileLen!.value).toBeNull();
      else if (file >= 0) expect(fileLen!.value).toBeGreaterThanOrEqual(0);
      for (const o of outcomes) expect(o.pass === null).toBe(o.value === null);
    }
  },
);

test.prop([
  fc.array(row, { minLength: 1, maxLength: 8 }).chain((rows) =>
    fc.tuple(
      fc.constant(rows),
      fc.shuffledSubarray(
        rows.map((_, i) => i),
        { minLength: rows.length, maxLength: rows.length },
      ),
    ),
  ),
])(
  "a row's outcome depends on that row alone (any order gives the same outcomes)",
  ([rows, order]) => {
    const run = verifierScore(spec, rows);
    const shuffled = verifierScore(
      spec,
      order.map((i) => rows[i]!),
    );
    order.forEach((i, k) => expect(shuffled.outcomes[k]).toEqual(run.outcomes[i]));
  },
);

test.prop([
  fc.array(fc.tuple(text, fc.oneof(finite, fc.constant(null)), fc.constantFrom("42", "41")), {
    minLength: 1,
    maxLength: 6,
  }),
])(
  "with the logged reward kept, a total is the logged reward plus the emitted components",
  (cells) => {
    const groups = [
      {
        id: "g",
        rollouts: cells.map(([completion, reward, gold], i) =>
          testRollout({ id: `g/${i}`, index: i, completion, reward, rewards: {}, meta: { gold } }),
        ),
      },
    ];
    const result = verifierApply(groups, {
      ...spec,
      loggedReward: "keep",
      verifiers: verifiers.slice(0, 3),
    });
    if (!result.ok) throw new Error(result.problems.join("; "));
    result.groups[0]!.rollouts.forEach((r, i) => {
      const parts = [cells[i]![1], r.rewards.format, r.rewards.exact, r.rewards.json].filter(
        (x): x is number => typeof x === "number",
      );
      const sum = parts.reduce((a, b) => a + b, 0);
      expect(r.reward).not.toBeNull();
      expect(Math.abs(r.reward! - sum)).toBeLessThanOrEqual(1e-9 * (1 + Math.abs(sum)));
    });
  },
);

const binaryVerifiers: Verifier[] = [
  { kind: "format", name: "format", enabled: true, weight: 1, ...FORMAT_PRESET_REASONING_ANSWER },
  {
    kind: "exact-match",
    name: "exact",
    enabled: true,
    weight: 1,
    field: "gold",
    pattern: null,
    flags: "",
    normalize: ANSWER_NORMALIZATION_DEFAULT,
  },
];

test.prop([
  fc.array(
    fc.array(
      fc.tuple(
        text,
        fc.constantFrom(0, 1),
        fc.oneof(fc.constantFrom("42", "41"), fc.constant(undefined)),
      ),
      { minLength: 1, maxLength: 6 },
    ),
    { minLength: 1, maxLength: 4 },
  ),
  fc.subarray(binaryVerifiers, { minLength: 1 }),
  fc.double({ min: 0.01, max: 1, noNaN: true }),
])(
  "the default rule on a 0/1 reward and 0/1 verifiers: every total is 0 or 1, and no fail becomes a pass",
  (cells, chosen, passThreshold) => {
    const groups = cells.map((rows, g) => ({
      id: `g${g}`,
      rollouts: rows.map(([completion, reward, gold], i) =>
        testRollout({
          id: `g${g}/${i}`,
          groupId: `g${g}`,
          index: i,
          completion,
          reward,
          rewards: {},
          meta: gold === undefined ? {} : { gold },
        }),
      ),
    }));
    const spec: VerifierSpec = { ...VERIFIER_SPEC_EMPTY, verifiers: chosen };
    expect(spec.loggedReward).toBe("auto");
    const result = verifierApply(groups, spec);
    if (!result.ok) throw new Error(result.problems.join("; "));
    expect(result.resolution.rule).toBe("multiply");
    for (const g of result.groups) for (const r of g.rollouts) expect([0, 1]).toContain(r.reward);
    const report = verifierFlips(
      groups,
      result.groups,
      { ...ANALYSIS_DEFAULTS, passThreshold },
      verifierLayout(spec, result.resolution.rule).emitted,
      result.resolution.rule,
    );
    expect(report.flips.filter((f) => f.toPass)).toEqual([]);
    expect(report.passesAfter).toBeLessThanOrEqual(report.passesBefore);
  },
);
