import { expect } from "vitest";

/**
 * Element-wise closeness for golden vectors. methods.md quotes values to a fixed number of decimals,
 * sometimes truncated rather than rounded (1.22466 is quoted as 1.2246), so the tolerance is one unit
 * in the last quoted place: |actual - expected| <= 10^-digits.
 */
export function expectClose(
  actual: readonly number[],
  expected: readonly number[],
  digits = 4,
): void {
  expect(actual).toHaveLength(expected.length);
  const tolerance = 10 ** -digits;
  actual.forEach((a, i) => {
    const e = expected[i]!;
    expect(
      Math.abs(a - e),
      `index ${i}: got ${JSON.stringify(actual)}, want ${JSON.stringify(expected)}`,
    ).toBeLessThanOrEqual(tolerance);
  });
}
