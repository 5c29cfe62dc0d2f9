/**
 * Covers: `rollout-studio health` (issue 19, item 6). Its `--json` steps and alerts are core's
 * runHealth and detectors over the run's groups (golden, on a small generated run); the acceptance
 * runs (scripts/healthRun.ts): planted length drift named at step 8 by `--fail-on length-drift`,
 * the planted hack's spread named where its share first passes the threshold, a clean run exit 0;
 * `--window`; usage errors; `--compare` against core's compareRuns. And the streamed read equals
 * `runHealth` over loadRunForCli's whole load: on a run of several files, with every file indexed
 * (ROLLOUT_STUDIO_INDEX_THRESHOLD=0, batches of groups), with annotations marking hacks, with ids
 * two files share (the merge's collisions), a single indexed file, and the runs it loads whole
 * (agent trajectories, a report beside a file).
 */
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import {
  ANALYSIS_DEFAULTS,
  compareRuns,
  hackExemplarsOf,
  HEALTH_DEFAULTS,
  HEALTH_RULES,
  healthAlerts,
  healthDetectors,
  markedHackIds,
  RunHealthTally,
  runHealth,
  type Annotations,
  type HealthSettings,
  type RunHealth,
  type StepHealth,
} from "../core/index.ts";
import { annotationsParse, INDEX_MIN_BYTES } from "../io/index.ts";
import {
  healthRun,
  healthRunAnnotations,
  healthRunHackStep,
  type HealthRun,
} from "../../scripts/healthRun.ts";
import { runCli } from "../test/cliRun.ts";
import { healthRunGroups } from "../test/healthRunGroups.ts";
import { COMMANDS } from "./commands/index.ts";
import { readRunHealth, type HealthReadOptions } from "./healthRead.ts";
import { cliGroupSteps, loadRunForCli } from "./loadForCli.ts";
import { EXIT } from "./main.ts";

const DATA = join(import.meta.dirname, "../../../shared/data");
const INDEXED = { ROLLOUT_STUDIO_INDEX_THRESHOLD: "0" };
const COLLIDE = ["collide/a/1.jsonl", "collide/b/1.jsonl"];
const run = (args: string[], env: Record<string, string> = {}) => runCli(args, root, env);

let root = "";
const DRIFT = healthRun({
  drift: { start: 8, rate: 0.15 },
  hack: { start: 12, share0: 0.03, max: 0.6 },
});
const CLEAN = healthRun();
const SMALL = healthRun({ steps: 6, prompts: 5, groupSize: 4, seed: 3 });
const SMALL_B = healthRun({
  steps: 6,
  prompts: 6,
  groupSize: 4,
  seed: 4,
  drift: { start: 2, rate: 0.3 },
});

function writeRun(dir: string, r: HealthRun): void {
  mkdirSync(join(root, dir), { recursive: true });
  for (const f of r.files) writeFileSync(join(root, dir, f.name), f.text);
}

function annotationsOf(r: HealthRun): Annotations {
  const parsed = annotationsParse("a.json", JSON.stringify(healthRunAnnotations(r)));
  if (!parsed.ok) throw new Error("the generated annotations are invalid");
  return parsed.value;
}

beforeAll(async () => {
  await COMMANDS.health!.load();
  root = mkdtempSync(join(tmpdir(), "rs-health-"));
  writeRun("drift", DRIFT);
  writeRun("clean", CLEAN);
  writeRun("small", SMALL);
  writeRun("smallB", SMALL_B);
  writeFileSync(join(root, "drift.annotations.json"), JSON.stringify(healthRunAnnotations(DRIFT)));
  // Two files named for one step (step 1 from each name): the merge keeps the second file's
  // groups apart as "<file>:<id>".
  for (const dir of ["a", "b"]) {
    mkdirSync(join(root, "collide", dir), { recursive: true });
    writeFileSync(join(root, "collide", dir, "1.jsonl"), SMALL.files[0]!.text);
  }
  // One file of every step, each group's id carrying its step (a single file keeps its ids).
  writeFileSync(
    join(root, "one.jsonl"),
    DRIFT.files
      .flatMap((f) => f.text.trim().split("\n"))
      .map((line) => {
        const row = JSON.parse(line) as { step: number; group_id: string };
        return JSON.stringify({ ...row, group_id: `${row.step}/${row.group_id}` });
      })
      .join("\n") + "\n",
  );
  // Agent trajectories: two runs' SWE-agent trajectories of one instance, one run scored.
  for (const r of ["runA", "runB"]) {
    mkdirSync(join(root, "swe", r, "fcs"), { recursive: true });
    copyFileSync(
      join(DATA, "swe-agent/function_calling_simple.traj"),
      join(root, "swe", r, "fcs", "fcs.traj"),
    );
  }
  writeFileSync(
    join(root, "swe", "runB", "fcs", "report.json"),
    JSON.stringify({
      function_calling_simple: { resolved: true, patch_successfully_applied: true },
    }),
  );
  // OpenHands' output.jsonl with its report.json beside it.
  mkdirSync(join(root, "oh"));
  copyFileSync(
    join(DATA, "openhands/multi_swe_bench_output.jsonl"),
    join(root, "oh", "output.jsonl"),
  );
  writeFileSync(
    join(root, "oh", "report.json"),
    JSON.stringify({
      resolved_ids: ["ponylang__ponyc-4595"],
      unresolved_ids: ["ponylang__ponyc-4593"],
      error_ids: [],
    }),
  );
}, 60_000);

