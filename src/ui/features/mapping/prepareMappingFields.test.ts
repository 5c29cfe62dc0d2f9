import { fieldAt } from "../../../io/index.ts";
import { describe, expect, it } from "vitest";
import type { FieldMapping } from "../../../store/slices/presetsSlice.ts";
import {
  cleanPicks,
  discoverFields,
  FIELDS_EXPANDED_MAX,
  guessPicks,
  NO_PICKS,
  prepareMappingFields,
  previewLine,
  previewMapping,
  SAMPLE_CHARS,
} from "./prepareMappingFields.ts";

const picks = (change: Partial<FieldMapping>): FieldMapping => ({ ...NO_PICKS, ...change });

/** Rows as the CSV sample reader returns them: every value is text. */
const csvRows = [
  { question: "What is 2+2?", sample: "4", answer_text: "4", score: "1" },
  { question: "What is 2+2?", sample: "5", answer_text: "4", score: "0" },
  { question: "Capital of France?", sample: "Paris", answer_text: "Paris", score: "1" },
  { question: "Capital of France?", sample: "Lyon", answer_text: "Paris", score: "0" },
];

describe("discoverFields", () => {
  it("lists top-level keys in first-seen order with a sample and a count", () => {
    const fields = discoverFields([
      { a: "x", b: 1 },
      { b: 2, c: true },
    ]);
    expect(fields).toEqual([
      { path: "a", kind: "text", sample: "x", present: 1 },
      { path: "b", kind: "number", sample: "1", present: 2 },
      { path: "c", kind: "boolean", sample: "true", present: 1 },
    ]);
  });

  it("replaces an object by its children, one level down", () => {
    const fields = discoverFields([
      { meta: { task_id: "t1", deep: { x: 1 } }, rewards: { format: 1, correct: 0 } },
    ]);
    expect(fields.map((f) => [f.path, f.kind, f.sample])).toEqual([
      ["meta.task_id", "text", "t1"],
      ["meta.deep", "object", "{…}"],
      ["rewards.format", "number", "1"],
      ["rewards.correct", "number", "0"],
    ]);
  });

  it("takes the first non-empty value as the sample", () => {
    const [field] = discoverFields([{ r: null }, { r: "" }, { r: 0.5 }]);
    expect(field).toEqual({ path: "r", kind: "number", sample: "0.5", present: 3 });
  });

  it("reads numeric text (CSV) as a number and tells messages from other lists", () => {
    const fields = discoverFields([
      {
        score: " 0.25 ",
        messages: [{ role: "user", content: "hi" }],
        tags: ["a"],
        none: [],
      },
    ]);
    expect(fields.map((f) => [f.path, f.kind, f.sample])).toEqual([
      ["score", "numeric text", "0.25"],
      ["messages", "messages", "[1 message]"],
      ["tags", "list", "[1 item]"],
      ["none", "list", "[0 items]"],
    ]);
  });

  it("flattens whitespace and caps long samples", () => {
    const [field] = discoverFields([{ text: `a\n\n b ${"x".repeat(200)}` }]);
    expect(field!.sample).toHaveLength(SAMPLE_CHARS);
    expect(field!.sample.startsWith("a b x")).toBe(true);
    expect(field!.sample.endsWith("…")).toBe(true);
  });

  it("puts known columns first, even without rows, and skips non-object records", () => {
    expect(discoverFields([1, "x", null, [1]], ["q", "a"])).toEqual([
      { path: "q", kind: "empty", sample: "", present: 0 },
      { path: "a", kind: "empty", sample: "", present: 0 },
    ]);
    expect(discoverFields([{ "0": "z", q: "y" }], ["q", "0"]).map((f) => f.path)).toEqual([
      "q",
      "0",
    ]);
  });
});

describe("fieldAt (src/io) on mapping paths", () => {
  it.each([
    [{ "reward.format": 1, reward: { format: 2 } }, "reward.format", 1],
    [{ reward: { format: 2 } }, "reward.format", 2],
    [{ scores: [0.1, 0.2] }, "scores[1]", 0.2],
    [{ a: { b: { c: "deep" } } }, "a.b.c", "deep"],
    [{ a: 1 }, "a.b", undefined],
    ["text", "a", undefined],
  ])("%j at %s is %j", (record, path, expected) => {
    expect(fieldAt(record, path)).toEqual(expected);
  });
});

