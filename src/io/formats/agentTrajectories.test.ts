/**
 * Covers: the agent-trajectory formats (swe-agent, openhands, atif) on the real files in
 * ../shared/data and on the fixtures: tool calls with parsed arguments answered by their tool
 * results, the final text, unscored rollouts (null, never 0), a bad trajectory as an issue; the
 * evaluation report shapes (evalReports.ts); and runs: trajectories grouped across files, a Harbor
 * jobs folder gathered as one run, rewards from the reports beside them.
 */
import { readFileSync, readdirSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import type { ChatMessage, Rollout } from "../../core/index.ts";
import {
  datasetFromLoad,
  evalReportFromBytes,
  gatherRuns,
  LoadError,
  loadBytes,
  readEvalReport,
  runDatasetMerge,
  runFileInstead,
  type RunPart,
  type RunReport,
} from "../index.ts";

const DATA = join(import.meta.dirname, "../../../../shared/data");
const FIXTURES = join(import.meta.dirname, "../__fixtures__");
const SWE = join(DATA, "swe-agent/function_calling_simple.traj");
const OPENHANDS = join(DATA, "openhands/multi_swe_bench_output.jsonl");

/** A rollout's prompt messages ([] for a text prompt or none). */
const promptMessages = (r: Rollout): readonly ChatMessage[] =>
  typeof r.prompt === "string" || r.prompt === null ? [] : r.prompt;

/** Every tool call of a rollout is answered by a tool result naming its id, and parses as JSON. */
function expectCallsAnswered(r: Rollout): number {
  const answered = new Set(r.messages.flatMap((m) => (m.role === "tool" ? [m.toolCallId] : [])));
  let calls = 0;
  for (const m of r.messages)
    for (const c of m.toolCalls) {
      calls++;
      expect(c.name, JSON.stringify(c)).not.toBe("");
      expect(() => JSON.parse(c.arguments) as unknown, c.arguments).not.toThrow();
      expect(answered.has(c.id), `call ${c.id} has a result`).toBe(true);
    }
  return calls;
}

describe("swe-agent on the real demonstration trajectory", async () => {
  const r = await loadBytes("function_calling_simple.traj", readFileSync(SWE));
  const rollout = r.groups[0]!.rollouts[0]!;

  it("is detected, one rollout grouped by the file's instance, unscored", () => {
    expect(r.format).toBe("swe-agent");
    expect(r.groups.map((g) => g.id)).toEqual(["function_calling_simple"]);
    expect(r.stats).toMatchObject({ records: 1, rollouts: 1, rejected: 0 });
    expect(r.issues).toEqual([]);
    expect(rollout.reward).toBeNull();
  });

  it("keeps the prompt and every tool call with parsed arguments and its result", () => {
    expect(promptMessages(rollout).map((m) => m.role)).toEqual(["system", "user"]);
    expect(expectCallsAnswered(rollout)).toBe(5);
    const names = rollout.messages.flatMap((m) => m.toolCalls.map((c) => c.name));
    expect(names).toEqual(["find_file", "open", "edit", "bash", "submit"]);
    const first = rollout.messages[0]!.toolCalls[0]!;
    expect(JSON.parse(first.arguments)).toEqual({ file_name: "missing_colon.py" });
    expect(rollout.messages[rollout.messages.length - 1]!.content).toContain("diff --git");
  });

  it("reads the same as a compact one-line document (JSON lines)", async () => {
    const compact = JSON.stringify(JSON.parse(readFileSync(SWE, "utf8")));
    const one = await loadBytes("function_calling_simple.traj", new TextEncoder().encode(compact));
    expect(one.format).toBe("swe-agent");
    expect(one.groups[0]!.rollouts[0]!.messages).toEqual(rollout.messages);
  });
});

describe("openhands on the real Multi-SWE-bench output", async () => {
  const r = await loadBytes("output.jsonl", readFileSync(OPENHANDS));

  it("is detected: three instances, one rollout each, unscored (the file has no report)", () => {
    expect(r.format).toBe("openhands");
    expect(r.groups.map((g) => g.id)).toEqual([
      "ponylang__ponyc-4595",
      "ponylang__ponyc-4593",
      "ponylang__ponyc-4588",
    ]);
    expect(r.stats).toMatchObject({ records: 3, rollouts: 3, rejected: 0 });
    for (const g of r.groups) expect(g.rollouts.map((x) => x.reward)).toEqual([null]);
  });

  it("turns every action into a tool call answered by its observation", () => {
    const lines = readFileSync(OPENHANDS, "utf8").trim().split("\n");
    r.groups.forEach((g, i) => {
      const rollout = g.rollouts[0]!;
      const raw = JSON.parse(lines[i]!) as { history: { action?: string }[] };
      // Every action but system and the user's message is a call (the environment's recall, in
      // the prompt before the first assistant turn, too).
      const actions = raw.history.filter(
        (e) => e.action !== undefined && e.action !== "system" && e.action !== "message",
      ).length;
      const prompt = promptMessages(rollout);
      const calls = [...prompt, ...rollout.messages].reduce((s, m) => s + m.toolCalls.length, 0);
      expect(calls).toBe(actions);
      const results = new Set(
        [...prompt, ...rollout.messages].flatMap((m) => (m.role === "tool" ? [m.toolCallId] : [])),
      );
      const unanswered = [...prompt, ...rollout.messages]
        .flatMap((m) => m.toolCalls)
        .filter((c) => !results.has(c.id))
        .map((c) => c.name);
      // finish ends the run: no observation answers it.
      expect(unanswered).toEqual(["finish"].slice(0, unanswered.length));
      for (const m of rollout.messages)
        for (const c of m.toolCalls) expect(() => JSON.parse(c.arguments) as unknown).not.toThrow();
      expect(rollout.completion).toMatch(/^diff --git/);
      expect(rollout.meta.metrics).toBeDefined();
      expect(rollout.meta.test_result).toBeDefined();
    });
    const bash = r.groups[0]!.rollouts[0]!.messages.find((m) => m.toolCalls.length > 0)!;
    expect(bash.toolCalls[0]!.name).toBe("execute_bash");
    expect(JSON.parse(bash.toolCalls[0]!.arguments)).toEqual({
      command: "ls -l /workspace/ponylang__ponyc__0.1",
    });
  });

  it("marks the failed edit observation as a tool error", () => {
    const second = r.groups[1]!.rollouts[0]!;
    expect(second.messages.some((m) => m.role === "tool" && m.error === true)).toBe(true);
  });
});

describe("a bad trajectory", () => {
  it("is an issue naming the message and its field, never a crash", async () => {
    const bytes = readFileSync(join(FIXTURES, "swe-agent/bad/no-role.traj"));
    await expect(loadBytes("no-role.traj", bytes)).rejects.toThrow(
      /no-role\.traj: no rollout could be read as SWE-agent trajectory .*history\[1\]\.role/,
    );
  });
});

describe("evaluation reports", () => {
  it("reads SWE-bench's per-instance report", () => {
    const r = readEvalReport({
      "a__b-1": { resolved: true, patch_successfully_applied: true, tests_status: {} },
      "a__b-2": { resolved: false },
    });
    expect(r?.kind).toBe("swe-bench-instance");
    expect([...r!.verdicts]).toEqual([
      ["a__b-1", { reward: 1, status: "resolved" }],
      ["a__b-2", { reward: 0, status: "unresolved" }],
    ]);
  });

  it("reads a run report: resolved wins, an evaluation error is no verdict (null)", () => {
    const r = readEvalReport({
      total_instances: 4,
      resolved_ids: ["x"],
      unresolved_ids: ["y", "x"],
      empty_patch_ids: ["z"],
      error_ids: ["w"],
    });
    expect(r?.kind).toBe("swe-bench-run");
    expect(Object.fromEntries([...r!.verdicts].map(([k, v]) => [k, v.reward]))).toEqual({
      x: 1,
      y: 0,
      z: 0,
      w: null,
    });
  });

  it("reads OpenHands' older lists and Harbor's trial result", () => {
    const legacy = readEvalReport({ resolved: ["a"], applied: ["a", "b"], test_errored: [] });
    expect(legacy?.kind).toBe("openhands-legacy");
    expect(legacy?.verdicts.get("b")).toEqual({ reward: 0, status: "applied" });
    const trial = readEvalReport({
      task_name: "hello-world",
      trial_name: "hello-world__x",
      verifier_result: { rewards: { reward: 0.5 } },
    });
    expect(trial?.key).toBe("trial");
    expect(trial?.verdicts.get("hello-world__x")).toEqual({ reward: 0.5, status: "verified" });
    const failed = readEvalReport({ trial_name: "t", verifier_result: null });
    expect(failed?.verdicts.get("t")).toEqual({ reward: null, status: "not verified" });
  });

  it("is none of them for other JSON", () => {
    for (const v of [{}, [], { x: 1 }, { a: { resolved: "yes" } }, "text", null])
      expect(readEvalReport(v)).toBeNull();
    expect(evalReportFromBytes(new TextEncoder().encode("{not json"))).toBeNull();
  });
});

async function part(path: string, bytes: Uint8Array, step = 0): Promise<RunPart> {
  const dataset = datasetFromLoad(await loadBytes(path, bytes));
  return {
    file: { path, size: bytes.length, mtimeMs: 0, step, stepSource: "file-order" },
    dataset,
  };
}

describe("runs of trajectories", () => {
  const traj = readFileSync(SWE);

  it("groups one instance's trajectories across files, ids kept apart by file", async () => {
    const run = runDatasetMerge("runs", [
      await part("runA/fcs/function_calling_simple.traj", traj, 0),
      await part("runB/fcs/function_calling_simple.traj", traj, 1),
    ]);
    expect(run.groups.map((g) => g.id)).toEqual(["function_calling_simple"]);
    expect(run.groups[0]!.rollouts.map((r) => r.id)).toEqual([
      "runA/fcs/function_calling_simple.traj:function_calling_simple/0",
      "runB/fcs/function_calling_simple.traj:function_calling_simple/0",
    ]);
    expect(run.summaries).toEqual([
      expect.objectContaining({ id: "function_calling_simple", step: null, partial: false }),
    ]);
    expect(run.groupKey).toBe("instance id (one file per rollout)");
    expect(run.summaries[0]!.rewards.every(Number.isNaN)).toBe(true);
  });

  it("scores only the trajectories under a report's folder; the rest stay unscored", async () => {
    const report = evalReportFromBytes(
      new TextEncoder().encode(JSON.stringify({ function_calling_simple: { resolved: true } })),
    )!;
    const reports: RunReport[] = [{ file: "runB/fcs/report.json", report }];
    const run = runDatasetMerge(
      "runs",
      [
        await part("runA/fcs/function_calling_simple.traj", traj, 0),
        await part("runB/fcs/function_calling_simple.traj", traj, 1),
      ],
      reports,
    );
    const rollouts = run.groups[0]!.rollouts;
    expect(rollouts.map((r) => r.reward)).toEqual([null, 1]);
    expect(rollouts[1]!.meta.evaluation).toEqual({
      file: "runB/fcs/report.json",
      kind: "swe-bench-instance",
      status: "resolved",
    });
    expect(run.summaries[0]!.rewards[1]).toBe(1);
    expect(Number.isNaN(run.summaries[0]!.rewards[0])).toBe(true);
    expect(run.run.reports).toEqual(["runB/fcs/report.json"]);
  });

  it("keeps a reward the file gave over a report's", async () => {
    const line = (resolved: boolean) =>
      JSON.stringify({
        instance_id: "i-1",
        instruction: "go",
        history: [{ id: 0, source: "user", action: "message", args: { content: "go" } }],
        test_result: { git_patch: "", report: { resolved } },
      });
    const report: RunReport = {
      file: "report.json",
      report: readEvalReport({ resolved_ids: ["i-1"] })!,
    };
    const enc = (s: string) => new TextEncoder().encode(s);
    const run = runDatasetMerge(
      "r",
      [
        await part("a/output.jsonl", enc(line(false)), 0),
        await part("b/output.jsonl", enc(line(true)), 1),
      ],
      [report],
    );
    expect(run.groups[0]!.rollouts.map((r) => r.reward)).toEqual([0, 1]);
  });
});

/** A folder's listing as the CLI and the studio give it to gatherRuns. */
function listing(root: string): { path: string; size: number; mtimeMs: number }[] {
  const out: { path: string; size: number; mtimeMs: number }[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const abs = join(dir, name);
      if (statSync(abs).isDirectory()) walk(abs);
      else out.push({ path: relative(root, abs).split("\\").join("/"), size: 1, mtimeMs: 0 });
    }
  };
  walk(root);
  return out;
}

