import { describe, expect, it } from "vitest";
import { analyzeThreadCount, THREADS_FROM_BYTES } from "./pool.ts";

describe("analyzeThreadCount", () => {
  it("uses one thread per core up to four for a large file, none for a small one or one core", () => {
    expect(analyzeThreadCount({}, THREADS_FROM_BYTES, 2)).toBe(2);
    expect(analyzeThreadCount({}, THREADS_FROM_BYTES * 10, 16)).toBe(4);
    expect(analyzeThreadCount({}, THREADS_FROM_BYTES - 1, 8)).toBe(0);
    expect(analyzeThreadCount({}, THREADS_FROM_BYTES, 1)).toBe(0);
  });

  it("takes ROLLOUT_STUDIO_ANALYZE_THREADS when set (0 or 1: none), whatever the size", () => {
    expect(analyzeThreadCount({ ROLLOUT_STUDIO_ANALYZE_THREADS: "3" }, 10, 2)).toBe(3);
    expect(analyzeThreadCount({ ROLLOUT_STUDIO_ANALYZE_THREADS: "1" }, THREADS_FROM_BYTES, 8)).toBe(
      0,
    );
    expect(analyzeThreadCount({ ROLLOUT_STUDIO_ANALYZE_THREADS: "0" }, THREADS_FROM_BYTES, 8)).toBe(
      0,
    );
    expect(analyzeThreadCount({ ROLLOUT_STUDIO_ANALYZE_THREADS: "x" }, THREADS_FROM_BYTES, 2)).toBe(
      2,
    );
  });
});
