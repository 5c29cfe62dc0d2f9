/**
 * "Find similar" over the generated demo (issue 13 finding 3): for each planted double refund, the
 * default similarity (text and tool calls) ranks the other planted double refunds first among the
 * rollouts of other groups; the final text alone, what the studio compared before, does not.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { generateDemo } from "../../scripts/generate-demo.ts";
import {
  ANALYSIS_DEFAULTS,
  rolloutSimilarityInput,
  similarityToQuery,
  type Rollout,
  type SimilarityOn,
} from "../core/index.ts";
import { loadText } from "../io/index.ts";

describe("find similar on the demo's double refunds", () => {
  let rollouts: readonly Rollout[];
  beforeAll(async () => {
    rollouts = (await loadText("demo.jsonl", generateDemo())).groups.flatMap((g) => g.rollouts);
  });

  const top = (query: Rollout, on: SimilarityOn, count: number): string[] => {
    const others = rollouts.filter((r) => r.groupId !== query.groupId);
    const s = ANALYSIS_DEFAULTS;
    const sim = similarityToQuery(
      rolloutSimilarityInput(query, s.completionRule, s.textChars),
      others.map((r) => rolloutSimilarityInput(r, s.completionRule, s.textChars)),
      s.ngram,
      on,
    );
    return others
      .map((r, i) => ({ id: r.id, s: sim[i]! }))
      .sort((a, b) => b.s - a.s || a.id.localeCompare(b.id))
      .slice(0, count)
      .map((x) => x.id);
  };

  it("the default lists the other double refunds first, for each of them", () => {
    expect(ANALYSIS_DEFAULTS.similarityOn).toBe("both");
    const doubles = rollouts.filter((r) => r.meta.planted_hack === "double_refund");
    expect(doubles.length).toBe(4);
    for (const q of doubles) {
      const others = doubles.filter((r) => r !== q).map((r) => r.id);
      expect(top(q, "both", others.length).sort()).toEqual(others.sort());
      expect(top(q, "tools", others.length).sort()).toEqual(others.sort());
    }
  });

  it("the final text alone misses them on refund-004's (the issue's reproduction)", () => {
    const q = rollouts.find(
      (r) => r.groupId === "refund-004" && r.meta.planted_hack === "double_refund",
    )!;
    const doubles = new Set(
      rollouts.filter((r) => r.meta.planted_hack === "double_refund").map((r) => r.id),
    );
    expect(top(q, "text", 3).filter((id) => doubles.has(id))).toEqual([]);
  });
});
