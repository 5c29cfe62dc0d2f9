import { describe, expect, it } from "vitest";
import {
  ANALYSIS_DEFAULTS,
  ANNOTATIONS_EMPTY,
  EXPORT_DEFAULTS,
  exportBuild,
  judgeRunName,
} from "../../../core/index.ts";
import {
  FIXTURE_ANNOTATIONS,
  FIXTURE_GROUPS,
} from "../../../core/export/__fixtures__/exportFixture.ts";
import { exportCommandLine, shellWord } from "./commandLine.ts";
import {
  exportRunModes,
  exportText,
  prepareExports,
  prepareRunOptions,
  type ExportChoices,
} from "./prepareExports.ts";

const DEFAULT: ExportChoices = {
  calibrationRun: null,
  rewards: EXPORT_DEFAULTS,
  transcripts: "messages",
};
const judge: ExportChoices = {
  calibrationRun: "gar-1",
  rewards: { ...EXPORT_DEFAULTS, source: "judge", mode: "reward", floor: 0.2 },
  transcripts: "text",
};

const byId = (id: string) => FIXTURE_ANNOTATIONS.judgeRuns.find((r) => r.info.id === id)!;

describe("prepareExports", () => {
  it("lists every kind with its file name, row count and the run it reads", () => {
    const CALIBRATION_LABELLED = exportBuild("calibration", {
      groups: FIXTURE_GROUPS,
      annotations: FIXTURE_ANNOTATIONS,
      settings: ANALYSIS_DEFAULTS,
    }).rows;
    expect(CALIBRATION_LABELLED).toBeLessThan(12);
    const entries = prepareExports(
      "data/support.jsonl",
      FIXTURE_GROUPS,
      FIXTURE_ANNOTATIONS,
      ANALYSIS_DEFAULTS,
      DEFAULT,
    );
    expect(entries.map((e) => [e.kind, e.fileName, e.rows, e.error])).toEqual([
      // No judge run unless picked: the labelled rows only.
      ["calibration", "support.calibration.jsonl", CALIBRATION_LABELLED, null],
      ["rubrics", "support.rubrics.json", 3, null],
      ["rewards", "support.rewards.jsonl", 17, null],
      ["dpo", "support.dpo.jsonl", 5, null],
      ["annotations", "support.annotations.json", 4, null],
    ]);
    expect(entries[0]!.run).toBeNull();
    expect(entries[2]!.run).toBeNull();
    const withJudge = prepareExports(
      "s.jsonl",
      FIXTURE_GROUPS,
      FIXTURE_ANNOTATIONS,
      ANALYSIS_DEFAULTS,
      judge,
    );
    expect(withJudge[0]!.run).toBe(`${judgeRunName(byId("gar-1"))} [gar-1]`);
    expect(withJudge[2]!.run).toBe(`${judgeRunName(byId("rubric-1"))} [rubric-1]`);
  });

  it("says why an export cannot be written instead of counting", () => {
    const entries = prepareExports(
      "s.jsonl",
      FIXTURE_GROUPS,
      ANNOTATIONS_EMPTY,
      ANALYSIS_DEFAULTS,
      judge,
    );
    expect(entries[0]!.error).toMatch(/no judge run has id "gar-1" \(there are no runs\)/);
    expect(entries[2]!.error).toMatch(/no rubric judge run to read/);
    expect(entries[2]!.rows).toBeNull();
    const badFloor = { ...judge, rewards: { ...judge.rewards, floor: NaN } };
    expect(
      prepareExports(
        "s.jsonl",
        FIXTURE_GROUPS,
        FIXTURE_ANNOTATIONS,
        ANALYSIS_DEFAULTS,
        badFloor,
      )[2]!.error,
    ).toMatch(/floor must be in \[0, 1\)/);
  });

  it("offers the newest run, the runs of the modes newest first, and none where allowed", () => {
    const runs = FIXTURE_ANNOTATIONS.judgeRuns;
    const name = (id: string) => `${judgeRunName(byId(id))} [${id}]`;
    // Calibration: none is the default; the newest is a choice like any run.
    expect(prepareRunOptions(runs, exportRunModes("calibration", DEFAULT), true)).toEqual([
      { value: "", label: "none (human labels only)" },
      { value: "newest", label: `newest: ${name("rubric-1")}` },
      { value: "rubric-1", label: name("rubric-1") },
      { value: "gar-1", label: name("gar-1") },
    ]);
    expect(name("gar-1")).toMatch(/^gar · heuristic grader · prompt /);
    expect(prepareRunOptions(runs, exportRunModes("rewards", DEFAULT), false)).toEqual([
      { value: "", label: `newest: ${name("gar-1")}` },
      { value: "gar-1", label: name("gar-1") },
    ]);
    expect(prepareRunOptions([], ["rubric"], false)).toEqual([
      { value: "", label: "newest (no run yet)" },
    ]);
  });

  it("downloads the builder's text, the annotations through the given serialiser", () => {
    const out = exportText(
      "rewards",
      FIXTURE_GROUPS,
      FIXTURE_ANNOTATIONS,
      ANALYSIS_DEFAULTS,
      judge,
      () => "unused",
    );
    expect(out.text).toBe(
      exportBuild(
        "rewards",
        { groups: FIXTURE_GROUPS, annotations: FIXTURE_ANNOTATIONS, settings: ANALYSIS_DEFAULTS },
        { ...judge.rewards, transcripts: "text" },
      ).text,
    );
    expect(out.calibration).toBe(FIXTURE_ANNOTATIONS.calibration);
    const calibration = exportText(
      "calibration",
      FIXTURE_GROUPS,
      FIXTURE_ANNOTATIONS,
      ANALYSIS_DEFAULTS,
      DEFAULT,
      () => "",
    );
    expect(calibration.calibration).not.toBe(FIXTURE_ANNOTATIONS.calibration);
    expect(
      exportText(
        "annotations",
        FIXTURE_GROUPS,
        FIXTURE_ANNOTATIONS,
        ANALYSIS_DEFAULTS,
        DEFAULT,
        (a) => a.annotator,
      ).text,
    ).toBe("fixture");
  });
});