interface HealthDoc {
  steps: Record<string, unknown>[];
  alerts: {
    rule: string;
    step: number;
    value: number | null;
    threshold: number;
    message: string;
  }[];
  details: Record<string, unknown>[];
  detectors: { rule: string; fired: number[]; idle: string | null; formula: string }[];
  runs?: { name: string; steps: unknown[]; alerts: unknown[] }[];
  compare?: Record<string, unknown>;
}

const STEP_KEYS = [
  "step",
  "groups",
  "rollouts",
  "passRate",
  "meanReward",
  "zeroStdShare",
  "mixedShare",
  "meanChars",
  "meanToolCalls",
  "clustersPerGroup",
];

/** Core's numbers as JSON writes them (NaN as null). */
const asJson = (x: unknown): unknown => JSON.parse(JSON.stringify(x));

function expectedSteps(steps: readonly StepHealth[]): unknown {
  return asJson(
    steps.map((s) => ({
      step: s.step,
      groups: s.groups,
      rollouts: s.rollouts,
      passRate: s.passRate,
      meanReward: s.meanReward,
      zeroStdShare: s.zeroStdShare,
      mixedShare: s.mixedShare,
      meanChars: s.meanChars,
      meanToolCalls: s.meanToolCalls,
      clustersPerGroup: s.clustersPerGroup,
    })),
  );
}

function coreHealth(r: HealthRun, annotations: Annotations | null = null): RunHealth {
  const groups = healthRunGroups(r);
  const exemplars = hackExemplarsOf(
    groups.map((g) => g.group),
    markedHackIds(annotations),
    ANALYSIS_DEFAULTS,
  );
  return runHealth(groups, ANALYSIS_DEFAULTS, HEALTH_DEFAULTS, { annotations, exemplars });
}

const expectedAlerts = (h: RunHealth, settings: HealthSettings = HEALTH_DEFAULTS): unknown =>
  asJson(healthAlerts(healthDetectors(h, settings)));

