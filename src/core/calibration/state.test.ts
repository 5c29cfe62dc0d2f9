import { describe, expect, it } from "vitest";
import { CALIBRATION_STATE_EMPTY, calibrationAssign } from "./state.ts";

describe("calibration state", () => {
  it("records new assignments and keeps old ones, so a test row stays in test", () => {
    const rows = Array.from({ length: 40 }, (_, i) => ({
      rolloutId: `r${i}`,
      label: i % 3 === 0 ? "fail" : "pass",
    }));
    const first = calibrationAssign(CALIBRATION_STATE_EMPTY, rows);
    expect(Object.keys(first.state.assignments)).toHaveLength(40);
    const counts = { train: 0, dev: 0, test: 0 };
    for (const s of first.splits.values()) counts[s]++;
    expect(counts.train).toBeGreaterThanOrEqual(5);
    expect(counts.test).toBeGreaterThanOrEqual(16);
    // Unchanged rows: the very same state comes back.
    expect(calibrationAssign(first.state, rows).state).toBe(first.state);
    // A row moved to another stratum keeps its split; new rows are added.
    const relabelled = rows.map((r) => ({ ...r, label: "pass" }));
    const more = [...relabelled, { rolloutId: "new", label: "fail" }];
    const second = calibrationAssign(first.state, more);
    for (const r of rows)
      expect(second.splits.get(r.rolloutId)).toBe(first.splits.get(r.rolloutId));
    expect(second.state.assignments.new).toBeDefined();
  });
});