describe("exportCommandLine", () => {
  it("names the data, the annotations beside it, the kind and the output", () => {
    expect(exportCommandLine("support.jsonl", "dpo", ANALYSIS_DEFAULTS, DEFAULT)).toBe(
      "npx rollout-studio export support.jsonl --annotations support.annotations.json --kind dpo --out support.dpo.jsonl",
    );
  });

  it("adds every option and setting that differs from the CLI's defaults", () => {
    const settings = {
      ...ANALYSIS_DEFAULTS,
      passThreshold: 0.8,
      cap: 2,
      minFactor: 0.25,
      hackZero: false,
      completionRule: "benchmax" as const,
      rewardWeights: { format: 0.5 },
    };
    expect(exportCommandLine("my run.jsonl", "rewards", settings, judge)).toBe(
      "npx rollout-studio export 'my run.jsonl' --annotations 'my run.annotations.json' --kind rewards --out 'my run.rewards.jsonl' --source judge --mode reward --floor 0.2 --pass-threshold 0.8 --cap 2 --min-factor 0.25 --no-hack-zero --text benchmax --weight format=0.5",
    );
    expect(exportCommandLine("d.jsonl", "calibration", ANALYSIS_DEFAULTS, judge)).toBe(
      "npx rollout-studio export d.jsonl --annotations d.annotations.json --kind calibration --out d.calibration.jsonl --judge-run gar-1 --text final-assistant",
    );
  });

  it("says --text RULE for the text form only: no completion rule applies to message lists", () => {
    const benchmax = { ...ANALYSIS_DEFAULTS, completionRule: "benchmax" as const };
    for (const kind of ["calibration", "rewards", "dpo"] as const) {
      expect(exportCommandLine("d.jsonl", kind, benchmax, DEFAULT)).not.toContain("--text");
      expect(
        exportCommandLine("d.jsonl", kind, ANALYSIS_DEFAULTS, { ...DEFAULT, transcripts: "text" }),
      ).toContain(" --text final-assistant");
    }
    expect(
      exportCommandLine("d.jsonl", "rubrics", benchmax, { ...DEFAULT, transcripts: "text" }),
    ).not.toContain("--text");
  });

  it("adds the applied reward spec to the kinds that read rollouts", () => {
    const line = (kind: "rewards" | "calibration" | "dpo" | "rubrics" | "annotations") =>
      exportCommandLine("d.jsonl", kind, ANALYSIS_DEFAULTS, DEFAULT, "reward-spec.json");
    expect(line("rewards")).toBe(
      "npx rollout-studio export d.jsonl --annotations d.annotations.json --kind rewards --out d.rewards.jsonl --verifiers reward-spec.json",
    );
    for (const kind of ["calibration", "dpo"] as const)
      expect(line(kind)).toContain("--verifiers reward-spec.json");
    for (const kind of ["rubrics", "annotations"] as const)
      expect(line(kind)).not.toContain("--verifiers");
  });

  it("quotes shell words that need it", () => {
    expect(shellWord("a/b-c.jsonl")).toBe("a/b-c.jsonl");
    expect(shellWord("it's")).toBe(`'it'\\''s'`);
    expect(shellWord("$HOME")).toBe("'$HOME'");
  });
});
