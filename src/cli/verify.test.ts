/**
 * Covers: `rollout-studio verify` (the unit-test reward) and `analyze --verifiers`. verify runs the
 * rollouts' code only through a sandbox wrapper this test provides (a minimal environment and a
 * time limit); a timeout scores 0 without hanging; without --sandbox nothing runs and every rollout
 * scores 0 with a message that says so; the caller's environment does not leak in. analyze
 * --verifiers gives the numbers of core's verifierApply + analyzeDataset, which the studio uses.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { analyzeDataset, verifierApply, type VerifierSpec } from "../core/index.ts";
import { loadText, verifierSpecToJson } from "../io/index.ts";
import { commandSplit, codeLastBlock } from "./commands/verify.ts";
import { COMMANDS } from "./commands/index.ts";
import { EXIT, main } from "./main.ts";

let dir: string;

// main() imports a command's module when the command first runs; load it here, outside the first
// test's timeout.
beforeAll(async () => {
  await COMMANDS.verify!.load();
}, 30_000);
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "rollout-studio-verify-test-"));
});

async function run(args: string[], env: Record<string, string> = {}) {
  let stdout = "";
  let stderr = "";
  const code = await main(args, {
    stdout: (t) => (stdout += t),
    stderr: (t) => (stderr += t),
    cwd: dir,
    env,
  });
  return { code, stdout, stderr };
}

function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

const jsonl = (rows: object[]): string => rows.map((r) => `${JSON.stringify(r)}\n`).join("");

interface Scores {
  refused: boolean;
  summary: Record<string, number>;
  rollouts: { id: string; score: number | null; status: string; output: string }[];
}

describe("verify", () => {
  // The rollouts are shell functions; each one's tests source the candidate and check `add`.
  const tests =
    '. ./candidate.sh\n[ "$(add 2 3)" = 5 ] || { echo "add 2 3 gave $(add 2 3)"; exit 1; }\n';
  let data: string;
  let marker: string;
  let sandbox: string;
  beforeAll(() => {
    marker = join(dir, "host-ran");
    data = file(
      "code.jsonl",
      jsonl([
        { group_id: "g", completion: "add() { echo $(($1 + $2)); }", reward: 0, meta: { tests } },
        { group_id: "g", completion: "add() { echo $(($1 - $2)); }", reward: 0, meta: { tests } },
        // An infinite loop: the timeout must kill it and score 0.
        { group_id: "g", completion: "while :; do :; done", reward: 0, meta: { tests } },
        // No tests: not applicable.
        { group_id: "g", completion: "add() { echo 5; }", reward: 0, meta: {} },
        // Sees only what the sandbox passes: no secret from the caller, the one allowed variable.
        {
          group_id: "g",
          completion: `touch ${marker}\nadd() { [ -z "$SECRET_TOKEN" ] && [ "$ALLOWED" = yes ] && echo 5; }`,
          reward: 0,
          meta: { tests },
        },
      ]),
    );
    // The sandbox the user would supply, reduced to what a test can check: it enters the rollout's
    // directory, clears the environment (keeping PATH and ALLOWED) and caps the time.
    sandbox = file(
      "sandbox.sh",
      'cd "$1" || exit 97\nshift\nexec env -i PATH="$PATH" ALLOWED="$ALLOWED" timeout 20 "$@"\n',
    );
  });

  const args = (...extra: string[]) => [
    "verify",
    data,
    "--tests-field",
    "tests",
    "--run",
    "sh test.sh",
    "--candidate",
    "candidate.sh",
    "--tests-file",
    "test.sh",
    "--json",
    ...extra,
  ];

  it("runs each rollout's tests through the sandbox; a timeout scores 0 and does not hang", async () => {
    const out = await run(
      [...args("--sandbox", `sh '${sandbox}' {dir}`, "--timeout", "2", "--sandbox-env", "ALLOWED")],
      { SECRET_TOKEN: "s3cret", ALLOWED: "yes", PATH: process.env.PATH ?? "" },
    );
    const scores = JSON.parse(out.stdout) as Scores;
    expect(scores.refused).toBe(false);
    expect(scores.rollouts.map((r) => [r.id, r.score, r.status])).toEqual([
      ["g/0", 1, "pass"],
      ["g/1", 0, "fail"],
      ["g/2", 0, "timeout"],
      ["g/3", null, "no-tests"],
      ["g/4", 1, "pass"],
    ]);
    expect(scores.rollouts[1]!.output).toContain("add 2 3 gave -1");
    expect(scores.summary).toMatchObject({ passed: 2, failed: 1, timedOut: 1, noTests: 1 });
    // Rows without tests are reported by file and line, so the exit code says "with problems".
    expect(out.code).toBe(EXIT.issues);
    expect(out.stderr).toContain("code.jsonl:4: meta.tests: rollout g/3 has no tests");
    expect(existsSync(marker)).toBe(true);
  }, 30_000);

  it("does not pass the caller's variables unless named", async () => {
    const out = await run([...args("--sandbox", `sh '${sandbox}' {dir}`)], {
      ALLOWED: "yes",
      PATH: process.env.PATH ?? "",
    });
    const scores = JSON.parse(out.stdout) as Scores;
    expect(scores.rollouts[4]!.status).toBe("fail");
  }, 30_000);

  it("without --sandbox it refuses: nothing runs, every rollout scores 0, the message says so", async () => {
    for (const sandboxArgs of [[], ["--sandbox", "  "]]) {
      rmSync(marker, { force: true });
      const outPath = join(dir, "scores.json");
      const out = await run([...args(...sandboxArgs, "--out", outPath)]);
      expect(out.code).toBe(EXIT.failed);
      expect(out.stderr).toMatch(/no --sandbox given: refusing to execute model-generated code/);
      expect(out.stderr).toMatch(/Every rollout scores 0/);
      const scores = JSON.parse(readFileSync(outPath, "utf8")) as Scores;
      expect(scores.refused).toBe(true);
      expect(scores.rollouts.map((r) => [r.score, r.status])).toEqual(
        Array.from({ length: 5 }, () => [0, "refused"]),
      );
      expect(existsSync(marker)).toBe(false);
    }
  });

  it("a sandbox command that does not exist scores 0 with the reason", async () => {
    const out = await run([...args("--sandbox", "/nonexistent/sandbox")]);
    const scores = JSON.parse(out.stdout) as Scores;
    expect(scores.rollouts.filter((r) => r.status === "error")).toHaveLength(4);
    expect(scores.rollouts.every((r) => r.score === 0 || r.score === null)).toBe(true);
    expect(out.stderr).toMatch(/g\/0: the sandbox command could not run: .*ENOENT/);
  });

  it("rejects bad usage with a message", async () => {
    expect((await run(["verify", data, "--sandbox", "x"])).stderr).toMatch(/needs --tests-field/);
    expect((await run([...args("--sandbox", "x", "--timeout", "0")])).code).toBe(EXIT.usage);
    expect((await run([...args("--sandbox", "'x")])).stderr).toMatch(/unterminated '/);
    expect((await run([...args("--sandbox", "x", "--candidate", "../x")])).code).toBe(EXIT.usage);
  });
});

describe("commandSplit and codeLastBlock", () => {
  it("splits like a shell's simple command, without expansion", () => {
    expect(commandSplit(`docker run --rm -v "{dir}:/work" 'a b' c\\ d $HOME`)).toEqual([
      "docker",
      "run",
      "--rm",
      "-v",
      "{dir}:/work",
      "a b",
      "c d",
      "$HOME",
    ]);
    expect(commandSplit(`a "x\\"y" ''`)).toEqual(["a", 'x"y', ""]);
    expect(commandSplit("   ")).toEqual([]);
  });

  it("takes the last fenced block, or the whole text", () => {
    expect(codeLastBlock("a\n```python\nx = 1\n```\nthen\n```\ny = 2\n```")).toBe("y = 2\n");
    expect(codeLastBlock("plain")).toBe("plain");
  });
});

describe("analyze --verifiers", () => {
  const spec: VerifierSpec = {
    version: 1,
    text: "final-assistant",
    loggedReward: "keep",
    verifiers: [
      {
        kind: "format",
        name: "format",
        enabled: true,
        weight: 1,
        pattern: "^<reasoning>.*?</reasoning>\\s*<answer>.*?</answer>$",
        flags: "s",
      },
      {
        kind: "exact-match",
        name: "correct",
        enabled: true,
        weight: 2,
        field: "gold",
        pattern: null,
        flags: "",
        normalize: { trim: true, ignoreCase: false, collapseWhitespace: false, numeric: false },
      },
    ],
  };
  const rows = [
    {
      group_id: "a",
      completion: "<reasoning>r</reasoning><answer>4</answer>",
      reward: 0,
      meta: { gold: "4" },
    },
    {
      group_id: "a",
      completion: "<reasoning>r</reasoning><answer>5</answer>",
      reward: 0,
      meta: { gold: "4" },
    },
    { group_id: "a", completion: "4", reward: 1, meta: { gold: "4" } },
    { group_id: "b", completion: "<reasoning>r</reasoning><answer>x</answer>", reward: 1 },
    { group_id: "b", completion: "no", reward: 0 },
  ];

  it("adds the components to the totals and gives core's numbers", async () => {
    const text = jsonl(rows);
    const path = file("math.jsonl", text);
    const specPath = file("spec.json", verifierSpecToJson(spec));
    const out = await run(["analyze", path, "--verifiers", specPath, "--json", "--scale", "batch"]);
    expect(out.code).toBe(EXIT.ok);
    const json = JSON.parse(out.stdout) as {
      verifiers: { components: string[]; tally: { name: string; pass: number }[] };
      groups: {
        rollouts: {
          id: string;
          reward: number;
          advantage: number;
          verifiers: Record<string, { value: number | null }>;
        }[];
      }[];
    };
    expect(json.verifiers.components).toEqual(["format", "correct"]);
    expect(json.groups[0]!.rollouts.map((r) => r.reward)).toEqual([3, 1, 1]);
    expect(json.groups[1]!.rollouts.map((r) => r.reward)).toEqual([2, 0]);
    expect(json.groups[1]!.rollouts[0]!.verifiers.correct).toEqual({
      value: null,
      pass: null,
      note: 'no ground truth at "gold"',
    });
    const loaded = await loadText("math.jsonl", text);
    const applied = verifierApply(loaded.groups, spec);
    if (!applied.ok) throw new Error("spec rejected");
    const expected = analyzeDataset(applied.groups, {
      ...analyzeDataset([]).settings,
      scale: "batch",
    });
    expect(json.groups.flatMap((g) => g.rollouts.map((r) => r.advantage))).toEqual(
      expected.groups.flatMap((g) => g.rollouts.map((r) => r.advantage)),
    );
    const summary = await run(["analyze", path, "--verifiers", specPath]);
    expect(summary.stdout).toContain(
      `correct (component): 1 pass, 2 fail, 2 not applicable (e.g. no ground truth at "gold")`,
    );
  });

  it("refuses a spec that is invalid or does not fit the data, naming the field", async () => {
    const path = file("math2.jsonl", jsonl(rows.map((r) => ({ ...r, rewards: { format: 1 } }))));
    const specPath = file("spec2.json", verifierSpecToJson(spec));
    const clash = await run(["analyze", path, "--verifiers", specPath]);
    expect(clash.code).toBe(EXIT.failed);
    expect(clash.stderr).toContain(
      "spec2.json: verifiers[0].name: the file already has a reward component of that name",
    );
    const bad = file(
      "bad.json",
      JSON.stringify({ version: 1, verifiers: [{ kind: "format", name: "f" }] }),
    );
    const invalid = await run(["analyze", path, "--verifiers", bad]);
    expect(invalid.code).toBe(EXIT.failed);
    expect(invalid.stderr).toMatch(/bad\.json: verifiers\[0\]\.pattern: /);
  });
});