describe("guessPicks", () => {
  it("guesses the unknown CSV's columns: question, answer_text, score", () => {
    expect(guessPicks(discoverFields(csvRows))).toEqual({
      groupKey: "question",
      idKey: "",
      textKey: "answer_text",
      rewardKeys: ["score"],
    });
  });

  it("prefers names in GUESS_NAMES order, exact before nested", () => {
    const fields = discoverFields([
      {
        prompt: "p",
        task_id: "t",
        meta: { group_id: "g" },
        uid: "u1",
        messages: [{ role: "assistant", content: "x" }],
        completion: "c",
        reward: 1,
        score: 2,
      },
    ]);
    expect(guessPicks(fields)).toEqual({
      groupKey: "meta.group_id",
      idKey: "uid",
      textKey: "completion",
      rewardKeys: ["reward"],
    });
  });

  it("takes every rewards.* component when there is no reward field", () => {
    const fields = discoverFields([
      { example_id: 3, response: "r", rewards: { format: 1, correct: 0 }, score: 5 },
    ]);
    expect(guessPicks(fields)).toEqual({
      groupKey: "example_id",
      idKey: "",
      textKey: "response",
      rewardKeys: ["rewards.format", "rewards.correct"],
    });
  });

  it("matches names case-insensitively and falls back to names containing reward or score", () => {
    const fields = discoverFields([
      { Prompt_ID: "p", Output: "o", reward_total: 1, judge_score: 0 },
    ]);
    expect(guessPicks(fields)).toEqual({
      groupKey: "Prompt_ID",
      idKey: "",
      textKey: "Output",
      rewardKeys: ["reward_total", "judge_score"],
    });
  });

  it("skips fields of the wrong kind and never guesses a field twice", () => {
    const fields = discoverFields([
      { question: "q", text: 4, messages: [{ role: "user", content: "hi" }], id: "q" },
    ]);
    expect(guessPicks(fields)).toEqual({
      groupKey: "question",
      idKey: "id",
      textKey: "messages",
      rewardKeys: [],
    });
  });

  it("guesses nothing from unrelated names", () => {
    expect(guessPicks(discoverFields([{ foo: "a", bar: "b" }]))).toEqual(NO_PICKS);
  });
});

describe("previewMapping", () => {
  it("counts groups and their sizes", () => {
    const preview = previewMapping(csvRows, picks({ groupKey: "question", textKey: "sample" }));
    expect(preview).toEqual({
      records: 4,
      usable: 4,
      groups: 2,
      minSize: 2,
      maxSize: 2,
      missingGroup: 0,
      missingText: 0,
    });
    expect(previewLine(preview)).toBe("2 groups of 2 rollouts in the sample");
  });

  it("shows a size range and counts records the picks cannot read", () => {
    const records = [
      { g: "a", t: "x" },
      { g: "a", t: ["m"] },
      { g: 7, t: "y" },
      { g: 1.5, t: "z" },
      { g: " ", t: "z" },
      { g: "b", t: 3 },
      "not an object",
    ];
    const preview = previewMapping(records, picks({ groupKey: "g", textKey: "t" }));
    expect(preview).toMatchObject({ records: 6, usable: 3, groups: 2, minSize: 1, maxSize: 2 });
    expect(preview).toMatchObject({ missingGroup: 2, missingText: 1 });
    expect(previewLine(preview)).toBe("2 groups of 1–2 rollouts in the sample");
  });

  it("says so when nothing groups yet", () => {
    const preview = previewMapping(csvRows, NO_PICKS);
    expect(preview.groups).toBe(0);
    expect(previewLine(preview)).toBe(
      "No groups in the sample yet: pick the group key and the text.",
    );
  });

  it("reads one singular group", () => {
    const preview = previewMapping([{ g: "a", t: "x" }], picks({ groupKey: "g", textKey: "t" }));
    expect(previewLine(preview)).toBe("1 group of 1 rollout in the sample");
  });
});

