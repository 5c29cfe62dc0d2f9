import { describe, expect, it } from "vitest";
import { ANALYSIS_DEFAULTS, EXPORT_DEFAULTS } from "../../../core/index.ts";
import {
  countText,
  downloadType,
  failedText,
  floorFromText,
  MODE_OPTIONS,
  runFromMenu,
  savedText,
  settingsNote,
  SOURCE_OPTIONS,
  TRANSCRIPT_OPTIONS,
  withRewardMode,
  withRewardSource,
} from "./exportsPanelModel.ts";

const REWARDS = { ...EXPORT_DEFAULTS, judgeRunId: "gar-1" };

describe("exportsPanelModel", () => {
  it("offers every transcript form, source and mode by name", () => {
    expect(TRANSCRIPT_OPTIONS.map((o) => o.label)).toEqual([
      "whole conversations",
      "final-message text (--text)",
    ]);
    expect(SOURCE_OPTIONS).toEqual([
      { value: "human", label: "human ranking" },
      { value: "judge", label: "judge run" },
    ]);
    expect(MODE_OPTIONS.map((o) => o.value)).toEqual(["advantage", "reward"]);
  });

  it("drops the picked run on a new source or mode, and keeps source and mode compatible", () => {
    const judged = withRewardSource(REWARDS, "judge");
    expect(judged).toEqual({ ...REWARDS, source: "judge", judgeRunId: null });
    const grs = withRewardMode({ ...judged, judgeRunId: "rubric-1" }, "reward");
    expect(grs).toEqual({ ...judged, mode: "reward" });
    // Reward mode reads a rubric run: picking it brings the judge source, and the human source
    // takes the mode back to advantage.
    expect(withRewardMode(REWARDS, "reward")).toMatchObject({ source: "judge", mode: "reward" });
    expect(withRewardSource(grs, "human")).toMatchObject({ source: "human", mode: "advantage" });
    expect(withRewardMode(grs, "advantage")).toMatchObject({ source: "judge", mode: "advantage" });
  });

  it("reads a typed floor as a number, empty text as none", () => {
    expect(floorFromText("0.2")).toBe(0.2);
    expect(floorFromText(" ")).toBeNaN();
    expect(floorFromText("x")).toBeNaN();
    expect(runFromMenu("")).toBeNull();
    expect(runFromMenu("newest")).toBe("newest");
  });

  it("states the settings, with the completion rule for text transcripts only", () => {
    const settings = { ...ANALYSIS_DEFAULTS, passThreshold: 0.5, hackZero: false };
    expect(settingsNote(settings, "messages")).toBe(
      `Under the current settings: pass threshold 0.5, GAR cap ${settings.cap}, min factor ${settings.minFactor}, hack zeroing off.`,
    );
    expect(settingsNote(settings, "text")).toMatch(
      new RegExp(`hack zeroing off, completion text ${settings.completionRule}\\.$`),
    );
  });

  it("counts rows with separators, a dash when the export cannot be written", () => {
    expect(countText({ rows: 12345, unit: "rows" })).toBe("12,345 rows");
    expect(countText({ rows: null, unit: "pairs" })).toBe("–");
  });

  it("says what a download did", () => {
    expect(downloadType("a.rewards.jsonl")).toBe("application/x-ndjson");
    expect(downloadType("a.rubrics.json")).toBe("application/json");
    expect(savedText("a.dpo.jsonl", false)).toBe("Saved a.dpo.jsonl.");
    expect(savedText("a.calibration.jsonl", true)).toMatch(
      /^Saved a\.calibration\.jsonl\. Labelled rollouts that had no calibration split now have one/,
    );
    expect(failedText("a.json", new Error("bad"))).toBe("a.json could not be written: bad");
    expect(failedText("a.json", "worse")).toBe("a.json could not be written: worse");
  });
});
