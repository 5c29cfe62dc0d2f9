import { describe, expect, it } from "vitest";
import { testRollout } from "../../test/rolloutFixtures.ts";
import type { RolloutGroup } from "../types.ts";
import { ANNOTATIONS_EMPTY, GROUP_ANNOTATION_EMPTY } from "./annotations.ts";
import { annotationsImportProblems } from "./resolve.ts";

const parsed: RolloutGroup = {
  id: "p",
  rollouts: [0, 1].map((i) => testRollout({ id: `p/${i}`, groupId: "p", index: i })),
};

/** Each group ranks the given rollout ids, one tier each. */
function ranking(byGroup: Record<string, string[]>) {
  return {
    ...ANNOTATIONS_EMPTY,
    groups: Object.fromEntries(
      Object.entries(byGroup).map(([g, ids]) => [
        g,
        { ...GROUP_ANNOTATION_EMPTY, ranking: ids.map((id) => [id]) },
      ]),
    ),
  };
}

describe("import problems in partly parsed data", () => {
  it("checks parsed groups rollout by rollout, unparsed ones by id only", () => {
    const problems = annotationsImportProblems(
      [parsed],
      new Set(["p", "later"]),
      ranking({ p: ["p/0", "p/9", "p/0"], later: ["later/5"], gone: ["gone/0"] }),
    );
    expect(problems.map((p) => p.message)).toEqual([
      'the ranking names rollout "p/9", which is not in group "p"',
      'group "gone" is not in the data',
      'rollout "p/0" is ranked twice; its first place is kept',
    ]);
  });

  it("reports nothing for annotations of the data", () => {
    expect(
      annotationsImportProblems([parsed], new Set(["p"]), ranking({ p: ["p/1", "p/0"] })),
    ).toEqual([]);
  });
});