describe("a Harbor jobs folder", () => {
  const root = join(FIXTURES, "atif/jobs");

  it("is one run of its trajectories and their trial results; configurations are not data", () => {
    const runs = gatherRuns(listing(root));
    expect(runs).toHaveLength(1);
    expect(runs[0]!.kind).toBe("agent-trajectories");
    expect(runs[0]!.dir).toBe("2025-10-11__10-30-00");
    const paths = runs[0]!.files.map((f) => f.path.replace("2025-10-11__10-30-00/", ""));
    expect(paths).toEqual([
      "fix-bug__Kk20pQr/agent/trajectory.json",
      "fix-bug__Kk20pQr/result.json",
      "hello-world__Ab3dE9x/agent/trajectory.json",
      "hello-world__Ab3dE9x/result.json",
      "hello-world__Zq81LmP/agent/trajectory.json",
      "hello-world__Zq81LmP/result.json",
      "result.json",
    ]);
    expect(new Set(runs[0]!.files.map((f) => f.step))).toEqual(new Set([0]));
  });

  it("loads as one group per task, rewards from the trial results, a failed trial unscored", async () => {
    const run = gatherRuns(listing(root))[0]!;
    const parts: RunPart[] = [];
    const reports: RunReport[] = [];
    const leftOut: string[] = [];
    for (const file of run.files) {
      const bytes = readFileSync(join(root, file.path));
      try {
        parts.push({ file, dataset: datasetFromLoad(await loadBytes(file.path, bytes)) });
      } catch (e) {
        if (!(e instanceof LoadError)) throw e;
        const instead = runFileInstead(file.path, run.kind, bytes, e);
        if (instead === null) throw e;
        if ("report" in instead) reports.push(instead.report);
        else if ("issue" in instead) leftOut.push(instead.issue.file);
      }
    }
    expect(reports).toHaveLength(3);
    // The job's own result.json (its statistics) is no trial's verdict.
    expect(leftOut).toEqual(["2025-10-11__10-30-00/result.json"]);
    const merged = runDatasetMerge(run.dir, parts, reports);
    const byGroup = Object.fromEntries(
      merged.groups.map((g) => [g.id, g.rollouts.map((r) => r.reward)]),
    );
    expect(byGroup).toEqual({ "fix-bug": [null], "hello-world": [1, 0] });
    const trials = merged.groups[1]!.rollouts.map((r) => r.meta.trial_name);
    expect(trials).toEqual(["hello-world__Ab3dE9x", "hello-world__Zq81LmP"]);
  });
});
