import { describe, expect, it } from "vitest";
import {
  fieldsSummary,
  mappingAsk,
  mappingTyped,
  previewText,
  rewardKeysFromText,
  rewardKeysText,
  rewardSummary,
  withRewardKey,
} from "./mappingFormModel.ts";
import { NO_PICKS, prepareMappingFields } from "./prepareMappingFields.ts";

const RECORDS = [
  { task: "t1", answer: "a", score: 1, bonus: 0.5 },
  { task: "t1", answer: "b", score: 0, bonus: 0 },
];

describe("mapping form", () => {
  it("asks for typed names when the sample has no fields", () => {
    const empty = prepareMappingFields([], NO_PICKS);
    expect(mappingTyped(empty)).toBe(true);
    expect(mappingAsk(true)).toMatch(/^No fields could be read/);
    expect(previewText(empty, true)).toBe("No preview without sampled records.");
    const sampled = prepareMappingFields(RECORDS, NO_PICKS);
    expect(mappingTyped(sampled)).toBe(false);
    expect(mappingAsk(false)).toBe("Pick the fields that hold each part of a rollout.");
    expect(previewText(sampled, false)).toBe(sampled.previewLine);
  });

  it("ticks and unticks reward fields, and keeps typed ones as typed", () => {
    const one = withRewardKey(NO_PICKS, "score", true);
    const two = withRewardKey(one, "bonus", true);
    expect(two.rewardKeys).toEqual(["score", "bonus"]);
    expect(withRewardKey(two, "score", false).rewardKeys).toEqual(["bonus"]);
    expect(rewardKeysFromText("score, bonus,")).toEqual(["score", " bonus", ""]);
    expect(rewardKeysText({ ...NO_PICKS, rewardKeys: ["score", " bonus", ""] })).toBe(
      "score, bonus,",
    );
  });

  it("says what the reward fields make", () => {
    expect(rewardSummary(NO_PICKS)).toBe("None: the rollouts load without rewards.");
    expect(rewardSummary(withRewardKey(NO_PICKS, "score", true))).toBe("This field is the reward.");
    expect(rewardSummary({ ...NO_PICKS, rewardKeys: ["score", "bonus"] })).toMatch(
      /reward is their sum\.$/,
    );
  });

  it("counts the sample's fields", () => {
    expect(fieldsSummary(prepareMappingFields(RECORDS, NO_PICKS))).toBe("4 fields in the sample");
    expect(fieldsSummary(prepareMappingFields([{ only: 1 }], NO_PICKS))).toBe(
      "1 field in the sample",
    );
  });
});
