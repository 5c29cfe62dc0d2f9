import { describe, expect, it } from "vitest";

import { formatBytes } from "./formatBytes.ts";

describe("formatBytes", () => {
  it.each([
    [0, "0 bytes"],
    [1, "1 byte"],
    [999, "999 bytes"],
    [1000, "1.0 kB"],
    [1234, "1.2 kB"],
    [999_949, "999.9 kB"],
    // Rounds to 1000.0 kB, so it is carried into the next unit.
    [999_950, "1.0 MB"],
    [12_345_678, "12.3 MB"],
    [5_000_000_000, "5.0 GB"],
    [2_500_000_000_000_000, "2,500.0 TB"],
  ])("formats %d as %s", (bytes, expected) => {
    expect(formatBytes(bytes)).toBe(expected);
  });

  it.each([-1, Number.NaN, Number.POSITIVE_INFINITY])("reports %d as unknown", (bytes) => {
    expect(formatBytes(bytes)).toBe("unknown size");
  });
});
