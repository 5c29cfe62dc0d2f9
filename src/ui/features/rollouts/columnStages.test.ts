import { fc, test } from "@fast-check/vitest";
import { describe, expect } from "vitest";

import { COLUMNS_FIRST, columnsMounted, columnStages } from "./RolloutColumns.tsx";

describe("columns mounted in stages", () => {
  test.prop([fc.integer({ min: 0, max: 5000 })])(
    "mount every column by the last stage, more at every stage, never more than the group",
    (total) => {
      const stages = columnStages(total);
      expect(columnsMounted(total, stages)).toBe(total);
      if (stages > 1) expect(columnsMounted(total, stages - 1)).toBeLessThan(total);
      for (let s = 1; s < stages; s++)
        expect(columnsMounted(total, s + 1)).toBeGreaterThan(columnsMounted(total, s));
      expect(columnsMounted(total, 1)).toBe(Math.min(total, COLUMNS_FIRST));
    },
  );
  test.prop([fc.integer({ min: 0, max: COLUMNS_FIRST })])(
    "a group of 12 or fewer is one stage",
    (total) => {
      expect(columnStages(total)).toBe(1);
    },
  );
});
