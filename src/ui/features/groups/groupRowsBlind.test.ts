import { describe, expect, it } from "vitest";
import { ANALYSIS_DEFAULTS } from "../../../core/index.ts";
import type { GroupSummary } from "../../../io/dataset.ts";
import { NO_FILTERS } from "../../../store/url.ts";
import {
  blindGroupRows,
  filterGroupRows,
  prepareGroupRows,
  sortGroupRows,
} from "./prepareGroupRows.ts";

const summary = (id: string, rewards: number[]): GroupSummary => ({
  id,
  rewards,
  prompt: `prompt ${id}`,
  partial: false,
  step: null,
});

// g1 mixed, g2 zero std, g3 mixed with the highest mean.
const rows = prepareGroupRows(
  [summary("g1", [1, 0]), summary("g2", [0, 0]), summary("g3", [1, 1, 0.9])],
  new Map(),
  ANALYSIS_DEFAULTS,
);

describe("blindGroupRows", () => {
  it("blanks the reward values of the hidden groups only, and keeps the others' rows", () => {
    const out = blindGroupRows(rows, (id) => id !== "g3");
    expect(out[0]).toBe(rows[0]);
    expect(out[1]).toBe(rows[1]);
    const g3 = out[2]!;
    expect(g3).toMatchObject({ id: "g3", n: 3, prompt: "prompt g3", blind: true });
    expect([g3.passes, g3.mean, g3.std]).toEqual([NaN, NaN, NaN]);
    expect([g3.mixed, g3.zeroStd, g3.unscored, g3.flagged]).toEqual([false, false, false, 0]);
    expect(g3.spread.status).toBe("n/a");
    expect(blindGroupRows(rows, () => true)).toBe(rows);
    expect(blindGroupRows(rows, null)).toBe(rows);
  });

  it("lets no sort or reward filter tell a hidden group's values", () => {
    const out = blindGroupRows(rows, (id) => id !== "g3");
    // By mean, highest first: the hidden group goes last (no value), not first (its real mean).
    expect(sortGroupRows(out, { key: "mean", desc: true }).map((r) => r.id)).toEqual([
      "g1",
      "g2",
      "g3",
    ]);
    expect(sortGroupRows(out, { key: "mean", desc: false }).map((r) => r.id)).toEqual([
      "g2",
      "g1",
      "g3",
    ]);
    expect(filterGroupRows(out, { ...NO_FILTERS, mixedOnly: true }).map((r) => r.id)).toEqual([
      "g1",
    ]);
    const allHidden = blindGroupRows(rows, () => false);
    expect(filterGroupRows(allHidden, { ...NO_FILTERS, zeroStdOnly: true })).toEqual([]);
  });
});
