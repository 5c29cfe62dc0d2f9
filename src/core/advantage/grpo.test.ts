import { describe, expect, it } from "vitest";
import { expectClose } from "../../test/approx.ts";
import {
  GRPO_DEFAULTS,
  grpoAdvantages,
  grpoMultiRewardAdvantages,
  grpoRlooAdvantages,
  grpoWeightedSum,
} from "./grpo.ts";

const group = { ...GRPO_DEFAULTS, scale: "group" } as const;
const batch = { ...GRPO_DEFAULTS, scale: "batch" } as const;
const none = { ...GRPO_DEFAULTS, scale: "none" } as const;

describe("grpoAdvantages: methods.md 3.2 golden vectors (TRL)", () => {
  it.each([
    { r: [[1, 1, 0, 0]], opts: group, a: [[0.8659, 0.8659, -0.8659, -0.8659]] },
    { r: [[7 / 6, 5 / 6, 0, 0]], opts: group, a: [[1.1237, 0.5619, -0.8428, -0.8428]] },
    { r: [[7 / 6, 5 / 6, 0, 0]], opts: none, a: [[0.6667, 0.3333, -0.5, -0.5]] },
    {
      r: [
        [1, 0, 0, 0],
        [1, 1, 0, 1],
      ],
      opts: group,
      a: [
        [1.4997, -0.4999, -0.4999, -0.4999],
        [0.4999, 0.4999, -1.4997, 0.4999],
      ],
    },
    {
      r: [
        [1, 0, 0, 0],
        [1, 1, 0, 1],
      ],
      opts: batch,
      a: [
        [1.4029, -0.4676, -0.4676, -0.4676],
        [0.4676, 0.4676, -1.4029, 0.4676],
      ],
    },
    { r: [[0, 1, 0, 0]], opts: group, a: [[-0.4999, 1.4997, -0.4999, -0.4999]] },
    // Dr. GRPO (methods.md 5.4) on the tau-bench group.
    { r: [[0, 1, 0, 0]], opts: none, a: [[-0.25, 0.75, -0.25, -0.25]] },
    // verl (methods.md 4.1): eps 1e-6.
    { r: [[0, 1, 0, 0]], opts: { ...group, eps: 1e-6 }, a: [[-0.5, 1.5, -0.5, -0.5]] },
  ])("$r with scale $opts.scale", ({ r, opts, a }) => {
    const out = grpoAdvantages(r, opts);
    out.forEach((row, g) => expectClose(row, a[g]!));
  });

  it("batch std is the sample std over all 8 rewards (0.5345)", () => {
    const first = grpoAdvantages(
      [
        [1, 0, 0, 0],
        [1, 1, 0, 1],
      ],
      { ...batch, eps: 0 },
    )[0]![0];
    expect(first).toBeCloseTo(0.75 / 0.5345, 3);
  });

  it("population std is an option", () => {
    const [a] = grpoAdvantages([[1, 1, 0, 0]], { ...group, std: "population", eps: 0 });
    expectClose(a!, [1, 1, -1, -1]);
  });

  it("unscorable (NaN) rows get 0 and leave the baseline (TRL >= 1.6)", () => {
    const [a] = grpoAdvantages([[1, NaN, 0, 0]], group);
    const mean = 1 / 3;
    const std = Math.sqrt(((1 - mean) ** 2 + 2 * mean ** 2) / 2);
    expectClose(a!, [(1 - mean) / (std + 1e-4), 0, -mean / (std + 1e-4), -mean / (std + 1e-4)], 6);
  });

  it("a group of one, or with one scorable value, has advantage 0", () => {
    expect(grpoAdvantages([[5]], group)).toEqual([[0]]);
    expect(grpoAdvantages([[5, NaN]], group)).toEqual([[0, 0]]);
    expect(grpoAdvantages([[5]], none)).toEqual([[0]]);
    expect(grpoAdvantages([[NaN, NaN]], batch)).toEqual([[0, 0]]);
  });

  it("a zero-std group gives zeros, not NaN", () => {
    expect(grpoAdvantages([[1, 1, 1]], group)).toEqual([[0, 0, 0]]);
  });
});

describe("grpoWeightedSum", () => {
  it("skips NaN components and returns NaN when none is usable", () => {
    expect(grpoWeightedSum([1, NaN, 2])).toBe(3);
    expect(grpoWeightedSum([1, NaN, 2], [2, 5, 0.5])).toBe(3);
    expect(grpoWeightedSum([NaN, NaN])).toBeNaN();
    expect(grpoWeightedSum([])).toBeNaN();
  });
  it("rejects a weight list of the wrong length", () => {
    expect(() => grpoWeightedSum([1, 2], [1])).toThrow(/2 reward functions/);
  });
});

describe("GDPO normalize_then_sum (methods.md 3.2 and 5.3)", () => {
  const twoGroups = [
    [
      [0, 0],
      [1, 0],
    ],
    [
      [0, 0],
      [1, 1],
    ],
  ];
  it("sum_then_normalize collapses both groups to the same advantages", () => {
    const out = grpoMultiRewardAdvantages(twoGroups, "sum_then_normalize", group);
    expectClose(out[0]!, [-0.707, 0.707], 3);
    expectClose(out[1]!, [-0.707, 0.707], 3);
  });
  it("normalize_then_sum keeps them apart", () => {
    const out = grpoMultiRewardAdvantages(twoGroups, "normalize_then_sum", group);
    expectClose(out[0]!, [-0.5477, 0.5477]);
    expectClose(out[1]!, [-1.0954, 1.0954]);
  });
  it("both agree on r1 = [1,1,0,0], r2 = [1,0,1,0]", () => {
    const g = [
      [
        [1, 1],
        [1, 0],
        [0, 1],
        [0, 0],
      ],
    ];
    expectClose(
      grpoMultiRewardAdvantages(g, "sum_then_normalize", group)[0]!,
      [1.2246, 0, 0, -1.2246],
    );
    expectClose(
      grpoMultiRewardAdvantages(g, "normalize_then_sum", group)[0]!,
      [1.2246, 0, 0, -1.2246],
    );
  });
  it("an unscorable row stays 0 and weights apply", () => {
    const g = [
      [
        [1, NaN],
        [0, NaN],
        [NaN, NaN],
      ],
    ];
    const out = grpoMultiRewardAdvantages(g, "normalize_then_sum", group, [2, 1]);
    expect(out[0]![2]).toBe(0);
    expect(out[0]![0]).toBeGreaterThan(0);
  });
});

describe("RLOO", () => {
  it("is the leave-one-out baseline, G/(G-1) times the mean-centred reward", () => {
    expectClose(grpoRlooAdvantages([[0, 1, 0, 0]])[0]!, [-1 / 3, 1, -1 / 3, -1 / 3], 10);
  });
  it("skips NaN rows and gives 0 without a baseline", () => {
    expectClose(grpoRlooAdvantages([[2, NaN, 0]])[0]!, [2, 0, -2], 10);
    expect(grpoRlooAdvantages([[2, NaN]])).toEqual([[0, 0]]);
  });
});
