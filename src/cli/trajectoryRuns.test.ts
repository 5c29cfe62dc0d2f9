/**
 * Covers: the CLI on agent trajectories (issue 15): a SWE-agent output folder (one folder per
 * instance) is one run whose trajectories of one instance, from two runs, are one group; a
 * SWE-bench report in one run's folder scores that run's trajectory only, the other stays
 * unscored (null in JSON, "unscored" in the text); a `preds.json` beside them is left out with one
 * issue; OpenHands' `report.json` beside a single `output.jsonl` gives its rewards; several
 * `output.jsonl` files group by instance id.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { EXIT } from "./main.ts";
import { runCli } from "../test/cliRun.ts";

const DATA = join(import.meta.dirname, "../../../shared/data");
const SWE = join(DATA, "swe-agent/function_calling_simple.traj");
const OPENHANDS = join(DATA, "openhands/multi_swe_bench_output.jsonl");

const run = (args: string[], cwd: string) => runCli(args, cwd, {});

interface Json {
  format: string;
  issues: { file: string; message: string }[];
  groups: { id: string; rollouts: { id: string; reward: number | null }[] }[];
}

let root: string;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), "rs-traj-"));
  for (const r of ["runA", "runB"]) {
    mkdirSync(join(root, "swe", r, "function_calling_simple"), { recursive: true });
    copyFileSync(
      SWE,
      join(root, "swe", r, "function_calling_simple", "function_calling_simple.traj"),
    );
  }
  writeFileSync(
    join(root, "swe", "runB", "function_calling_simple", "report.json"),
    JSON.stringify({
      function_calling_simple: { resolved: true, patch_successfully_applied: true },
    }),
  );
  writeFileSync(join(root, "swe", "preds.json"), JSON.stringify({ x: { model_patch: "" } }));
  mkdirSync(join(root, "oh"));
  copyFileSync(OPENHANDS, join(root, "oh", "output.jsonl"));
  writeFileSync(
    join(root, "oh", "report.json"),
    JSON.stringify({
      resolved_ids: ["ponylang__ponyc-4595"],
      unresolved_ids: ["ponylang__ponyc-4593"],
      error_ids: [],
    }),
  );
  mkdirSync(join(root, "oh2"));
  const lines = readFileSync(OPENHANDS, "utf8").trim().split("\n");
  writeFileSync(join(root, "oh2", "output.jsonl"), `${lines[0]}\n`);
});

describe("SWE-agent output folders", () => {
  it("are one run: one group per instance across runs, scored only where a report is", async () => {
    const { code, stdout } = await run(["analyze", "swe", "--json"], root);
    const out = JSON.parse(stdout) as Json;
    // preds.json left out is an issue: analysed, with problems reported.
    expect(code).toBe(EXIT.issues);
    expect(out.format).toBe("swe-agent");
    expect(out.groups.map((g) => g.id)).toEqual(["function_calling_simple"]);
    expect(out.groups[0]!.rollouts).toEqual([
      expect.objectContaining({
        id: "swe/runA/function_calling_simple/function_calling_simple.traj:function_calling_simple/0",
        reward: null,
      }),
      expect.objectContaining({
        id: "swe/runB/function_calling_simple/function_calling_simple.traj:function_calling_simple/0",
        reward: 1,
      }),
    ]);
    expect(out.issues).toEqual([
      expect.objectContaining({
        file: "swe/preds.json",
        message: "is neither a trajectory nor an evaluation report; it is left out of the run",
      }),
    ]);
  });

  it("says in the text which rollouts are unscored and where the rewards come from", async () => {
    const { stdout } = await run(["analyze", "swe"], root);
    expect(stdout).toContain(
      "run of 2 trajectory files, grouped across files; rewards from 1 evaluation report",
    );
    expect(stdout).toContain("1 unscorable");
  });
});

describe("OpenHands output", () => {
  it("takes its rewards from the report.json beside it; an instance it does not name stays unscored", async () => {
    const { stdout } = await run(["analyze", join("oh", "output.jsonl"), "--json"], root);
    const out = JSON.parse(stdout) as Json;
    expect(out.groups.map((g) => [g.id, g.rollouts.map((r) => r.reward)])).toEqual([
      ["ponylang__ponyc-4595", [1]],
      ["ponylang__ponyc-4593", [0]],
      ["ponylang__ponyc-4588", [null]],
    ]);
  });

  it("groups several output files by instance id", async () => {
    const { stdout } = await run(
      ["analyze", join("oh", "output.jsonl"), join("oh2", "output.jsonl"), "--json"],
      root,
    );
    const out = JSON.parse(stdout) as Json;
    expect(out.groups.map((g) => [g.id, g.rollouts.length])).toEqual([
      ["ponylang__ponyc-4595", 2],
      ["ponylang__ponyc-4593", 1],
      ["ponylang__ponyc-4588", 1],
    ]);
    // Files given one by one carry no report: every rollout is unscored.
    expect(out.groups.flatMap((g) => g.rollouts.map((r) => r.reward))).toEqual([
      null,
      null,
      null,
      null,
    ]);
  });
});
