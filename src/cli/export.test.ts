/**
 * Covers: `rollout-studio export` round trip. Every kind is exported from the generated demo and an
 * annotations file holding rankings, labels, hacks, a heuristic gar run, a rubric run, rubrics and
 * calibration assignments (src/core/export/__fixtures__/demoAnnotations.ts), then read back: JSONL
 * parsed line by line, JSON parsed, row counts and values checked against the annotations and
 * against `analyze --json`; the annotations export re-imports to the same state and `analyze
 * --annotations` accepts it. Bad input exits non-zero and names the file and field. With
 * `--verifiers SPEC.json` the exports read the rollouts the spec augments: the rewards rows carry
 * the verifier's component in their totals, the bytes of core's verifierApply + exportBuild.
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { generateDemo } from "../../scripts/generate-demo.ts";
import {
  ANALYSIS_DEFAULTS,
  EXPORT_DEFAULTS,
  exportBuild,
  GROUP_ANNOTATION_EMPTY,
  rubricCurrent,
  JUDGE_VERIFIER_DEFAULT,
  verifierApply,
  type Annotations,
  type RolloutGroup,
  type VerifierSpec,
} from "../core/index.ts";
import { demoAnnotations, demoMixedGroups } from "../core/export/__fixtures__/demoAnnotations.ts";
import { annotationsParse, annotationsToJson, loadText, verifierSpecToJson } from "../io/index.ts";
import { COMMANDS } from "./commands/index.ts";
import { EXIT, main } from "./main.ts";

let dir: string;
let demoPath: string;
let annotationsPath: string;
let groups: readonly RolloutGroup[];
let annotations: Annotations;

// main() imports a command's module when the command first runs; load it here, outside the first
// test's timeout.
beforeAll(async () => {
  await COMMANDS.export!.load();
}, 30_000);
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "rollout-studio-export-"));
  demoPath = join(dir, "support-groups.jsonl");
  const demo = generateDemo();
  writeFileSync(demoPath, demo);
  groups = (await loadText("support-groups.jsonl", demo)).groups;
  annotations = demoAnnotations(groups);
  annotationsPath = join(dir, "annotations.json");
  writeFileSync(annotationsPath, annotationsToJson(annotations));
});

async function run(args: string[]) {
  let stdout = "";
  let stderr = "";
  const code = await main(args, {
    stdout: (t) => (stdout += t),
    stderr: (t) => (stderr += t),
    cwd: dir,
  });
  return { code, stdout, stderr };
}

/** Export KIND with FLAGS to a file and return its text (and the run's output). */
async function exported(kind: string, ...flags: string[]) {
  const out = join(dir, `${kind}-${flags.join("_").replace(/[^a-z0-9]+/gi, "-")}.out`);
  const result = await run([
    "export",
    demoPath,
    "--annotations",
    annotationsPath,
    "--kind",
    kind,
    "--out",
    out,
    ...flags,
  ]);
  return { ...result, text: readFileSync(out, "utf8") };
}

function jsonl<T>(text: string): T[] {
  expect(text === "" || text.endsWith("\n")).toBe(true);
  return text
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line) as T);
}

interface CalibrationRow {
  group_id: string;
  rollout_id: string;
  prompt: { role: string; content: string }[];
  completion: { role: string; content: string }[];
  human_label: string | null;
  judge_verdict: string | null;
  judge_run_id: string | null;
  judge_source: string | null;
  judge_prompt_version: string | null;
  split: string | null;
  sealed: boolean;
  rubric_version: number | null;
  rubric_version_current: number | null;
}

interface RewardRow {
  group_id: string;
  rollout_id: string;
  prompt: string;
  completion: string;
  reward: number | null;
  shaped_reward: number | null;
  advantage: number;
  status: string;
  source: string;
  mode: string;
  judge_run_id: string | null;
  solution: number | null;
  behavior: number | null;
}

interface DpoRow {
  group_id: string;
  prompt: string;
  chosen: string;
  rejected: string;
  chosen_id: string;
  rejected_id: string;
  rule: string;
}

