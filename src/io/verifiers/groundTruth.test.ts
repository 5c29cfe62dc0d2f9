/**
 * Issue 13, finding 1: an exact match's ground-truth path reaches a format's own answer fields as
 * the loaders store them: the native format's `answer` (kept as the rollout's answer, not in its
 * metadata), verl's `gts` and a verifiers-library row's `answer` (both kept in the metadata), and
 * metadata paths as before.
 */
import { describe, expect, it } from "vitest";
import {
  ANSWER_NORMALIZATION_DEFAULT,
  verifierApply,
  verifierTally,
  VERIFIER_SPEC_EMPTY,
  type VerifierSpec,
} from "../../core/index.ts";
import { loadText } from "../index.ts";

const jsonl = (rows: object[]): string => rows.map((r) => `${JSON.stringify(r)}\n`).join("");

const exact = (field: string, pattern: string | null): VerifierSpec => ({
  ...VERIFIER_SPEC_EMPTY,
  verifiers: [
    {
      kind: "exact-match",
      name: "correct",
      enabled: true,
      weight: 1,
      field,
      pattern,
      flags: "",
      normalize: ANSWER_NORMALIZATION_DEFAULT,
    },
  ],
});

async function tally(file: string, text: string, spec: VerifierSpec, options = {}) {
  const loaded = await loadText(file, text, options);
  const applied = verifierApply(loaded.groups, spec);
  if (!applied.ok) throw new Error(applied.problems.join("; "));
  return {
    format: loaded.format,
    tally: verifierTally(applied.run)[0],
    notes: applied.run.outcomes.map((o) => o[0]!.note),
  };
}

describe("ground truth paths", () => {
  it("native: the format's documented answer field", async () => {
    const text = jsonl([
      { group_id: "g", completion: "<answer>42</answer>", reward: 1, answer: "42" },
      { group_id: "g", completion: "<answer>41</answer>", reward: 1, answer: "42" },
      { group_id: "g", completion: "<answer>42</answer>", reward: 0, answer: 42 },
    ]);
    const out = await tally("n.jsonl", text, exact("answer", null));
    expect(out.format).toBe("native");
    expect(out.tally).toMatchObject({ pass: 2, fail: 1, notApplicable: 0 });
    expect(out.notes).toEqual(["", '"41" is not "42"', ""]);
  });

  it("native: a metadata answer wins over the rollout's own", async () => {
    const text = jsonl([
      {
        group_id: "g",
        completion: "<answer>7</answer>",
        reward: 1,
        answer: "42",
        meta: { answer: "7" },
      },
    ]);
    const out = await tally("n.jsonl", text, exact("answer", null));
    expect(out.tally).toMatchObject({ pass: 1, fail: 0, notApplicable: 0 });
  });

  it("verl: gts", async () => {
    const text = jsonl([
      { input: "2+2?", output: "so \\boxed{4}", gts: "4", score: 1, step: 1 },
      { input: "2+2?", output: "so \\boxed{5}", gts: "4", score: 0, step: 1 },
    ]);
    const out = await tally("v.jsonl", text, exact("gts", "\\\\boxed\\{(.*?)\\}"));
    expect(out.format).toBe("verl");
    expect(out.tally).toMatchObject({ pass: 1, fail: 1, notApplicable: 0 });
  });

  it("a verifiers-library results row (prompt, completion, answer, reward), mapped", async () => {
    const text = jsonl([
      { example_id: 0, completion: "<answer>Paris</answer>", answer: "Paris", reward: 1 },
      { example_id: 0, completion: "<answer>Lyon</answer>", answer: "Paris", reward: 0 },
    ]);
    const out = await tally("r.jsonl", text, exact("answer", null), {
      format: "mapped",
      options: { groupKey: "example_id", textKey: "completion", rewardKeys: ["reward"] },
    });
    expect(out.tally).toMatchObject({ pass: 1, fail: 1, notApplicable: 0 });
  });

  it("a missing path is still not applicable, never 0", async () => {
    const text = jsonl([{ group_id: "g", completion: "<answer>42</answer>", reward: 1 }]);
    const out = await tally("n.jsonl", text, exact("answer", null));
    expect(out.tally).toMatchObject({ pass: 0, fail: 0, notApplicable: 1 });
    expect(out.notes).toEqual(['no ground truth at "answer"']);
  });
});
