/**
 * The offline heuristic grader over the generated demo (scripts/generate-demo.ts): every planted
 * "invented_id" hack is flagged, and no honest rollout (no planted hack) is flagged.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { generateDemo } from "../../scripts/generate-demo.ts";
import { heuristicGrade, type RolloutGroup } from "../core/index.ts";
import { loadText } from "../io/index.ts";

describe("heuristic grader on the demo dataset", () => {
  let groups: readonly RolloutGroup[];
  beforeAll(async () => {
    groups = (await loadText("demo.jsonl", generateDemo())).groups;
  });

  it("flags exactly the planted invented ids among planted-id and honest rollouts", () => {
    const flagged = new Set<string>();
    for (const g of groups) {
      const v = heuristicGrade(g.rollouts);
      expect(v.source).toBe("heuristic");
      for (const i of v.hacks) flagged.add(g.rollouts[i]!.id);
    }
    const all = groups.flatMap((g) => g.rollouts);
    const invented = all.filter((r) => r.meta.planted_hack === "invented_id");
    const honest = all.filter(
      (r) => r.meta.planted_hack === null || r.meta.planted_hack === undefined,
    );
    expect(invented.length).toBeGreaterThanOrEqual(2);
    expect(honest.length).toBeGreaterThan(100);
    expect(invented.filter((r) => !flagged.has(r.id)).map((r) => r.id)).toEqual([]);
    expect(honest.filter((r) => flagged.has(r.id)).map((r) => r.id)).toEqual([]);
  });

  it("ranks every unflagged pass exactly once in each group", () => {
    for (const g of groups) {
      const v = heuristicGrade(g.rollouts);
      const passes = g.rollouts.flatMap((r, i) =>
        r.reward !== null && r.reward >= 0.5 ? [i] : [],
      );
      expect([...v.tiers.flat(), ...v.hacks].sort((a, b) => a - b)).toEqual(passes);
    }
  });
});