describe("export round trip on the demo", () => {
  it("the fixture holds what the exports read", () => {
    expect(Object.keys(annotations.groups)).toHaveLength(3);
    expect(annotations.judgeRuns.map((r) => r.info.mode)).toEqual(["gar", "rubric"]);
    expect(Object.keys(annotations.rubrics)).toHaveLength(2);
    expect(Object.values(annotations.groups).some((g) => g.hacks.length > 0)).toBe(true);
  });

  it("calibration: one row per labelled or judged rollout, with the file's labels and the run's versions", async () => {
    // No judge run unless named: the default compares none.
    const plain = jsonl<CalibrationRow>((await exported("calibration")).text);
    expect(plain.every((r) => r.judge_run_id === null)).toBe(true);
    const { code, stdout, stderr, text } = await exported("calibration", "--judge-run", "newest");
    expect(code).toBe(EXIT.ok);
    const rows = jsonl<CalibrationRow>(text);
    expect(stdout).toMatch(new RegExp(`wrote calibration: ${rows.length} row\\(s\\) to `));
    // The newest verdict run is the rubric run: its groups' rollouts all get a verdict, plus labels.
    const rubricRun = annotations.judgeRuns[1]!;
    const judged = groups
      .filter((g) => Object.hasOwn(rubricRun.groups, g.id))
      .flatMap((g) => g.rollouts.map((r) => r.id));
    const labelled = Object.values(annotations.groups).flatMap((g) => Object.keys(g.labels));
    expect(rows.map((r) => r.rollout_id).sort()).toEqual(
      [...new Set([...judged, ...labelled])].sort(),
    );
    for (const row of rows) {
      const label = annotations.groups[row.group_id]?.labels[row.rollout_id] ?? null;
      expect(row.human_label).toBe(label);
      expect(row).toMatchObject({
        judge_run_id: "rubric-1",
        judge_source: "llm",
        judge_prompt_version: "grs-v1-5f3a9c21",
      });
      expect(row.rubric_version_current).toBe(
        rubricCurrent(annotations.rubrics, row.group_id)?.version ?? null,
      );
      // Labelled pass/fail rows are split; the file's earlier assignment is kept and sealed.
      if (label === "pass" || label === "fail")
        expect(["train", "dev", "test"]).toContain(row.split);
      expect(row.sealed).toBe(row.split === "test");
      // A chat transcript: the conversation as messages, the system prompt first.
      expect(row.completion.length).toBeGreaterThan(0);
      expect(row.prompt[0]).toMatchObject({ role: "system" });
      expect(row.prompt[0]!.content).toContain("customer support agent");
    }
    const [assigned, split] = Object.entries(annotations.calibration.assignments)[0]!;
    expect(rows.find((r) => r.rollout_id === assigned)).toMatchObject({ split, sealed: true });
    // The file did not record the new splits: the CLI says so.
    expect(stderr).toMatch(/labelled rollout\(s\) have no split in .*annotations\.json yet/);
    // A chosen gar run: the heuristic's hacks are the judge's "fail".
    const gar = jsonl<CalibrationRow>(
      (await exported("calibration", "--judge-run", "gar-heuristic-1")).text,
    );
    expect(
      gar.every((r) => r.judge_source === "heuristic" && r.judge_run_id === "gar-heuristic-1"),
    ).toBe(true);
    const hack = Object.values(annotations.judgeRuns[0]!.groups).flatMap((g) => g.hacks)[0]!;
    expect(gar.find((r) => r.rollout_id === hack)?.judge_verdict).toBe("fail");
    const none = jsonl<CalibrationRow>((await exported("calibration", "--judge-run", "none")).text);
    expect(none.map((r) => r.rollout_id).sort()).toEqual([...labelled].sort());
  });

  it("rubrics: the current version of every task, as {solution, behavior}", async () => {
    const { code, stdout, text } = await exported("rubrics");
    expect(code).toBe(EXIT.ok);
    expect(stdout).toMatch(/wrote rubrics: 2 task\(s\)/);
    const back = JSON.parse(text) as Record<string, { solution: string[]; behavior: string[] }>;
    expect(Object.keys(back)).toEqual(Object.keys(annotations.rubrics));
    for (const [task, rubric] of Object.entries(back)) {
      const current = rubricCurrent(annotations.rubrics, task)!;
      expect(rubric).toEqual({ solution: current.solution, behavior: current.behavior });
    }
  });

  it("rewards from the human ranking: analyze's GAR rewards, and TRL's scale none gives its GAR advantages", async () => {
    const { code, text } = await exported("rewards");
    expect(code).toBe(EXIT.ok);
    const rows = jsonl<RewardRow>(text);
    expect(rows).toHaveLength(groups.reduce((n, g) => n + g.rollouts.length, 0));
    const analysis = JSON.parse(
      (await run(["analyze", demoPath, "--annotations", annotationsPath, "--json"])).stdout,
    ) as {
      groups: {
        id: string;
        rollouts: { id: string; reward: number; garReward?: number; garAdvantage?: number }[];
      }[];
    };
    let compared = 0;
    for (const g of analysis.groups) {
      const mine = rows.filter((r) => r.group_id === g.id);
      expect(mine.map((r) => r.rollout_id)).toEqual(g.rollouts.map((r) => r.id));
      // TRL scale_rewards="none": R - mean over the group, computed here from the file alone.
      const shaped = mine.map((r) => r.shaped_reward!);
      const mean = shaped.reduce((s, v) => s + v, 0) / shaped.length;
      g.rollouts.forEach((r, i) => {
        expect(mine[i]!.reward).toBe(r.reward);
        if (r.garReward === undefined) {
          expect(mine[i]!.shaped_reward).toBe(r.reward);
          expect(mine[i]!.status).toBe("unranked");
          return;
        }
        compared++;
        expect(mine[i]!.shaped_reward).toBeCloseTo(r.garReward, 12);
        expect(shaped[i]! - mean).toBeCloseTo(r.garAdvantage!, 12);
        expect(mine[i]!.advantage).toBeCloseTo(r.garAdvantage!, 12);
      });
    }
    expect(compared).toBeGreaterThan(10);
    expect(rows.every((r) => r.source === "human" && r.mode === "advantage")).toBe(true);
  });

  it("rewards from the judge: the heuristic's GAR and the rubric run's GRS", async () => {
    const gar = jsonl<RewardRow>((await exported("rewards", "--source", "judge")).text);
    const mixed = demoMixedGroups(groups);
    const status = (g: string) => [
      ...new Set(gar.filter((r) => r.group_id === g).map((r) => r.status)),
    ];
    expect(status(mixed[0]!.id)).toEqual(["redistributed"]);
    expect(status(mixed[3]!.id)).toEqual(["fallback"]);
    expect(gar.every((r) => r.judge_run_id === "gar-heuristic-1")).toBe(true);
    const grs = jsonl<RewardRow>(
      (await exported("rewards", "--source", "judge", "--mode", "reward", "--floor", "0.2")).text,
    );
    for (const r of grs.filter((row) => row.status === "scored"))
      expect(r.shaped_reward).toBeCloseTo(
        r.reward! * Math.max(0.2, r.solution!) * Math.max(0.2, r.behavior!),
        12,
      );
    expect(grs.filter((r) => r.status === "scored").length).toBeGreaterThan(5);
    expect(new Set(grs.map((r) => r.status))).toEqual(new Set(["scored", "failing", "not-judged"]));
  });

  it("dpo: every cross-tier pair and every hack pair of the human rankings", async () => {
    const { code, text } = await exported("dpo");
    expect(code).toBe(EXIT.ok);
    const rows = jsonl<DpoRow>(text);
    let expected = 0;
    for (const [gid, a] of Object.entries(annotations.groups)) {
      const group = groups.find((g) => g.id === gid)!;
      const sizes = a.ranking.map((t) => t.length);
      for (let i = 0; i < sizes.length; i++)
        for (let j = i + 1; j < sizes.length; j++) expected += sizes[i]! * sizes[j]!;
      const honest = group.rollouts.filter(
        (r) => r.reward !== null && r.reward >= 0.5 && !a.hacks.includes(r.id),
      );
      expected += a.hacks.length * honest.length;
    }
    expect(rows).toHaveLength(expected);
    expect(rows.some((r) => r.rule === "hack")).toBe(true);
    for (const r of rows) {
      const tiers = annotations.groups[r.group_id]!.ranking;
      const tierOf = (id: string) => tiers.findIndex((t) => t.includes(id));
      if (r.rule === "tier") expect(tierOf(r.chosen_id)).toBeLessThan(tierOf(r.rejected_id));
      else expect(annotations.groups[r.group_id]!.hacks).toContain(r.rejected_id);
      expect(r.chosen).not.toBe("");
    }
  });
});

