import { describe, expect, it } from "vitest";
import { testJudgeRun } from "../../test/judgeRunFixtures.ts";
import { garRunHackFlags, latestGarRuns } from "./hackFlags.ts";

describe("latestGarRuns", () => {
  it("takes for each group the last gar run with an entry for it, skipping other modes", () => {
    const first = testJudgeRun({ id: "1", mode: "gar" }, { g1: {}, g2: {} });
    const rubric = testJudgeRun({ id: "2", mode: "rubric" }, { g1: {} });
    const last = testJudgeRun({ id: "3", mode: "gar" }, { g2: {} });
    const latest = latestGarRuns([first, rubric, last]);
    expect([...latest].map(([g, run]) => [g, run.info.id])).toEqual([
      ["g1", "1"],
      ["g2", "3"],
    ]);
  });
});

describe("garRunHackFlags", () => {
  it("counts each flagged rollout once and says who flagged", () => {
    const heuristic = testJudgeRun({ id: "h", mode: "gar" }, { g: { hacks: ["a", "b", "a"] } });
    expect(garRunHackFlags(heuristic, "g")).toEqual({ flagged: 2, by: "heuristic" });
    const llm = testJudgeRun({ id: "j", mode: "gar", source: "llm" }, { g: { hacks: ["a"] } });
    expect(garRunHackFlags(llm, "g")).toEqual({ flagged: 1, by: "judge" });
  });

  it("is null without an entry, for a failed entry and when nothing is flagged", () => {
    const run = testJudgeRun(
      { id: "r", mode: "gar" },
      {
        failed: {
          hacks: ["a"],
          error: { kind: "invalid_reply", message: "bad reply", status: null },
        },
        clean: { hacks: [] },
      },
    );
    expect(garRunHackFlags(run, "other")).toBeNull();
    expect(garRunHackFlags(run, "failed")).toBeNull();
    expect(garRunHackFlags(run, "clean")).toBeNull();
  });
});
