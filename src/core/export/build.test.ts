/**
 * The export entry point and the golden files: every kind of the fixture (__fixtures__/
 * exportFixture.ts) under default settings must equal its file in __fixtures__/ byte for byte.
 * After a deliberate change, rewrite them with `EXPORT_GOLDEN_UPDATE=1 npx vitest run
 * src/core/export/build.test.ts` and review the diff.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ANALYSIS_DEFAULTS } from "../analysis/analyze.ts";
import { ANNOTATIONS_EMPTY } from "../analysis/annotations.ts";
import { testMessage } from "../../test/rolloutFixtures.ts";
import { FIXTURE_ANNOTATIONS, FIXTURE_GROUPS } from "./__fixtures__/exportFixture.ts";
import {
  EXPORT_DEFAULTS,
  exportBuild,
  exportFileName,
  exportPreview,
  type ExportOptions,
} from "./build.ts";
import { exportJsonl, exportPromptText } from "./text.ts";

const input = {
  groups: FIXTURE_GROUPS,
  annotations: FIXTURE_ANNOTATIONS,
  settings: ANALYSIS_DEFAULTS,
};

const GOLDEN: readonly [
  string,
  "calibration" | "rubrics" | "rewards" | "dpo",
  Partial<ExportOptions>,
][] = [
  // The golden calibration rows compare the newest verdict run: named, as none is the default.
  ["calibration.golden.jsonl", "calibration", { judgeRunId: "newest" }],
  ["rubrics.golden.json", "rubrics", {}],
  ["rewards-human.golden.jsonl", "rewards", {}],
  ["rewards-judge-gar.golden.jsonl", "rewards", { source: "judge" }],
  ["rewards-judge-grs.golden.jsonl", "rewards", { source: "judge", mode: "reward", floor: 0.1 }],
  ["dpo.golden.jsonl", "dpo", {}],
  // The text form (`--text`): the bytes every export wrote before transcripts became messages.
  ["calibration-text.golden.jsonl", "calibration", { transcripts: "text", judgeRunId: "newest" }],
  ["rewards-human-text.golden.jsonl", "rewards", { transcripts: "text" }],
  ["dpo-text.golden.jsonl", "dpo", { transcripts: "text" }],
];

describe("golden exports of the fixture", () => {
  it.each(GOLDEN)("%s", (name, kind, options) => {
    const path = join(import.meta.dirname, "__fixtures__", name);
    const text = exportBuild(kind, input, { ...EXPORT_DEFAULTS, ...options }).text;
    if (process.env.EXPORT_GOLDEN_UPDATE === "1") writeFileSync(path, text);
    expect(existsSync(path), `${name} is missing`).toBe(true);
    expect(text).toBe(readFileSync(path, "utf8"));
  });

  it("the suite covers every golden file in the folder", async () => {
    const { readdirSync } = await import("node:fs");
    const files = readdirSync(join(import.meta.dirname, "__fixtures__")).filter((f) =>
      f.includes(".golden."),
    );
    expect(files.sort()).toEqual(GOLDEN.map(([name]) => name).sort());
  });

  it("is deterministic", () => {
    for (const [, kind, options] of GOLDEN) {
      const once = exportBuild(kind, input, { ...EXPORT_DEFAULTS, ...options }).text;
      expect(exportBuild(kind, input, { ...EXPORT_DEFAULTS, ...options }).text).toBe(once);
    }
  });
});

describe("exportBuild", () => {
  it("counts rows: JSONL lines, rubric tasks", () => {
    for (const kind of ["calibration", "rewards", "dpo"] as const) {
      const out = exportBuild(kind, input);
      expect(out.text.split("\n").length - 1).toBe(out.rows);
    }
    expect(exportBuild("rewards", input).rows).toBe(17);
    expect(exportBuild("rubrics", input).rows).toBe(3);
    expect(exportBuild("dpo", input).rows).toBe(5);
    expect(
      exportBuild("calibration", input, { ...EXPORT_DEFAULTS, judgeRunId: "newest" }).rows,
    ).toBe(12);
    // No judge unless named: only the labelled rows.
    expect(exportBuild("calibration", input).rows).toBeLessThan(12);
  });

  it("previews the row count and the run without the text", () => {
    for (const [, kind, options] of GOLDEN) {
      const full = exportBuild(kind, input, { ...EXPORT_DEFAULTS, ...options });
      const preview = exportPreview(kind, input, { ...EXPORT_DEFAULTS, ...options });
      expect(preview).toEqual({ rows: full.rows, run: full.run });
    }
  });

  it("returns the calibration state to persist, and the input's for other kinds", () => {
    const calibration = exportBuild("calibration", input, {
      ...EXPORT_DEFAULTS,
      judgeRunId: "newest",
    });
    expect(Object.keys(calibration.calibration.assignments).length).toBeGreaterThan(2);
    expect(exportBuild("calibration", input).run).toBeNull();
    expect(exportBuild("dpo", input).calibration).toBe(FIXTURE_ANNOTATIONS.calibration);
    expect(calibration.run?.info.id).toBe("rubric-1");
  });

  it("exports empty files for empty annotations", () => {
    const empty = { ...input, annotations: ANNOTATIONS_EMPTY };
    expect(exportBuild("calibration", empty).text).toBe("");
    expect(exportBuild("dpo", empty).text).toBe("");
    expect(exportBuild("rubrics", empty).text).toBe("{}\n");
    // Rewards cover every rollout even without annotations: the original rewards, unranked.
    expect(exportBuild("rewards", empty).rows).toBe(17);
  });
});

describe("transcripts in the rows", () => {
  const rowsOf = (kind: "calibration" | "rewards", transcripts: "messages" | "text") =>
    exportBuild(kind, input, { ...EXPORT_DEFAULTS, transcripts })
      .text.trim()
      .split("\n")
      .map(
        (line) => JSON.parse(line) as { rollout_id: string; prompt: unknown; completion: unknown },
      );

  it.each(["calibration", "rewards"] as const)(
    "%s: a chat transcript's prompt and completion are message lists, tool calls included; plain rows stay text",
    (kind) => {
      const rows = rowsOf(kind, "messages");
      const chat = rows.find((r) => r.rollout_id === "refund-22/0")!;
      expect(chat.prompt).toEqual([
        { role: "system", content: "You are a support agent." },
        { role: "user", content: "Refund order 22." },
      ]);
      expect(chat.completion).toEqual([
        {
          role: "assistant",
          content: "",
          tool_calls: [
            {
              id: "c1",
              type: "function",
              function: { name: "lookup", arguments: '{"order":"22"}' },
            },
          ],
        },
        { role: "tool", content: '{"status":"paid"}', tool_call_id: "c1", name: "lookup" },
        { role: "assistant", content: "Refunded order 22, attempt 0." },
        { role: "user", content: "thanks" },
      ]);
      const plain = rows.find((r) => r.rollout_id === "refund-17/0")!;
      expect(plain).toMatchObject({
        prompt: "Task refund-17",
        completion: "answer 0 of refund-17",
      });
      const text = rowsOf(kind, "text").find((r) => r.rollout_id === "refund-22/0")!;
      expect(text).toMatchObject({
        prompt: "system: You are a support agent.\n\nuser: Refund order 22.",
        completion: "Refunded order 22, attempt 0.",
      });
    },
  );
});

describe("export helpers", () => {
  it("names files after the data file and the kind", () => {
    expect(exportFileName("support-groups.jsonl", "calibration")).toBe(
      "support-groups.calibration.jsonl",
    );
    expect(exportFileName("/tmp/x/run.v2.json", "rubrics")).toBe("run.v2.rubrics.json");
    expect(exportFileName("C:\\data\\a.parquet", "annotations")).toBe("a.annotations.json");
    expect(exportFileName(".jsonl", "dpo")).toBe("rollouts.dpo.jsonl");
    expect(exportFileName("noext", "rewards")).toBe("noext.rewards.jsonl");
  });

  it("renders prompts as text", () => {
    expect(exportPromptText(null)).toBe("");
    expect(exportPromptText("plain")).toBe("plain");
    expect(exportPromptText([testMessage("user", "only")])).toBe("only");
    expect(exportPromptText([testMessage("system", "s"), testMessage("user", "u")])).toBe(
      "system: s\n\nuser: u",
    );
  });

  it("writes JSON Lines with a newline after every row", () => {
    expect(exportJsonl([])).toBe("");
    expect(exportJsonl([{ a: 1 }, { b: "x\ny" }])).toBe('{"a":1}\n{"b":"x\\ny"}\n');
  });
});