describe("export round trip on the demo: trajectories, annotations, bytes and settings", () => {
  it("dpo of a tool-using group keeps the trajectory: a double refund differs by a whole call, and --text gives the old final-message form", async () => {
    // refund-004/4 calls refund_order twice (the planted hack); refund-004/2 once.
    const doubled = {
      ...annotations,
      groups: {
        "refund-004": {
          ...GROUP_ANNOTATION_EMPTY,
          ranking: [["refund-004/1"], ["refund-004/2"]],
          hacks: ["refund-004/4"],
        },
      },
    };
    const path = join(dir, "double-refund.annotations.json");
    writeFileSync(path, annotationsToJson(doubled));
    const out = join(dir, "double-refund.dpo.jsonl");
    const args = ["export", demoPath, "--annotations", path, "--kind", "dpo", "--out", out];
    expect((await run(args)).code).toBe(EXIT.ok);
    const text = readFileSync(out, "utf8");
    expect(text).toBe(
      exportBuild("dpo", { groups, annotations: doubled, settings: ANALYSIS_DEFAULTS }).text,
    );
    type Message = {
      role: string;
      content: string;
      tool_calls?: { id?: string; type: string; function: { name: string; arguments: string } }[];
      tool_call_id?: string;
      name?: string;
    };
    const rows = jsonl<{
      prompt: Message[];
      chosen: Message[];
      rejected: Message[];
      chosen_id: string;
      rejected_id: string;
    }>(text);
    const pair = rows.find(
      (r) => r.chosen_id === "refund-004/2" && r.rejected_id === "refund-004/4",
    )!;
    expect(pair).toBeDefined();
    expect(pair.prompt.map((m) => m.role)).toEqual(["system", "user"]);
    const refunds = (messages: Message[]) =>
      messages.flatMap((m) =>
        (m.tool_calls ?? []).filter((c) => c.function.name === "refund_order"),
      );
    expect(refunds(pair.chosen)).toHaveLength(1);
    expect(refunds(pair.rejected)).toHaveLength(2);
    for (const call of refunds(pair.rejected)) {
      expect(call.type).toBe("function");
      expect(JSON.parse(call.function.arguments)).toMatchObject({ order_id: "W1843778" });
      // Each call is answered by a tool message naming it.
      const answer = pair.rejected.find((m) => m.role === "tool" && m.tool_call_id === call.id)!;
      expect(answer).toMatchObject({ name: "refund_order" });
    }
    // The same final words would make the two sides differ by little; the trajectories do not.
    expect(pair.rejected.length).toBeGreaterThan(pair.chosen.length);

    const asText = join(dir, "double-refund.text.dpo.jsonl");
    expect((await run([...args.slice(0, -1), asText, "--text"])).code).toBe(EXIT.ok);
    const textRows = jsonl<{ prompt: unknown; chosen: unknown; rejected: unknown }>(
      readFileSync(asText, "utf8"),
    );
    expect(textRows).toHaveLength(rows.length);
    for (const r of textRows) {
      expect(typeof r.prompt).toBe("string");
      expect(typeof r.chosen).toBe("string");
      expect(typeof r.rejected).toBe("string");
    }
    expect(readFileSync(asText, "utf8")).toBe(
      exportBuild(
        "dpo",
        { groups, annotations: doubled, settings: ANALYSIS_DEFAULTS },
        { ...EXPORT_DEFAULTS, transcripts: "text" },
      ).text,
    );
    // --text RULE: the text form under that completion rule.
    const benchmax = join(dir, "double-refund.benchmax.dpo.jsonl");
    expect((await run([...args.slice(0, -1), benchmax, "--text", "benchmax"])).code).toBe(EXIT.ok);
    expect(readFileSync(benchmax, "utf8")).toBe(
      exportBuild(
        "dpo",
        {
          groups,
          annotations: doubled,
          settings: { ...ANALYSIS_DEFAULTS, completionRule: "benchmax" },
        },
        { ...EXPORT_DEFAULTS, transcripts: "text" },
      ).text,
    );
  });

  it("annotations: re-imports to the same state, and analyze accepts it", async () => {
    const { code, stdout, text } = await exported("annotations");
    expect(code).toBe(EXIT.ok);
    expect(stdout).toMatch(/wrote annotations: 3 annotated group\(s\)/);
    const back = annotationsParse("exported.json", text);
    expect(back.ok && back.value).toEqual(annotations);
    expect(text).toBe(readFileSync(annotationsPath, "utf8"));
    const exportedPath = join(dir, "annotations-exported.json");
    writeFileSync(exportedPath, text);
    const analyzed = await run(["analyze", demoPath, "--annotations", exportedPath, "--json"]);
    expect(analyzed.stderr).toBe("");
    expect(analyzed.code).toBe(EXIT.ok);
  });

  it("writes the builder's bytes, and - writes them to stdout", async () => {
    const fromCli = await exported("rewards", "--source", "judge");
    const built = exportBuild(
      "rewards",
      { groups, annotations, settings: ANALYSIS_DEFAULTS },
      { ...EXPORT_DEFAULTS, source: "judge", mode: "advantage", judgeRunId: null, floor: 0 },
    );
    expect(fromCli.text).toBe(built.text);
    const piped = await run([
      "export",
      demoPath,
      "--annotations",
      annotationsPath,
      "--kind",
      "dpo",
      "--out",
      "-",
    ]);
    expect(piped.code).toBe(EXIT.ok);
    expect(piped.stdout).toBe((await exported("dpo")).text);
    expect(piped.stderr).toMatch(/wrote dpo: \d+ row\(s\)\n/);
  });

  it("follows the analysis settings it is given", async () => {
    const strict = jsonl<RewardRow & { settings: Record<string, unknown> }>(
      (
        await exported(
          "rewards",
          "--pass-threshold",
          "0.9",
          "--cap",
          "1.5",
          "--min-factor",
          "0.25",
          "--no-hack-zero",
          "--text",
          "all-assistant",
        )
      ).text,
    );
    expect(strict[0]!.settings).toEqual({
      pass_threshold: 0.9,
      cap: 1.5,
      min_factor: 0.25,
      hack_zero: false,
      completion_rule: "all-assistant",
      reward_weights: null,
    });
  });
});