describe("health --json", () => {
  it("writes core's per-step numbers and alerts, each step with exactly the issue's ten keys", async () => {
    const { code, stdout, stderr } = await run(["health", "small", "--json"]);
    expect(stderr).toBe("");
    expect(code).toBe(EXIT.ok);
    const doc = JSON.parse(stdout) as HealthDoc;
    for (const s of doc.steps) expect(Object.keys(s)).toEqual(STEP_KEYS);
    const core = coreHealth(SMALL);
    expect(core.steps.map((s) => s.step)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(doc.steps).toEqual(expectedSteps(core.steps));
    expect(doc.alerts).toEqual(expectedAlerts(core));
    expect(doc.details.map((d) => d.step)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(doc.details[0]).toMatchObject(
      asJson({
        passes: core.steps[0]!.passes,
        meanTurns: core.steps[0]!.meanTurns,
        components: core.steps[0]!.components,
        componentShares: core.steps[0]!.componentShares,
        clusteredGroups: 5,
        spread: core.steps[0]!.spread,
        hackLikeShare: null,
        hackCorrected: null,
      }) as object,
    );
    expect(doc.detectors.map((d) => d.rule)).toEqual(HEALTH_RULES);
    const hack = doc.detectors.find((d) => d.rule === "hack-spread")!;
    expect(hack.idle).toBe("no rollout is marked as a hack");
  });

  it("with annotations, the hack-like share and the alerts are core's with the marked exemplars", async () => {
    const { code, stdout } = await run([
      "health",
      "drift",
      "--json",
      "--annotations",
      "drift.annotations.json",
    ]);
    expect(code).toBe(EXIT.ok);
    const doc = JSON.parse(stdout) as HealthDoc;
    const core = coreHealth(DRIFT, annotationsOf(DRIFT));
    expect(core.exemplars).toBe(2);
    expect(doc.steps).toEqual(expectedSteps(core.steps));
    expect(doc.details.map((d) => d.hackLikeShare)).toEqual(
      asJson(core.steps.map((s) => s.hackLikeShare)),
    );
    expect(doc.alerts).toEqual(expectedAlerts(core));
  });
});

describe("health as a CI gate (the acceptance runs)", () => {
  it("--fail-on length-drift exits 1 and names step 8, where the planted drift starts", async () => {
    const { code, stdout, stderr } = await run(["health", "drift", "--fail-on", "length-drift"]);
    expect(code).toBe(EXIT.failed);
    expect(stderr).toMatch(/--fail-on: length-drift fired at step 8 of drift/);
    expect(stdout).toMatch(/^ {2}length-drift +step 8 /m);
  });

  it("--annotations with --fail-on hack-spread exits 1 at the step the planted share first passes the threshold", async () => {
    const step = healthRunHackStep(DRIFT, HEALTH_DEFAULTS.hackSpreadMax);
    expect(step).not.toBeNull();
    const { code, stderr } = await run([
      "health",
      "drift",
      "--annotations",
      "drift.annotations.json",
      "--fail-on",
      "hack-spread",
    ]);
    expect(code).toBe(EXIT.failed);
    expect(stderr).toContain(`--fail-on: hack-spread fired at step ${step} of drift`);
    // Without the marks there is nothing to compare with: the rule cannot fire.
    const unmarked = await run(["health", "drift", "--fail-on", "hack-spread"]);
    expect(unmarked.code).toBe(EXIT.ok);
    expect(unmarked.stdout).toContain("hack-spread: no rollout is marked as a hack");
  });

  it("a clean run passes every rule", async () => {
    const { code, stdout, stderr } = await run([
      "health",
      "clean",
      "--fail-on",
      "length-drift,hack-spread,zero-std",
      "--fail-on",
      "diversity-collapse,component-dominance",
    ]);
    expect(stderr).toBe("");
    expect(code).toBe(EXIT.ok);
    expect(stdout).toContain("alerts: none");
  });

  it("--window sets the trend tests' window: core's detectors under it", async () => {
    const core = coreHealth(DRIFT);
    for (const window of [4, 7]) {
      const { stdout } = await run(["health", "drift", "--json", "--window", String(window)]);
      const doc = JSON.parse(stdout) as HealthDoc;
      expect(doc.alerts).toEqual(expectedAlerts(core, { ...HEALTH_DEFAULTS, window }));
      const drift = doc.alerts.find((a) => a.rule === "length-drift")!;
      expect(drift.message).toContain(`over the ${window} steps`);
    }
    // A window longer than the run: the trend rules cannot run, so length-drift cannot fail it.
    const long = await run(["health", "drift", "--window", "21", "--fail-on", "length-drift"]);
    expect(long.code).toBe(EXIT.ok);
    expect(long.stdout).toContain("length-drift: needs 21 steps (the window); the run has 20");
  });

  it("a load problem exits 3 unless a --fail-on rule fired, which exits 1", async () => {
    mkdirSync(join(root, "bad"), { recursive: true });
    for (const f of DRIFT.files) writeFileSync(join(root, "bad", f.name), f.text);
    writeFileSync(
      join(root, "bad", "3.jsonl"),
      `${DRIFT.files[2]!.text}{"group_id": "p0", "comp\n`,
    );
    const plain = await run(["health", "bad"]);
    expect(plain.code).toBe(EXIT.issues);
    expect(plain.stderr).toMatch(/bad\/3\.jsonl:193/);
    const gated = await run(["health", "bad", "--fail-on", "length-drift"]);
    expect(gated.code).toBe(EXIT.failed);
    expect(gated.stderr).toMatch(/bad\/3\.jsonl:193/);
    expect(gated.stderr).toContain("length-drift fired at step 8");
  });
});

describe("health usage", () => {
  it.each([
    [["health", "small", "--fail-on", "nope"], `among ${HEALTH_RULES.join(", ")}; got nope`],
    [["health", "small", "--fail-on", "zero-std,"], "got an empty rule"],
    [["health", "small", "--window", "2"], "--window must be an integer >= 3; got 2"],
    [
      ["health", "small", "--cluster-sample", "1.5"],
      "--cluster-sample must be an integer >= 0; got 1.5",
    ],
    [["health", "small", "--compare"], "--compare reads two runs, A then B"],
    [["health", "small", "smallB", "clean", "--compare"], "got 3 path(s)"],
    [
      ["health", "small", "smallB", "--compare", "--annotations", "drift.annotations.json"],
      "--compare takes no --annotations",
    ],
    [["health", "small", "--estimator", "rloo"], "Unknown option '--estimator'"],
    [["health"], "health takes a FILE, several files, a folder or a glob; got none"],
  ])("usage error %j", async (args, message) => {
    const r = await run(args);
    expect(r.code).toBe(EXIT.usage);
    expect(r.stderr).toContain(message);
  });

  it("--help documents the flags (the health settings' too) and the JSON", async () => {
    const r = await run(["health", "--help"]);
    expect(r.code).toBe(EXIT.ok);
    for (const text of [
      "--fail-on RULE",
      "--window N",
      "--cluster-sample N",
      "--compare",
      '"details"',
    ])
      expect(r.stdout).toContain(text);
    expect((await run(["--help"])).stdout).toMatch(/^ {2}health +a training run's health/m);
  });

  it("refuses annotations naming ids the run does not hold, as analyze does", async () => {
    writeFileSync(
      join(root, "foreign.json"),
      JSON.stringify({ version: 1, groups: { "1/nope": { hacks: ["1/nope/0"] } } }),
    );
    const r = await run(["health", "small", "--annotations", "foreign.json"]);
    expect(r.code).toBe(EXIT.failed);
    expect(r.stderr).toContain('foreign.json: group "1/nope" is not in the data');
    expect(r.stderr).toContain("1 id(s) are not in small");
    expect(r.stdout).toBe("");
  });
});

describe("health --compare", () => {
  it("gives both runs' health and core's comparison of B with A on their shared prompts", async () => {
    const { code, stdout, stderr } = await run([
      "health",
      "small",
      "smallB",
      "--compare",
      "--json",
    ]);
    expect(stderr).toBe("");
    expect(code).toBe(EXIT.ok);
    const doc = JSON.parse(stdout) as HealthDoc;
    const tally = (r: HealthRun) => {
      const t = new RunHealthTally(ANALYSIS_DEFAULTS, HEALTH_DEFAULTS);
      t.addBatch(healthRunGroups(r));
      return t;
    };
    const [a, b] = [tally(SMALL), tally(SMALL_B)];
    expect(doc.steps).toEqual(expectedSteps(a.finish().steps));
    expect(doc.runs!.map((r) => r.name)).toEqual(["small", "smallB"]);
    expect(doc.runs![1]!.steps).toEqual(expectedSteps(b.finish().steps));
    expect(doc.runs![1]!.alerts).toEqual(expectedAlerts(b.finish()));
    const c = compareRuns(a.groups(), b.groups());
    const side = (s: (typeof c.shared)[number]["a"]) => ({
      passRate: s.passRate,
      meanReward: s.meanReward,
      rollouts: s.rollouts,
      groupIds: s.groupIds,
    });
    const prompt = (p: (typeof c.shared)[number]) => ({
      prompt: p.prompt,
      a: side(p.a),
      b: side(p.b),
      passDiff: p.passDiff,
      rewardDiff: p.rewardDiff,
    });
    expect(doc.compare).toEqual(
      asJson({
        a: "small",
        b: "smallB",
        metric: "passRate",
        sharedPrompts: 5,
        onlyA: 0,
        onlyB: 1,
        passRate: c.passRate,
        meanReward: c.meanReward,
        regressions: c.regressions.map(prompt),
        improvements: c.improvements.map(prompt),
      }),
    );
    expect((doc.compare!.regressions as { a: { groupIds: string[] } }[])[0]?.a.groupIds).toEqual(
      [1, 2, 3, 4, 5, 6].map((s) => `${s}/${c.regressions[0]!.prompt}`),
    );
  });

  it("prints both tables and the comparison as text", async () => {
    const { code, stdout } = await run(["health", "small", "smallB", "--compare"]);
    expect(code).toBe(EXIT.ok);
    expect(stdout).toMatch(/^A: small: 6 steps, 30 groups, 120 rollouts/m);
    expect(stdout).toMatch(/^B: smallB: 6 steps, 36 groups, 144 rollouts/m);
    expect(stdout).toContain("5 shared prompts (0 only in A, 1 only in B)");
    expect(stdout).toMatch(/^pass rate B - A: mean [+-]\d\.\d{3} over 5 prompts/m);
  });
});

/** The reference: core's runHealth over loadRunForCli's whole load of the same run. */
async function wholeLoadHealth(
  paths: string[],
  annotations: Annotations | null = null,
  threshold = INDEX_MIN_BYTES,
): Promise<RunHealth> {
  const loaded = await loadRunForCli(root, paths, undefined, undefined, threshold);
  const steps = cliGroupSteps(loaded);
  const exemplars = hackExemplarsOf(loaded.groups, markedHackIds(annotations), ANALYSIS_DEFAULTS);
  return runHealth(
    loaded.groups.map((group) => ({ group, step: steps.get(group.id) ?? null })),
    ANALYSIS_DEFAULTS,
    HEALTH_DEFAULTS,
    { annotations, exemplars },
  );
}

function readOptions(annotations: Annotations | null, threshold: number): HealthReadOptions {
  return {
    format: undefined,
    mapping: undefined,
    settings: ANALYSIS_DEFAULTS,
    health: HEALTH_DEFAULTS,
    annotations,
    threshold,
    stderr: () => undefined,
  };
}

describe("the streamed read equals runHealth over the whole load", () => {
  it.each([
    ["a run of several files", ["drift"], null, INDEX_MIN_BYTES],
    ["every file indexed, read in batches of groups", ["drift"], null, 0],
    ["with marked hacks (a first pass collects them)", ["drift"], "drift", INDEX_MIN_BYTES],
    ["with marked hacks, every file indexed", ["drift"], "drift", 0],
    ["two files giving the same ids (kept apart)", COLLIDE, null, INDEX_MIN_BYTES],
    ["the same, indexed", COLLIDE, null, 0],
    ["a single indexed file of every step", ["one.jsonl"], null, 0],
    ["files named by a glob", ["small/*.jsonl"], null, 0],
  ])("%s", async (_, paths, marks, threshold) => {
    const annotations = marks === null ? null : annotationsOf(DRIFT);
    const read = await readRunHealth(root, paths, readOptions(annotations, threshold));
    expect(read.streamed).toBe(true);
    const whole = await wholeLoadHealth(paths, annotations, threshold);
    expect(asJson(read.health)).toEqual(asJson(whole));
    const loaded = await loadRunForCli(root, paths, undefined, undefined, threshold);
    expect(read.issues).toEqual(loaded.issues);
    expect(read.groups.map((g) => g.id)).toEqual(loaded.groups.map((g) => g.id));
  });

  it("the collided run's second file is kept apart with the merge's issue", async () => {
    const read = await readRunHealth(root, COLLIDE, readOptions(null, 0));
    expect(read.groups.map((g) => g.id)).toEqual([
      ...[0, 1, 2, 3, 4].map((p) => `1/p${p}`),
      ...[0, 1, 2, 3, 4].map((p) => `collide/b/1.jsonl:p${p}`),
    ]);
    expect(read.issues.map((i) => i.message).join("\n")).toContain("kept apart");
  });

  it("the command's JSON is the same with every file indexed", async () => {
    const a = await run(["health", "drift", "--json"]);
    const b = await run(["health", "drift", "--json"], INDEXED);
    expect(b.code).toBe(EXIT.ok);
    expect(b.stdout).toBe(a.stdout);
    expect(readFileSync(join(root, "drift", "1.jsonl"), "utf8").length).toBeLessThan(
      INDEX_MIN_BYTES,
    );
  });

  it.each([
    ["agent trajectories, grouped across files and scored by a report", "swe"],
    ["a file with its evaluation report beside it", "oh/output.jsonl"],
  ])("%s: loaded whole, core's numbers", async (_, path) => {
    const read = await readRunHealth(root, [path], readOptions(null, INDEX_MIN_BYTES));
    expect(read.streamed).toBe(false);
    expect(asJson(read.health)).toEqual(asJson(await wholeLoadHealth([path])));
    expect(read.health.steps.reduce((s, x) => s + x.rollouts, 0)).toBeGreaterThan(0);
  });
});
