/**
 * Covers: `rollout-studio analyze` end to end, in-process through main() and through the real bin
 * as `npx rollout-studio` runs it (the built JavaScript in dist-cli, which the test setup builds); the acceptance numbers on tau-bench; every bad-input path
 * exits non-zero with a clear message and no stack trace.
 */
import { execFileSync, spawnSync } from "node:child_process";
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { COMMANDS } from "./commands/index.ts";
import { EXIT } from "./main.ts";
import { runCli } from "../test/cliRun.ts";

const ROOT = join(import.meta.dirname, "../..");
const TAU = join(ROOT, "../shared/data/tau-bench/gpt-4o-airline.json");

const run = (args: string[], cwd = ROOT) => runCli(args, cwd);

interface JsonOut {
  format: string;
  summary: {
    rollouts: number;
    groups: number;
    passes: number;
    mixedGroups: number;
    passAtK: Record<string, number>;
  };
  groups: {
    id: string;
    mixed: boolean;
    rollouts: {
      id: string;
      reward: number;
      advantage: number;
      rank: number;
      place: number;
      cluster: number;
      clusterSize: number;
      garReward?: number;
      garAdvantage?: number;
      factor?: number;
    }[];
  }[];
  issues: { file: string; line: number; field?: string; message: string }[];
}

let dir: string;

// main() imports a command's module when the command first runs; load it here, outside the first
// test's timeout.
beforeAll(async () => {
  await COMMANDS.analyze!.load();
}, 30_000);
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "rollout-studio-cli-"));
});

function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