describe("export errors", () => {
  const base = () => [
    "export",
    demoPath,
    "--annotations",
    annotationsPath,
    "--out",
    join(dir, "x.out"),
  ];

  it("usage errors exit 2 and name the flag", async () => {
    for (const [args, message] of [
      [[...base()], /export needs --kind/],
      [
        [...base(), "--kind", "csv"],
        /--kind must be one of calibration, rubrics, rewards, dpo, annotations; got csv/,
      ],
      [
        [...base(), "--kind", "rewards", "--mode", "reward"],
        /--mode reward reads a rubric run's scores: add --source judge/,
      ],
      [
        [...base(), "--kind", "rewards", "--source", "model"],
        /--source must be one of human, judge/,
      ],
      [[...base(), "--kind", "rewards", "--floor", "1"], /--floor must be in \[0, 1\); got 1/],
      [[...base(), "--kind", "rewards", "--cap", "0.5"], /--cap must be a number >= 1/],
      [["export", demoPath, "--kind", "dpo", "--out", "x"], /export needs --annotations/],
      [
        ["export", "--annotations", annotationsPath, "--kind", "dpo", "--out", "x"],
        /takes a FILE, several files, a folder or a glob; got none/,
      ],
    ] as const) {
      const { code, stderr } = await run([...args]);
      expect(code, stderr).toBe(EXIT.usage);
      expect(stderr).toMatch(message);
    }
  });

  it("a judge run the annotations do not hold names the file and the field", async () => {
    const unknown = await run([
      ...base(),
      "--kind",
      "rewards",
      "--source",
      "judge",
      "--judge-run",
      "gar-9",
    ]);
    expect(unknown.code).toBe(EXIT.failed);
    expect(unknown.stderr).toMatch(
      /annotations\.json: judgeRuns: no judge run has id "gar-9" \(runs: gar-heuristic-1, rubric-1\)/,
    );
    const wrongMode = await run([
      ...base(),
      "--kind",
      "rewards",
      "--source",
      "judge",
      "--judge-run",
      "rubric-1",
    ]);
    expect(wrongMode.stderr).toMatch(
      /annotations\.json: judgeRuns\[1\]\.info\.mode: judge run "rubric-1" is a rubric run/,
    );
    const bare = join(dir, "bare.json");
    writeFileSync(bare, JSON.stringify({ version: 1, groups: {} }));
    const none = await run([
      "export",
      demoPath,
      "--annotations",
      bare,
      "--kind",
      "rewards",
      "--source",
      "judge",
      "--out",
      "x",
    ]);
    expect(none.code).toBe(EXIT.failed);
    expect(none.stderr).toMatch(
      /bare\.json: judgeRuns: there is no gar judge run to read: the annotations hold no judge runs/,
    );
  });

  it("invalid annotations, or annotations of another dataset, write nothing", async () => {
    const bad = join(dir, "bad.json");
    writeFileSync(bad, JSON.stringify({ version: 1, groups: { g: { labels: { r: "maybe" } } } }));
    /** DPO pairs of the demo with these annotations, to a file that must not be written. */
    const dpoWith = (annotations: string) =>
      run([
        "export",
        demoPath,
        "--annotations",
        annotations,
        "--kind",
        "dpo",
        "--out",
        join(dir, "never.out"),
      ]);
    const invalid = await dpoWith(bad);
    expect(invalid.code).toBe(EXIT.failed);
    expect(invalid.stderr).toMatch(/bad\.json: groups\.g\.labels\.r: /);
    const other = join(dir, "other.json");
    writeFileSync(other, JSON.stringify({ version: 1, groups: { "not-a-group": { labels: {} } } }));
    const foreign = await dpoWith(other);
    expect(foreign.code).toBe(EXIT.failed);
    expect(foreign.stderr).toMatch(/group "not-a-group" is not in the data/);
    expect(() => readFileSync(join(dir, "never.out"))).toThrow();
  });

  it("records the loader rejected are reported, and the export still written with exit 3", async () => {
    const broken = join(dir, "broken.jsonl");
    writeFileSync(broken, `${readFileSync(demoPath, "utf8")}{"group_id": "x", "reward": "high"}\n`);
    const { code, stderr } = await run([
      "export",
      broken,
      "--annotations",
      annotationsPath,
      "--kind",
      "rubrics",
      "--out",
      join(dir, "r.json"),
    ]);
    expect(code).toBe(EXIT.issues);
    expect(stderr).toMatch(/broken\.jsonl:\d+: .*reward/);
    expect(JSON.parse(readFileSync(join(dir, "r.json"), "utf8"))).toEqual(
      JSON.parse((await exported("rubrics")).text),
    );
  });
});

