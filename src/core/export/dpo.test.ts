import { describe, expect, it } from "vitest";
import { ANALYSIS_DEFAULTS } from "../analysis/analyze.ts";
import {
  ANNOTATIONS_EMPTY,
  GROUP_ANNOTATION_EMPTY,
  type Annotations,
} from "../analysis/annotations.ts";
import { FIXTURE_ANNOTATIONS, FIXTURE_GROUPS, fixtureGroup } from "./__fixtures__/exportFixture.ts";
import { exportDpo } from "./dpo.ts";

const pairs = (rows: readonly { chosen_id: string; rejected_id: string; rule: string }[]) =>
  rows.map((r) => `${r.chosen_id}>${r.rejected_id}:${r.rule}`);

function annotate(g: string, ranking: string[][], hacks: string[] = []): Annotations {
  return {
    ...ANNOTATIONS_EMPTY,
    groups: { [g]: { ...GROUP_ANNOTATION_EMPTY, ranking, hacks } },
  };
}

describe("DPO pairs from the human rankings", () => {
  it("pairs every two tiers (better chosen), never a tie; hacks lose to every honest pass", () => {
    // a > (b = c) > d; e is a pass left unranked; h is a hack; f fails.
    const group = {
      id: "g",
      rollouts: fixtureGroup("g", [1, 1, 1, 1, 1, 1, 0]).rollouts.map((r, i) => ({
        ...r,
        id: "abcdehf"[i]!,
      })),
    };
    const rows = exportDpo(
      [group],
      annotate("g", [["a"], ["b", "c"], ["d"]], ["h"]),
      ANALYSIS_DEFAULTS,
    );
    expect(pairs(rows)).toEqual([
      "a>b:tier",
      "a>c:tier",
      "a>d:tier",
      "b>d:tier",
      "c>d:tier",
      "a>h:hack",
      "b>h:hack",
      "c>h:hack",
      "d>h:hack",
      "e>h:hack",
    ]);
    expect(rows[3]).toMatchObject({
      chosen_tier: 1,
      rejected_tier: 2,
      group_id: "g",
      prompt: "Task g",
    });
    expect(rows[3]!.chosen).toBe("answer 1 of g");
    expect(rows[3]!.rejected).toBe("answer 3 of g");
    expect(rows[9]).toMatchObject({ chosen_tier: null, rejected_tier: null });
    expect(rows[5]).toMatchObject({ chosen_tier: 0, rejected_tier: null });
  });

  it("takes hacks and failing rollouts out of the tiers before pairing", () => {
    const group = fixtureGroup("g", [1, 1, 0, 1]);
    // g/1 is a ranked hack; g/2 fails but was ranked: both leave the tiers, an emptied tier vanishes.
    const rows = exportDpo(
      [group],
      annotate("g", [["g/0"], ["g/1"], ["g/2"], ["g/3"]], ["g/1"]),
      ANALYSIS_DEFAULTS,
    );
    expect(pairs(rows)).toEqual(["g/0>g/3:tier", "g/0>g/1:hack", "g/3>g/1:hack"]);
    expect(rows[0]).toMatchObject({ chosen_tier: 0, rejected_tier: 1 });
    // The pass threshold decides what fails.
    const strict = exportDpo(
      [fixtureGroup("g", [1, 0.6, 0.4])],
      annotate("g", [["g/0"], ["g/1"], ["g/2"]]),
      {
        ...ANALYSIS_DEFAULTS,
        passThreshold: 0.7,
      },
    );
    expect(pairs(strict)).toEqual([]);
  });

  it("gives nothing for groups without a ranking or hacks, or a single tier", () => {
    expect(exportDpo(FIXTURE_GROUPS, ANNOTATIONS_EMPTY, ANALYSIS_DEFAULTS)).toEqual([]);
    expect(
      exportDpo([fixtureGroup("g", [1, 1])], annotate("g", [["g/0", "g/1"]]), ANALYSIS_DEFAULTS),
    ).toEqual([]);
  });

  it("on the fixture: every group's pairs in data order", () => {
    expect(pairs(exportDpo(FIXTURE_GROUPS, FIXTURE_ANNOTATIONS, ANALYSIS_DEFAULTS))).toEqual([
      "refund-17/2>refund-17/0:tier",
      "refund-17/0>refund-17/1:hack",
      "refund-17/2>refund-17/1:hack",
      "cancel-3/0>cancel-3/2:hack",
      "cancel-3/1>cancel-3/2:hack",
    ]);
  });

  it("pairs of chat transcripts carry the whole conversation in TRL's conversational form", () => {
    // refund-22 is a chat group with a tool call; the hack refund-22/2 loses to refund-22/0.
    const rows = exportDpo(
      FIXTURE_GROUPS,
      annotate("refund-22", [["refund-22/0"]], ["refund-22/2"]),
      ANALYSIS_DEFAULTS,
      "messages",
    );
    expect(pairs(rows)).toEqual(["refund-22/0>refund-22/2:hack"]);
    const row = rows[0]!;
    expect(row.prompt).toEqual([
      { role: "system", content: "You are a support agent." },
      { role: "user", content: "Refund order 22." },
    ]);
    const completion = (attempt: number) => [
      {
        role: "assistant",
        content: "",
        tool_calls: [
          { id: "c1", type: "function", function: { name: "lookup", arguments: '{"order":"22"}' } },
        ],
      },
      { role: "tool", content: '{"status":"paid"}', tool_call_id: "c1", name: "lookup" },
      { role: "assistant", content: `Refunded order 22, attempt ${attempt}.` },
      { role: "user", content: "thanks" },
    ];
    expect(row.chosen).toEqual(completion(0));
    expect(row.rejected).toEqual(completion(2));
  });

  it("the text form is the final assistant text; text-only rollouts are text in both forms", () => {
    const annotations = annotate("refund-22", [["refund-22/0"]], ["refund-22/2"]);
    const text = exportDpo(FIXTURE_GROUPS, annotations, ANALYSIS_DEFAULTS, "text");
    expect(text[0]).toMatchObject({
      prompt: "system: You are a support agent.\n\nuser: Refund order 22.",
      chosen: "Refunded order 22, attempt 0.",
      rejected: "Refunded order 22, attempt 2.",
    });
    // The default is the conversational form.
    expect(exportDpo(FIXTURE_GROUPS, annotations, ANALYSIS_DEFAULTS)).toEqual(
      exportDpo(FIXTURE_GROUPS, annotations, ANALYSIS_DEFAULTS, "messages"),
    );
    for (const form of ["messages", "text"] as const) {
      const plain = exportDpo(FIXTURE_GROUPS, FIXTURE_ANNOTATIONS, ANALYSIS_DEFAULTS, form);
      expect(plain[0]).toMatchObject({
        prompt: "Task refund-17",
        chosen: "answer 2 of refund-17",
        rejected: "answer 0 of refund-17",
      });
    }
  });
});