describe("cleanPicks", () => {
  it("trims typed names and drops empty and repeated rewards", () => {
    const typed = picks({ groupKey: " g ", textKey: "t ", rewardKeys: ["a", " b", "", "a"] });
    expect(cleanPicks(typed, true)).toEqual({
      groupKey: "g",
      idKey: "",
      textKey: "t",
      rewardKeys: ["a", "b"],
    });
  });

  it("keeps names chosen from the sample exactly", () => {
    const chosen = picks({ groupKey: " g ", textKey: "t", rewardKeys: [" r", ""] });
    expect(cleanPicks(chosen, false)).toEqual({ ...chosen, rewardKeys: [" r"] });
  });
});

describe("prepareMappingFields", () => {
  it("offers key, text and reward options by kind, with samples in the labels", () => {
    const model = prepareMappingFields(
      [{ q: "Q1", n: 3, msgs: [{ role: "user", content: "hi" }], ok: true }],
      picks({ groupKey: "q", textKey: "msgs" }),
    );
    expect(model.keyOptions.map((o) => o.label)).toEqual(["q — Q1", "n — 3"]);
    expect(model.textOptions.map((o) => o.path)).toEqual(["q", "msgs"]);
    expect(model.rewardOptions.map((o) => o.path)).toEqual(["n", "ok"]);
    expect(model.canSubmit).toBe(true);
    expect(model.problems).toEqual([]);
    expect(model.previewLine).toBe("1 group of 1 rollout in the sample");
    expect(model.fieldsExpanded).toBe(true);
  });

  it("keeps a preset's pick the sample lacks, and says so", () => {
    const model = prepareMappingFields(
      csvRows,
      picks({ groupKey: "task", textKey: "sample", rewardKeys: ["score", "bonus"] }),
    );
    expect(model.keyOptions.at(-1)).toEqual({ path: "task", label: "task (not in the sample)" });
    expect(model.rewardOptions.map((o) => o.path)).toEqual([
      "sample",
      "answer_text",
      "score",
      "bonus",
    ]);
    expect(model.problems).toEqual([
      "4 sampled records have no usable group key (text or an integer) in task.",
    ]);
  });

  it("keeps a picked field of another kind under its own sample", () => {
    const model = prepareMappingFields(
      [{ g: ["x"], t: "y" }],
      picks({ groupKey: "g", textKey: "t" }),
    );
    expect(model.keyOptions).toEqual([
      { path: "t", label: "t — y" },
      { path: "g", label: "g — [1 item]" },
    ]);
  });

  it("blocks submit without a group key or text, or with one field in two roles", () => {
    expect(prepareMappingFields(csvRows, NO_PICKS)).toMatchObject({
      canSubmit: false,
      problems: [
        "Pick the field that names each rollout's group.",
        "Pick the field with the rollout's text or messages.",
      ],
    });
    const same = prepareMappingFields(
      csvRows,
      picks({ groupKey: "question", textKey: "question", rewardKeys: ["question"] }),
    );
    expect(same.canSubmit).toBe(false);
    expect(same.problems).toEqual([
      "The group key, id and text must be different fields.",
      "A reward field is also used as the group key, id or text.",
    ]);
  });

  it("with no fields (Parquet), takes typed names and cleans them", () => {
    const model = prepareMappingFields(
      [],
      picks({ groupKey: " g", textKey: "t", rewardKeys: ["r", " "] }),
    );
    expect(model.fields).toEqual([]);
    expect(model.mapping).toEqual({ groupKey: "g", idKey: "", textKey: "t", rewardKeys: ["r"] });
    expect(model.canSubmit).toBe(true);
  });

  it("collapses a long fields table", () => {
    const wide = Object.fromEntries(
      Array.from({ length: FIELDS_EXPANDED_MAX + 1 }, (_, i) => [`f${i}`, i]),
    );
    expect(prepareMappingFields([wide], NO_PICKS).fieldsExpanded).toBe(false);
  });

  it("is deterministic", () => {
    const p = picks({ groupKey: "question", textKey: "sample" });
    expect(prepareMappingFields(csvRows, p)).toEqual(prepareMappingFields(csvRows, p));
  });
});