describe("export --verifiers", () => {
  /** The README's demo recipe: the order the agent cites against the task's order id, weight 2. */
  const spec: VerifierSpec = {
    version: 1,
    text: "final-assistant",
    loggedReward: "keep",
    verifiers: [
      {
        kind: "exact-match",
        name: "order",
        enabled: true,
        weight: 2,
        field: "order_id",
        pattern: "#(W\\d{7})",
        flags: "",
        normalize: { trim: true, ignoreCase: false, collapseWhitespace: false, numeric: false },
      },
    ],
  };
  let specPath: string;
  beforeAll(() => {
    specPath = join(dir, "reward-spec.json");
    writeFileSync(specPath, verifierSpecToJson(spec));
  });

  it("rewards: the totals include the verifier's component, as core's verifierApply + exportBuild", async () => {
    const { code, text, stderr } = await exported("rewards", "--verifiers", specPath);
    // Only the spec's report: the rule in force and who passes differently (it keeps the sum).
    const lines = stderr.trimEnd().split("\n");
    expect(lines[0]).toBe(
      `${specPath}: the total is the logged reward plus the verifiers' components.`,
    );
    expect(lines[1]).toMatch(/rollouts? changes? pass\/fail|no rollout changes pass\/fail/);
    for (const line of lines) expect(line.startsWith(`${specPath}: `)).toBe(true);
    expect(code).toBe(EXIT.ok);
    const applied = verifierApply(groups, spec);
    if (!applied.ok) throw new Error(applied.problems.join("; "));
    const built = exportBuild("rewards", {
      groups: applied.groups,
      annotations,
      settings: ANALYSIS_DEFAULTS,
    });
    expect(text).toBe(built.text);
    // Each row's reward is the logged reward plus 2 when the cited order is the task's.
    const rows = jsonl<RewardRow>(text);
    const rollouts = groups.flatMap((g) => g.rollouts);
    const names = applied.run.names;
    expect(names).toEqual(["order"]);
    let matched = 0;
    rows.forEach((row, i) => {
      const outcome = applied.run.outcomes[i]![0]!;
      const logged = rollouts[i]!.reward!;
      expect(row.rollout_id).toBe(rollouts[i]!.id);
      expect(row.reward).toBe(logged + (outcome.value ?? 0));
      if (outcome.pass === true) matched++;
    });
    // The demo has matches and misses, so the component is not a constant.
    expect(matched).toBeGreaterThan(0);
    expect(matched).toBeLessThan(rows.length);
    // Without the spec the totals are the logged rewards: the flag is what changed them.
    const plain = jsonl<RewardRow>((await exported("rewards")).text);
    expect(plain.map((r) => r.reward)).toEqual(rollouts.map((r) => r.reward));
    expect(plain.map((r) => r.reward)).not.toEqual(rows.map((r) => r.reward));
  });

  it("calibration and dpo read the augmented rollouts too; weights apply to the new component", async () => {
    const applied = verifierApply(groups, spec);
    if (!applied.ok) throw new Error(applied.problems.join("; "));
    const input = { groups: applied.groups, annotations, settings: ANALYSIS_DEFAULTS };
    for (const kind of ["calibration", "dpo"] as const)
      expect((await exported(kind, "--verifiers", specPath)).text).toBe(
        exportBuild(kind, input).text,
      );
    const weighted = await exported("rewards", "--verifiers", specPath, "--weight", "order=0.25");
    expect(weighted.text).toBe(
      exportBuild("rewards", {
        ...input,
        settings: { ...ANALYSIS_DEFAULTS, rewardWeights: { order: 0.25 } },
      }).text,
    );
  });

  it("a bad spec writes nothing, exits 1 and names the file and the field", async () => {
    const bad = join(dir, "bad-spec.json");
    writeFileSync(
      bad,
      JSON.stringify({ version: 1, verifiers: [{ kind: "exact-match", name: "order" }] }),
    );
    const target = join(dir, "never-verified.out");
    const args = ["export", demoPath, "--annotations", annotationsPath, "--kind", "rewards"];
    const invalid = await run([...args, "--out", target, "--verifiers", bad]);
    expect(invalid.code).toBe(EXIT.failed);
    expect(invalid.stderr).toMatch(/bad-spec\.json: verifiers\[0\]\.field: /);
    expect(invalid.stderr).toMatch(/bad-spec\.json: the reward spec is invalid/);
    // A spec that parses but does not fit the data: a verifier named like a file component.
    const clash = join(dir, "clash-spec.json");
    writeFileSync(
      clash,
      verifierSpecToJson({ ...spec, verifiers: [{ ...spec.verifiers[0]!, name: "resolved" }] }),
    );
    const unfit = await run([...args, "--out", target, "--verifiers", clash]);
    expect(unfit.code).toBe(EXIT.failed);
    expect(unfit.stderr).toContain(
      "clash-spec.json: verifiers[0].name: the file already has a reward component of that name",
    );
    const missing = await run([...args, "--out", target, "--verifiers", join(dir, "nope.json")]);
    expect(missing.code).toBe(EXIT.failed);
    expect(missing.stderr).toMatch(/nope\.json/);
    expect(() => readFileSync(target)).toThrow();
  });

  it("the usage names the flag", async () => {
    const help = await run(["export", "--help"]);
    expect(help.stdout).toMatch(/--verifiers SPEC\.json/);
  });
});