describe("analyze tau-bench (acceptance)", () => {
  it("reports 200 rollouts, 50 groups, 84 passes, 26 mixed, pass^k 0.42/0.2733/0.22/0.20", async () => {
    const { code, stdout, stderr } = await run(["analyze", TAU, "--json"]);
    expect(stderr).toBe("");
    expect(code).toBe(EXIT.ok);
    const out = JSON.parse(stdout) as JsonOut;
    expect(out.format).toBe("tau-bench");
    expect(out.summary).toMatchObject({ rollouts: 200, groups: 50, passes: 84, mixedGroups: 26 });
    expect(out.summary.passAtK["1"]).toBeCloseTo(0.42, 10);
    expect(out.summary.passAtK["2"]).toBeCloseTo(0.2733, 4);
    expect(out.summary.passAtK["3"]).toBeCloseTo(0.22, 10);
    expect(out.summary.passAtK["4"]).toBeCloseTo(0.2, 10);
    const task1 = out.groups.find((g) => g.id === "1")!;
    const advantages = task1.rollouts.map((r) => r.advantage);
    [-0.4999, 1.4997, -0.4999, -0.4999].forEach((a, i) =>
      expect(Math.abs(advantages[i]! - a)).toBeLessThan(1e-4),
    );
    // The three failures tie: they share positions 0 to 2 (rank ties "average", the default).
    expect(task1.rollouts.map((r) => r.rank)).toEqual([1 / 3, 1, 1 / 3, 1 / 3]);
    // The place states the same order, best = 1: the pass first, the failures sharing 2 to 4.
    expect(task1.rollouts.map((r) => r.place)).toEqual([3, 1, 3, 3]);
    expect(task1.rollouts[0]).not.toHaveProperty("garReward");
  });

  it("--rank-ties index ranks equal rewards by index (the benchmax seed); a bad value is a usage error", async () => {
    const out = JSON.parse(
      (await run(["analyze", TAU, "--json", "--rank-ties", "index"])).stdout,
    ) as JsonOut;
    expect(out.groups.find((g) => g.id === "1")!.rollouts.map((r) => r.rank)).toEqual([
      0,
      1,
      1 / 3,
      2 / 3,
    ]);
    const text = (await run(["analyze", TAU, "--rank-ties", "index", "--tie", "0.5"])).stdout;
    expect(text).toContain("rank ties index, win-rate tie 0.5");
    const bad = await run(["analyze", TAU, "--rank-ties", "random"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("--rank-ties");
  });

  it("--scale none and --eps follow methods.md (Dr. GRPO, verl)", async () => {
    const none = JSON.parse(
      (await run(["analyze", TAU, "--json", "--scale", "none"])).stdout,
    ) as JsonOut;
    expect(none.groups.find((g) => g.id === "1")!.rollouts.map((r) => r.advantage)).toEqual([
      -0.25, 0.75, -0.25, -0.25,
    ]);
    const verl = JSON.parse(
      (await run(["analyze", TAU, "--json", "--eps", "1e-6"])).stdout,
    ) as JsonOut;
    expect(verl.groups.find((g) => g.id === "1")!.rollouts[1]!.advantage).toBeCloseTo(1.5, 5);
  });

  it("prints a readable summary without --json", async () => {
    const { code, stdout } = await run(["analyze", TAU]);
    expect(code).toBe(EXIT.ok);
    expect(stdout).toContain("200 rollouts in 50 groups; 84 passes (42.0%); 26 mixed groups");
    expect(stdout).toContain("pass^k: k=1 0.4200  k=2 0.2733  k=3 0.2200  k=4 0.2000");
  });

  it("applies annotations: GAR values for the ranked group only", async () => {
    const annotations = file(
      "tau-annotations.json",
      JSON.stringify({
        version: 1,
        groups: {
          "13": { ranking: [["13/2"], ["13/1"]], hacks: [], labels: { "13/1": "pass" }, notes: "" },
        },
      }),
    );
    const { code, stdout, stderr } = await run([
      "analyze",
      TAU,
      "--json",
      "--annotations",
      annotations,
    ]);
    expect(stderr).toBe("");
    expect(code).toBe(EXIT.ok);
    const out = JSON.parse(stdout) as JsonOut;
    const g13 = out.groups.find((g) => g.id === "13")!;
    // Rewards [0,1,1,0]: the better pass (13/2) gets factor 1 and gains what 13/1 loses.
    expect(g13.rollouts.map((r) => r.factor)).toEqual([undefined, 0.5, 1, undefined]);
    const gar = g13.rollouts.map((r) => r.garAdvantage!);
    [-0.5, 1 / 3, 2 / 3, -0.5].forEach((a, i) => expect(gar[i]).toBeCloseTo(a, 12));
    expect(g13.rollouts.map((r) => r.garReward!)[2]).toBeCloseTo(2 / 3 + 0.5, 12);
    expect(
      out.groups.filter((g) => g.rollouts.some((r) => r.garReward !== undefined)).map((g) => g.id),
    ).toEqual(["13"]);
  });

  it("the plain summary prints the numbers --json gives: GAR advantages, said to be GAR, where GAR applies", async () => {
    const annotations = file(
      "tau-annotations-plain.json",
      JSON.stringify({
        version: 1,
        groups: {
          "13": { ranking: [["13/2"], ["13/1"]], hacks: [], labels: {}, notes: "" },
          "1": { ranking: [], hacks: ["1/1"], labels: {}, notes: "" },
        },
      }),
    );
    const args = ["analyze", TAU, "--annotations", annotations];
    const plain = await run(args);
    const json = JSON.parse((await run([...args, "--json"])).stdout) as JsonOut;
    expect(plain.code).toBe(EXIT.ok);
    const lines = plain.stdout.split("\n");
    const row = (id: string): string => {
      const found = lines.find((l) => l.startsWith(`${id} `));
      expect(found, `a row for group ${id}`).toBeDefined();
      return found!;
    };
    const two = (xs: readonly number[]) => xs.map((x) => x.toFixed(2)).join(" ");
    const garGroups = json.groups.filter((g) =>
      g.rollouts.some((r) => r.garAdvantage !== undefined),
    );
    expect(garGroups.map((g) => g.id).sort()).toEqual(["1", "13"]);
    for (const g of json.groups) {
      const line = row(g.id);
      const grpo = two(g.rollouts.map((r) => r.advantage));
      if (garGroups.includes(g)) {
        // The GAR advantage (A', garAdvantage in --json), named as GAR, then GRPO's for reference.
        expect(line).toContain(`GAR ${two(g.rollouts.map((r) => r.garAdvantage!))}`);
        expect(line).toContain(`GRPO ${grpo}`);
      } else {
        expect(line).toContain(grpo);
        expect(line).not.toContain("GAR ");
      }
    }
    // Group 13's GAR advantages differ from its GRPO ones: the summary must not show GRPO alone.
    expect(row("13")).toContain("GAR -0.50 0.33 0.67 -0.50");
  });

  it("runs as the installed bin (npx rollout-studio)", () => {
    const stdout = execFileSync(
      process.execPath,
      [join(ROOT, "bin/rollout-studio.mjs"), "analyze", TAU, "--json"],
      {
        encoding: "utf8",
      },
    );
    expect((JSON.parse(stdout) as JsonOut).summary.rollouts).toBe(200);
  });
});

describe("the built CLI (dist-cli, built by the test setup)", () => {
  it("--help starts from the entry alone: every command is a chunk imported when it runs", () => {
    const entry = readFileSync(join(ROOT, "dist-cli/rollout-studio.mjs"), "utf8");
    // No static import at all: Node loads one file for --help.
    expect(entry).not.toMatch(/^\s*import\s[^(]/m);
    for (const command of ["analyze", "judge", "verify", "export", "health"])
      expect(entry).toMatch(new RegExp(`import\\("\\./chunks/${command}-[\\w-]+\\.mjs"\\)`));
    const help = spawnSync(process.execPath, [join(ROOT, "bin/rollout-studio.mjs"), "--help"], {
      encoding: "utf8",
    });
    expect(help.status).toBe(EXIT.ok);
    expect(help.stdout).toContain("Usage: rollout-studio COMMAND");
  });

  it("reruns a large input's analysis in a Node with a larger heap, passing output and exit code through", () => {
    const fixture = join(ROOT, "src/io/__fixtures__/native/malformed.jsonl");
    const bin = join(ROOT, "bin/rollout-studio.mjs");
    const runBin = (env: Record<string, string>) =>
      spawnSync(process.execPath, [bin, "analyze", fixture, "--json"], {
        encoding: "utf8",
        env: { ...process.env, ROLLOUT_STUDIO_FROM_SOURCE: "", ...env },
      });
    // Every input counts as large: the child runs it (when the machine has memory to give).
    const rerun = runBin({ ROLLOUT_STUDIO_LARGE_INPUT: "1" });
    const here = runBin({ ROLLOUT_STUDIO_HEAP_SET: "1" });
    expect(here.status).toBe(EXIT.issues);
    expect(rerun.status).toBe(here.status);
    expect(rerun.stdout).toBe(here.stdout);
    expect(rerun.stderr).toBe(here.stderr);
  });

  it("a bin without the build says how to build it, and exits 1 without compiling anything", () => {
    const bare = mkdtempSync(join(tmpdir(), "rollout-studio-unbuilt-"));
    mkdirSync(join(bare, "bin"));
    copyFileSync(join(ROOT, "bin/rollout-studio.mjs"), join(bare, "bin/rollout-studio.mjs"));
    const r = spawnSync(process.execPath, [join(bare, "bin/rollout-studio.mjs"), "--help"], {
      encoding: "utf8",
      env: { ...process.env, ROLLOUT_STUDIO_FROM_SOURCE: "" },
    });
    expect(r.status).toBe(EXIT.failed);
    expect(r.stderr).toContain("the CLI is not built (dist-cli/rollout-studio.mjs is missing)");
    expect(r.stderr).toContain("npm run build:cli");
    expect(r.stdout).toBe("");
  });
});

describe("bad input: a clear message and a non-zero exit, never a stack trace", () => {
  const noStack = (text: string) => expect(text).not.toMatch(/\n\s+at .+:\d+:\d+/);

  it("a missing file", async () => {
    const r = await run(["analyze", join(dir, "nope.jsonl")]);
    expect(r.code).toBe(EXIT.failed);
    expect(r.stderr).toMatch(/nope\.jsonl: cannot read the rollout file: no such file/);
    noStack(r.stderr);
  });

  it("a file in no known format", async () => {
    const r = await run(["analyze", file("unknown.jsonl", '{"foo": 1}\n')]);
    expect(r.code).toBe(EXIT.failed);
    expect(r.stderr).toMatch(/unknown\.jsonl: is in no known format/);
    noStack(r.stderr);
  });

  it("malformed lines are reported by line number while the rest still loads", async () => {
    const path = file(
      "mixed.jsonl",
      [
        '{"group_id":"g","completion":"a","reward":1}',
        "{not json",
        '{"group_id":"g","completion":"b","reward":0}',
      ].join("\n"),
    );
    const r = await run(["analyze", path, "--json"]);
    expect(r.code).toBe(EXIT.issues);
    const out = JSON.parse(r.stdout) as JsonOut;
    expect(out.summary.rollouts).toBe(2);
    expect(out.issues).toEqual([expect.objectContaining({ file: path, line: 2 })]);
    expect(r.stderr).toContain(`${path}:2: not valid JSON`);
    noStack(r.stderr);
  });

  it("a non-numeric or non-finite reward names the line and field", async () => {
    const path = file(
      "rewards.jsonl",
      [
        '{"group_id":"g","completion":"a","reward":"1.0"}',
        '{"group_id":"g","completion":"b","reward":"Infinity"}',
        '{"group_id":"g","completion":"c","reward":0}',
      ].join("\n"),
    );
    const r = await run(["analyze", path]);
    expect(r.code).toBe(EXIT.issues);
    expect(r.stderr).toContain(`${path}:1: reward: expected a finite number, got "1.0"`);
    expect(r.stderr).toContain(`${path}:2: reward: expected a finite number, got "Infinity"`);
    noStack(r.stderr);
  });

  it("an annotations file whose ids are not in the data", async () => {
    const annotations = file(
      "wrong.json",
      JSON.stringify({ version: 1, groups: { "1": { ranking: [["1/9"]] }, "no-such-group": {} } }),
    );
    const r = await run(["analyze", TAU, "--annotations", annotations]);
    expect(r.code).toBe(EXIT.failed);
    expect(r.stderr).toContain('the ranking names rollout "1/9", which is not in group "1"');
    expect(r.stderr).toContain('group "no-such-group" is not in the data');
    expect(r.stderr).toContain("2 id(s) are not in");
    expect(r.stdout).toBe("");
    noStack(r.stderr);
  });

  it("an invalid annotations file names the field", async () => {
    const r = await run([
      "analyze",
      TAU,
      "--annotations",
      file("v2.json", '{"version": 2, "groups": {}}'),
    ]);
    expect(r.code).toBe(EXIT.failed);
    expect(r.stderr).toMatch(/v2\.json: version: unsupported annotations version 2/);
  });

  it("a failing rollout in a ranking is a reported annotation issue, and ignored", async () => {
    const annotations = file(
      "fail-ranked.json",
      JSON.stringify({ version: 1, groups: { "1": { ranking: [["1/1"], ["1/0"]] } } }),
    );
    const r = await run(["analyze", TAU, "--json", "--annotations", annotations]);
    expect(r.code).toBe(EXIT.issues);
    const out = JSON.parse(r.stdout) as JsonOut;
    expect(out.issues).toEqual([
      expect.objectContaining({
        file: annotations,
        message: expect.stringContaining('"1/0" is ranked but fails') as string,
      }),
    ]);
    expect(out.groups.find((g) => g.id === "1")!.rollouts[1]!.factor).toBe(1);
  });

  it.each([
    [["analyze"], /analyze takes a FILE, several files, a folder or a glob; got none/],
    [["frobnicate", "x"], /unknown command "frobnicate"/],
    [["analyze", TAU, "--scale", "wide"], /--scale must be one of group, batch, none; got wide/],
    [["analyze", TAU, "--eps", "abc"], /--eps must be a number >= 0; got abc/],
    [["analyze", TAU, "--cap", "0.5"], /--cap must be a number >= 1/],
    [["analyze", TAU, "--min-factor", "0"], /--min-factor must be in \(0, 1\]/],
    [["analyze", TAU, "--ngram", "2.5"], /--ngram must be a positive integer/],
    [["analyze", TAU, "--similarity", "2"], /--similarity must be in \[0, 1\]/],
    [["analyze", TAU, "--bogus"], /Unknown option '--bogus'/],
  ])("usage error %j", async (args, message) => {
    const r = await run(args);
    expect(r.code).toBe(EXIT.usage);
    expect(r.stderr).toMatch(message);
  });

  it("--help lists the commands and exits 0; a command's --help gives its options; no arguments is a usage error", async () => {
    const top = await run(["--help"]);
    expect(top.code).toBe(EXIT.ok);
    // view first: the way in (issue 14); then the analysis commands.
    expect(top.stdout).toMatch(/Commands:\n {2}view {5}serve .*\n {2}analyze /);
    const analyze = await run(["analyze", "--help"]);
    expect(analyze.code).toBe(EXIT.ok);
    expect(analyze.stdout).toContain("Usage: rollout-studio analyze PATH...");
    expect(analyze.stdout).toContain("--annotations A.json");
    expect((await run([])).code).toBe(EXIT.usage);
  });

  it("a file with no readable rollout fails", async () => {
    const r = await run(["analyze", file("allbad.jsonl", '{"group_id": "g", "reward": "x"}\n')]);
    expect(r.code).toBe(EXIT.failed);
    expect(r.stderr).toContain("no rollout could be read");
  });

  it("the bin exits non-zero without a stack trace", () => {
    const r = spawnSync(
      process.execPath,
      [join(ROOT, "bin/rollout-studio.mjs"), "analyze", join(dir, "missing.json")],
      { encoding: "utf8" },
    );
    expect(r.status).toBe(EXIT.failed);
    noStack(r.stderr);
  });
});

describe("field mapping flags: --group-key, --text-key, --reward-key, --id-key", () => {
  const CSV = [
    "question,answer,correct,style,run",
    'q1,"Paris, France",1,0.5,a',
    "q1,Lyon,0,1,b",
    "q2,Madrid,1,,c",
  ].join("\n");

  it("read a CSV through the mapping (format mapped) with one reward field", async () => {
    const path = file("mapped.csv", CSV);
    const r = await run([
      "analyze",
      path,
      "--json",
      "--group-key",
      "question",
      "--text-key",
      "answer",
      "--reward-key",
      "correct",
      "--id-key",
      "run",
    ]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(EXIT.ok);
    const out = JSON.parse(r.stdout) as JsonOut;
    expect(out.format).toBe("mapped");
    expect(out.groups.map((g) => [g.id, g.rollouts.map((x) => [x.id, x.reward])])).toEqual([
      [
        "q1",
        [
          ["a", 1],
          ["b", 0],
        ],
      ],
      ["q2", [["c", 1]]],
    ]);
  });

  it("several reward fields, repeated or comma-separated, become summed components", async () => {
    const path = file("mapped2.csv", CSV);
    for (const flags of [
      ["--reward-key", "correct,style"],
      ["--reward-key", "correct", "--reward-key", "style"],
    ]) {
      const r = await run([
        "analyze",
        path,
        "--json",
        "--group-key",
        "question",
        "--text-key",
        "answer",
        ...flags,
      ]);
      expect(r.code).toBe(EXIT.ok);
      const out = JSON.parse(r.stdout) as JsonOut;
      // Components 1 + 0.5, 0 + 1, and 1 + (none).
      expect(out.groups.flatMap((g) => g.rollouts.map((x) => x.reward))).toEqual([1.5, 1, 1]);
    }
  });

  it("dotted paths reach nested JSONL fields", async () => {
    const path = file(
      "nested.jsonl",
      [
        { t: { id: "x" }, out: { text: "a" }, s: { ok: 1 } },
        { t: { id: "x" }, out: { text: "b" }, s: { ok: 0 } },
      ]
        .map((row) => JSON.stringify(row))
        .join("\n"),
    );
    const r = await run([
      "analyze",
      path,
      "--json",
      "--group-key",
      "t.id",
      "--text-key",
      "out.text",
      "--reward-key",
      "s.ok",
    ]);
    expect(r.code).toBe(EXIT.ok);
    const out = JSON.parse(r.stdout) as JsonOut;
    expect(out.groups[0]!.rollouts.map((x) => [x.id, x.reward])).toEqual([
      ["x/0", 1],
      ["x/1", 0],
    ]);
  });

  it("a row missing a mapped field is reported by line and field; the rest loads", async () => {
    const path = file("gap.csv", "question,answer,correct\nq1,Paris,1\n,Lyon,0\nq1,Nice,maybe\n");
    const r = await run([
      "analyze",
      path,
      "--group-key",
      "question",
      "--text-key",
      "answer",
      "--reward-key",
      "correct",
    ]);
    expect(r.code).toBe(EXIT.issues);
    expect(r.stderr).toContain(`${path}:3: question: is required (the group key you mapped)`);
    expect(r.stderr).toContain(
      `${path}:4: correct: expected a number (or empty/NaN for none), got "maybe"`,
    );
  });

  it("--reward-key with --format trl picks TRL's reward columns", async () => {
    const path = file(
      "trl.csv",
      "step,prompt,completion,accuracy_reward,len_reward,advantage\n1,p,a,1,0.2,0.7\n1,p,b,0,0.9,-0.7\n",
    );
    const all = JSON.parse((await run(["analyze", path, "--json"])).stdout) as JsonOut;
    expect(all.format).toBe("trl");
    expect(all.groups[0]!.rollouts.map((x) => x.reward)).toEqual([1.2, 0.9]);
    const picked = JSON.parse(
      (await run(["analyze", path, "--json", "--format", "trl", "--reward-key", "accuracy_reward"]))
        .stdout,
    ) as JsonOut;
    expect(picked.groups[0]!.rollouts.map((x) => x.reward)).toEqual([1, 0]);
  });

  it.each([
    [["--format", "mapped"], /--format mapped needs --group-key FIELD and --text-key FIELD/],
    [["--group-key", "question"], /a field mapping needs --group-key FIELD and --text-key FIELD/],
    [["--reward-key", "correct"], /or name the format with --format, e.g. --format trl/],
    [["--group-key", " ", "--text-key", "answer"], /--group-key needs a field name/],
    [
      ["--group-key", "q", "--text-key", "a", "--reward-key", "x,,y"],
      /--reward-key needs a field name/,
    ],
  ])("usage error %j", async (flags, message) => {
    const r = await run(["analyze", file("usage.csv", CSV), ...flags]);
    expect(r.code).toBe(EXIT.usage);
    expect(r.stderr).toMatch(message);
  });
});

describe("large files stream through the byte index", () => {
  const FIXTURES = join(ROOT, "src/io/__fixtures__/native");
  it.each(["basic.jsonl", "malformed.jsonl", "bom-no-final-newline.jsonl"])(
    "%s gives the same analysis streamed as read whole",
    async (name) => {
      const whole = await run(["analyze", join(FIXTURES, name), "--json"]);
      process.env.ROLLOUT_STUDIO_INDEX_THRESHOLD = "0";
      try {
        const streamed = await run(["analyze", join(FIXTURES, name), "--json"]);
        expect(streamed.code).toBe(whole.code);
        const a = JSON.parse(whole.stdout) as JsonOut;
        const b = JSON.parse(streamed.stdout) as JsonOut;
        expect(b.summary).toEqual(a.summary);
        expect(b.groups).toEqual(a.groups);
        const where = (o: JsonOut) => o.issues.map((i) => [i.line, i.field ?? null]);
        expect(where(b)).toEqual(where(a));
      } finally {
        delete process.env.ROLLOUT_STUDIO_INDEX_THRESHOLD;
      }
    },
  );
});

describe("the CLI loads every fixture as the golden files say", () => {
  const FIXTURES = join(ROOT, "src/io/__fixtures__");
  const cases = readdirSync(FIXTURES, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .flatMap((d) =>
      readdirSync(join(FIXTURES, d.name))
        .filter(
          (f) => /\.(jsonl|json|csv|parquet)$/.test(f) && !/\.(expected|options)\.json$/.test(f),
        )
        .map((f) => ({ dir: d.name, file: f, base: f.replace(/\.[^.]+$/, "") }))
        .filter((c) => existsSync(join(FIXTURES, c.dir, `${c.base}.expected.json`))),
    );

  it.each(cases)("$dir/$file", async ({ dir, file, base }) => {
    const expected = JSON.parse(
      readFileSync(join(FIXTURES, dir, `${base}.expected.json`), "utf8"),
    ) as {
      format: string;
      groups: { id: string; rollouts: { id: string; reward: number | null }[] }[];
      issues: { line: number; field?: string }[];
    };
    const optionsPath = join(FIXTURES, dir, `${base}.options.json`);
    const flags: string[] = [];
    if (existsSync(optionsPath)) {
      const o = JSON.parse(readFileSync(optionsPath, "utf8")) as {
        format?: string;
        options?: { groupKey?: string; textKey?: string; idKey?: string; rewardKeys?: string[] };
      };
      if (o.format) flags.push("--format", o.format);
      if (o.options?.groupKey) flags.push("--group-key", o.options.groupKey);
      if (o.options?.textKey) flags.push("--text-key", o.options.textKey);
      if (o.options?.idKey) flags.push("--id-key", o.options.idKey);
      for (const k of o.options?.rewardKeys ?? []) flags.push("--reward-key", k);
    }
    const r = await run(["analyze", join(FIXTURES, dir, file), "--json", ...flags]);
    expect(r.code).toBe(expected.issues.length === 0 ? EXIT.ok : EXIT.issues);
    const out = JSON.parse(r.stdout) as JsonOut;
    expect(out.format).toBe(expected.format);
    expect(out.groups.map((g) => [g.id, g.rollouts.map((x) => x.id)])).toEqual(
      expected.groups.map((g) => [g.id, g.rollouts.map((x) => x.id)]),
    );
    expect(out.issues.map((i) => [i.line, i.field ?? null])).toEqual(
      expected.issues.map((i) => [i.line, i.field ?? null]),
    );
  });
});

describe("reward weights and the csv alias", () => {
  const TRL = join(ROOT, "src/io/__fixtures__/trl/completions-jsonl.jsonl");
  it("--weight reweights the components of the total reward, as TRL's reward_weights", async () => {
    const plain = JSON.parse((await run(["analyze", TRL, "--json"])).stdout) as JsonOut;
    const weighted = JSON.parse(
      (await run(["analyze", TRL, "--json", "--weight", "format_reward=0"])).stdout,
    ) as JsonOut;
    expect(plain.groups[0]!.rollouts.map((r) => r.reward)).not.toEqual(
      weighted.groups[0]!.rollouts.map((r) => r.reward),
    );
    expect((await run(["analyze", TRL, "--weight", "oops"])).stderr).toMatch(
      /--weight must be NAME=NUMBER/,
    );
  });
  it("keeps the trainer's logged advantage beside ours", async () => {
    const out = JSON.parse((await run(["analyze", TRL, "--json"])).stdout) as {
      groups: { rollouts: { advantage: number; trainerAdvantage?: number }[] }[];
    };
    expect(out.groups[0]!.rollouts.every((r) => typeof r.trainerAdvantage === "number")).toBe(true);
  });
  it("--format csv is the mapped format", async () => {
    const path = file("t.csv", "q,ans,score\nq1,a,1\nq1,b,0\n");
    const r = await run([
      "analyze",
      path,
      "--json",
      "--format",
      "csv",
      "--group-key",
      "q",
      "--text-key",
      "ans",
      "--reward-key",
      "score",
    ]);
    expect(r.code).toBe(EXIT.ok);
    expect((JSON.parse(r.stdout) as JsonOut).format).toBe("mapped");
  });
});