describe("a judge verifier from the CLI", () => {
  /** The fixture's rubric run (rubric-1), weight 2, and the heuristic gar run by id. */
  const spec: VerifierSpec = {
    version: 1,
    text: "final-assistant",
    loggedReward: "keep",
    verifiers: [
      { kind: "judge", name: "rubric_judge", enabled: true, weight: 2, ...JUDGE_VERIFIER_DEFAULT },
      {
        kind: "judge",
        name: "gar_judge",
        enabled: true,
        weight: 1,
        ...JUDGE_VERIFIER_DEFAULT,
        mode: "gar",
        run: "gar-heuristic-1",
      },
    ],
  };
  let specPath: string;
  beforeAll(() => {
    specPath = join(dir, "judge-spec.json");
    writeFileSync(specPath, verifierSpecToJson(spec));
  });

  it("analyze --verifiers reads the runs from --annotations and gives core's component values", async () => {
    const out = await run([
      "analyze",
      demoPath,
      "--annotations",
      annotationsPath,
      "--verifiers",
      specPath,
      "--json",
    ]);
    expect(out.code).toBe(EXIT.ok);
    const json = JSON.parse(out.stdout) as {
      verifiers: { tally: { name: string; pass: number; fail: number; notApplicable: number }[] };
      groups: {
        rollouts: {
          id: string;
          reward: number;
          verifiers: Record<string, { value: number | null; pass: boolean | null; note?: string }>;
        }[];
      }[];
    };
    const applied = verifierApply(groups, spec, annotations.judgeRuns);
    if (!applied.ok) throw new Error(applied.problems.join("; "));
    const rows = json.groups.flatMap((g) => g.rollouts);
    expect(rows.map((r) => r.id)).toEqual(groups.flatMap((g) => g.rollouts.map((r) => r.id)));
    rows.forEach((row, i) => {
      const [rubric, gar] = applied.run.outcomes[i]!;
      expect(row.verifiers.rubric_judge).toEqual({
        value: rubric!.value,
        pass: rubric!.pass,
        ...(rubric!.note === "" ? {} : { note: rubric!.note }),
      });
      expect(row.verifiers.gar_judge?.value).toBe(gar!.value);
      expect(row.reward).toBe(applied.groups.flatMap((g) => g.rollouts)[i]!.reward);
    });
    // Judged groups give verdicts both ways; the others are n/a with the reason.
    const tally = Object.fromEntries(json.verifiers.tally.map((t) => [t.name, t]));
    expect(tally.rubric_judge!.pass).toBeGreaterThan(0);
    expect(tally.rubric_judge!.fail).toBeGreaterThan(0);
    expect(tally.rubric_judge!.notApplicable).toBeGreaterThan(0);
    expect(
      rows.some((r) => r.verifiers.rubric_judge?.note === "rubric-1 did not judge this group"),
    ).toBe(true);
    // The rubric verdicts are the run's own (what calibration compares).
    const summary = await run([
      "analyze",
      demoPath,
      "--annotations",
      annotationsPath,
      "--verifiers",
      specPath,
    ]);
    expect(summary.stdout).toMatch(
      /rubric_judge \(component\): \d+ pass, \d+ fail, \d+ not applicable/,
    );
  });

  it("export --verifiers gives the rewards of verifierApply + exportBuild with the runs", async () => {
    const { code, text } = await exported("rewards", "--verifiers", specPath);
    expect(code).toBe(EXIT.ok);
    const applied = verifierApply(groups, spec, annotations.judgeRuns);
    if (!applied.ok) throw new Error(applied.problems.join("; "));
    expect(text).toBe(
      exportBuild("rewards", { groups: applied.groups, annotations, settings: ANALYSIS_DEFAULTS })
        .text,
    );
  });

  it("is refused without --annotations, or without a run of its mode", async () => {
    const bare = await run(["analyze", demoPath, "--verifiers", specPath]);
    expect(bare.code).toBe(EXIT.usage);
    expect(bare.stderr).toContain(
      'judge-spec.json: verifiers[0] ("rubric_judge"), verifiers[1] ("gar_judge") read a judge run: add --annotations A.json',
    );
    const pairwise = join(dir, "pairwise-spec.json");
    writeFileSync(
      pairwise,
      verifierSpecToJson({
        ...spec,
        verifiers: [
          { ...spec.verifiers[0]!, mode: "pairwise" } as VerifierSpec["verifiers"][number],
        ],
      }),
    );
    const none = await run([
      "analyze",
      demoPath,
      "--annotations",
      annotationsPath,
      "--verifiers",
      pairwise,
    ]);
    expect(none.code).toBe(EXIT.failed);
    expect(none.stderr).toContain(
      "pairwise-spec.json: verifiers[0].run: there is no pairwise judge run yet: run the judge first",
    );
    const target = join(dir, "never-judged.out");
    const missing = await run([
      "export",
      demoPath,
      "--annotations",
      annotationsPath,
      "--kind",
      "rewards",
      "--out",
      target,
      "--verifiers",
      pairwise,
    ]);
    expect(missing.code).toBe(EXIT.failed);
    expect(() => readFileSync(target)).toThrow();
  });
});
