/**
 * `rollout-studio verify FILE --tests-field F --sandbox "<command prefix>" --timeout S`: the unit-test
 * reward (the GRPO library's `test_execution_reward`), run from the CLI only. The studio never
 * executes rollout code.
 *
 * The library's rules, each enforced here:
 * - Model-generated code runs only inside the isolation boundary the user names (`--sandbox`, a
 *   command prefix such as a network-less container). Without one nothing runs: every rollout
 *   scores 0 and the message says why. There is no fallback to the host.
 * - The environment is scrubbed: the sandbox command gets `PATH=/usr/bin:/bin` and only the
 *   variables named with `--sandbox-env`, never the caller's tokens or keys.
 * - Each rollout runs in its own temporary directory, in a process group of its own, with a
 *   wall-clock timeout: past it the whole group is killed and the rollout scores 0, so an infinite
 *   loop never hangs the run. The timeout is a liveness guard, not a security boundary; the temporary
 *   directory confines where the harness writes, not what the code can read.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import {
  COMPLETION_RULES,
  rolloutText,
  type CompletionRule,
  type Rollout,
  verifierFieldAt,
} from "../../core/index.ts";
import { FORMATS, formatById, formatIssue, type ParseIssue } from "../../io/index.ts";
import { commandArgs } from "../args.ts";
import { EXIT, type CliIo } from "../io.ts";
import { indexThreshold, loadRunForCli } from "../loadForCli.ts";
import { UsageError } from "../settings.ts";

/** The PATH the sandbox command sees (the library's scrubbed environment). */
export const SANDBOX_PATH = "/usr/bin:/bin";
const DEFAULT_RUN = "python -m pytest -q test_candidate.py";
const DEFAULT_TIMEOUT_S = 10;
/** How much of a run's output is kept for the report (the end, where test runners summarise). */
const OUTPUT_TAIL = 2000;
/** After a kill, how long to wait for the exit before giving up on the process (it is reported). */
const KILL_GRACE_MS = 2000;

export const VERIFY_USAGE = `Usage: rollout-studio verify PATH... --tests-field F --sandbox "PREFIX" [options]

Run each rollout's code against its own tests inside YOUR sandbox, and score it 1 (the tests pass)
or 0 (they fail, time out, or the code cannot run): the unit-test reward of the GRPO reward-function
library. The studio never runs rollout code; this command runs it only through --sandbox.
PATH is a file, several files, a folder or globs: one run (see analyze --help).

Options:
  --tests-field F        metadata path of each rollout's test code (e.g. test_code, tests.pytest)
  --sandbox "PREFIX"     the command prefix that runs a command inside your isolation boundary, e.g.
                         "docker run --rm --network=none --memory=1g -v {dir}:/work -w /work python:3.12-slim";
                         {dir} is replaced with the rollout's temporary directory (the working
                         directory). REQUIRED: without it nothing runs and every rollout scores 0.
  --timeout S            wall-clock seconds per rollout (default ${DEFAULT_TIMEOUT_S}); past it the whole process
                         group is killed and the rollout scores 0
  --run "CMD"            what runs inside the sandbox (default: ${DEFAULT_RUN})
  --candidate NAME       the file the rollout's code is written to (default candidate.py)
  --tests-file NAME      the file its tests are written to (default test_candidate.py)
  --code whole|last-block
                         the code is the whole text (default, as the library) or its last \`\`\` block
  --text final-assistant|benchmax|all-assistant
                         which text of a chat transcript is the code (default final-assistant)
  --sandbox-env NAME     pass this variable through to the sandbox command (repeatable); otherwise
                         it sees only PATH=${SANDBOX_PATH}
  --format auto|FORMAT   read FILE as FORMAT (${FORMATS.map((f) => f.id).join(", ")})
  --out F                write the scores as JSON to F
  --json                 write the scores as JSON to stdout
  -h, --help             show this help

Exit codes: 0 every rollout ran; 1 refused (no sandbox) or nothing loaded; 2 usage error;
3 ran, but some rollouts had no tests (scored null) or input was rejected.
`;

/**
 * A command line split into words the way a POSIX shell splits a simple command: whitespace
 * separates, single quotes keep everything, double quotes keep all but `\"` and `\\`, a backslash
 * outside quotes escapes the next character. No expansion of any kind.
 *
 * @throws UsageError for an unterminated quote
 */
export function commandSplit(line: string): string[] {
  const words: string[] = [];
  let word = "";
  let inWord = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (c === "'") {
      const end = line.indexOf("'", i + 1);
      if (end === -1) throw new UsageError(`unterminated ' in ${JSON.stringify(line)}`);
      word += line.slice(i + 1, end);
      inWord = true;
      i = end;
    } else if (c === '"') {
      let j = i + 1;
      for (; j < line.length && line[j] !== '"'; j++) {
        if (line[j] === "\\" && (line[j + 1] === '"' || line[j + 1] === "\\")) j++;
        word += line[j];
      }
      if (j >= line.length) throw new UsageError(`unterminated " in ${JSON.stringify(line)}`);
      inWord = true;
      i = j;
    } else if (c === "\\" && i + 1 < line.length) {
      word += line[++i];
      inWord = true;
    } else if (/\s/.test(c)) {
      if (inWord) words.push(word);
      word = "";
      inWord = false;
    } else {
      word += c;
      inWord = true;
    }
  }
  if (inWord) words.push(word);
  return words;
}

/** The last fenced code block of a text (``` or ```lang), or the text itself when it has none. */
export function codeLastBlock(text: string): string {
  const blocks = [...text.matchAll(/```[^\n`]*\n([\s\S]*?)```/g)];
  return blocks.length === 0 ? text : (blocks[blocks.length - 1]![1] ?? "");
}

export type RunStatus = "pass" | "fail" | "timeout" | "error";

export interface SandboxResult {
  readonly status: RunStatus;
  readonly exitCode: number | null;
  readonly signal: string | null;
  /** The end of stdout and stderr together, or the spawn error. */
  readonly output: string;
}

/**
 * Run argv in `cwd` with exactly `env`, in a new process group; kill the group after `timeoutMs`.
 * Resolves on the process's exit (not on its pipes closing, which a stray grandchild could hold
 * open), and at the latest KILL_GRACE_MS after the kill: it never hangs.
 */
export function runSandboxed(
  argv: readonly string[],
  cwd: string,
  env: Readonly<Record<string, string>>,
  timeoutMs: number,
): Promise<SandboxResult> {
  return new Promise((resolvePromise) => {
    let output = "";
    let timedOut = false;
    let settled = false;
    const keep = (chunk: Buffer): void => {
      output = (output + chunk.toString("utf8")).slice(-OUTPUT_TAIL);
    };
    const child = spawn(argv[0]!, argv.slice(1), {
      cwd,
      env: { ...env },
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
    });
    const killGroup = (): void => {
      if (child.pid === undefined) return;
      try {
        process.kill(-child.pid, "SIGKILL");
      } catch {
        // Already gone.
      }
    };
    let grace: ReturnType<typeof setTimeout> | undefined;
    const finish = (result: SandboxResult): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearTimeout(grace);
      // Whatever the code left running in its group goes too.
      killGroup();
      child.stdout.destroy();
      child.stderr.destroy();
      resolvePromise(result);
    };
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup();
      grace = setTimeout(
        () =>
          finish({
            status: "timeout",
            exitCode: null,
            signal: null,
            output: `${output}\n[rollout-studio: the process did not exit ${KILL_GRACE_MS} ms after SIGKILL]`,
          }),
        KILL_GRACE_MS,
      );
    }, timeoutMs);
    child.stdout.on("data", keep);
    child.stderr.on("data", keep);
    child.on("error", (e) =>
      finish({ status: "error", exitCode: null, signal: null, output: e.message }),
    );
    child.on("exit", (code, signal) =>
      finish({
        status: timedOut ? "timeout" : code === 0 ? "pass" : "fail",
        exitCode: code,
        signal,
        output,
      }),
    );
  });
}

/** One rollout's unit-test score. */
export interface VerifyRow {
  readonly id: string;
  readonly groupId: string;
  /** 1 the tests passed, 0 they did not (or the run was refused); null: the rollout has no tests. */
  readonly score: 1 | 0 | null;
  readonly status: RunStatus | "no-tests" | "refused";
  readonly exitCode: number | null;
  readonly output: string;
}

export interface VerifyOptions {
  readonly testsField: string;
  /** The sandbox prefix as words; empty means refuse. */
  readonly sandbox: readonly string[];
  readonly run: readonly string[];
  readonly timeoutMs: number;
  readonly candidate: string;
  readonly testsFile: string;
  readonly code: "whole" | "last-block";
  readonly text: CompletionRule;
  readonly env: Readonly<Record<string, string>>;
}

/** The tests of a rollout: text at the field, or null when it has none. */
function testsOf(rollout: Rollout, field: string): string | null {
  const value = verifierFieldAt(rollout.meta, field);
  return typeof value === "string" && value.trim() !== "" ? value : null;
}

/** Score every rollout; refuses (0 for all, nothing run) when the sandbox is empty. */
export async function verifyRollouts(
  rollouts: readonly Rollout[],
  options: VerifyOptions,
): Promise<VerifyRow[]> {
  const rows: VerifyRow[] = [];
  for (const r of rollouts) {
    const base = { id: r.id, groupId: r.groupId, exitCode: null, output: "" };
    if (options.sandbox.length === 0) {
      rows.push({ ...base, score: 0, status: "refused" });
      continue;
    }
    const tests = testsOf(r, options.testsField);
    if (tests === null) {
      rows.push({ ...base, score: null, status: "no-tests" });
      continue;
    }
    const text = rolloutText(r, options.text);
    const code = options.code === "last-block" ? codeLastBlock(text) : text;
    const dir = mkdtempSync(join(tmpdir(), "rollout-studio-verify-"));
    try {
      writeFileSync(join(dir, options.candidate), code);
      writeFileSync(join(dir, options.testsFile), tests);
      const argv = [...options.sandbox.map((w) => w.replaceAll("{dir}", dir)), ...options.run];
      const result = await runSandboxed(argv, dir, options.env, options.timeoutMs);
      rows.push({
        ...base,
        score: result.status === "pass" ? 1 : 0,
        status: result.status,
        exitCode: result.exitCode,
        output: result.output,
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  return rows;
}

const REFUSAL =
  "rollout-studio verify: no --sandbox given: refusing to execute model-generated code on this " +
  "host. Every rollout scores 0. Give --sandbox with the command prefix of an isolated environment " +
  "(a network-disabled container, gVisor, firejail, a CI sandbox) that holds no secrets.\n";

function fileName(flag: string, value: string | undefined, fallback: string): string {
  const name = value ?? fallback;
  if (name === "" || name.includes("/") || name === "." || name === "..")
    throw new UsageError(`--${flag} must be a plain file name; got ${JSON.stringify(name)}`);
  return name;
}

/** Run `verify` with the arguments after the command name. */
export async function verifyCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const args = commandArgs(
    "verify",
    argv,
    {
      "tests-field": { type: "string" },
      sandbox: { type: "string" },
      timeout: { type: "string" },
      run: { type: "string" },
      candidate: { type: "string" },
      "tests-file": { type: "string" },
      code: { type: "string" },
      text: { type: "string" },
      "sandbox-env": { type: "string", multiple: true },
      format: { type: "string" },
      out: { type: "string" },
      json: { type: "boolean" },
    },
    VERIFY_USAGE,
    io,
  );
  if (args === null) return EXIT.ok;
  const { values, file, paths } = args;
  const testsField = values["tests-field"]?.trim() ?? "";
  if (testsField === "")
    throw new UsageError(
      "verify needs --tests-field F: the metadata field with each rollout's tests",
    );
  const timeoutS = values.timeout === undefined ? DEFAULT_TIMEOUT_S : Number(values.timeout);
  if (!Number.isFinite(timeoutS) || timeoutS <= 0)
    throw new UsageError(`--timeout must be a number of seconds > 0; got ${values.timeout}`);
  const code = values.code ?? "whole";
  if (code !== "whole" && code !== "last-block")
    throw new UsageError(`--code must be whole or last-block; got ${code}`);
  const text = values.text ?? "final-assistant";
  if (!(COMPLETION_RULES as readonly string[]).includes(text))
    throw new UsageError(`--text must be one of ${COMPLETION_RULES.join(", ")}; got ${text}`);
  const run = commandSplit(values.run ?? DEFAULT_RUN);
  if (run.length === 0) throw new UsageError("--run needs a command");
  const format =
    values.format === undefined || values.format === "auto" ? undefined : values.format;
  if (format !== undefined && formatById(format) === undefined)
    throw new UsageError(
      `--format must be auto or one of ${FORMATS.map((f) => f.id).join(", ")}; got ${format}`,
    );
  const source = io.env ?? process.env;
  const env: Record<string, string> = { PATH: SANDBOX_PATH };
  for (const name of values["sandbox-env"] ?? []) {
    const value = source[name];
    if (value !== undefined) env[name] = value;
  }
  const sandbox = commandSplit(values.sandbox ?? "");

  const loaded = await loadRunForCli(io.cwd, paths, format, undefined, indexThreshold(source));
  const rollouts = loaded.groups.flatMap((g) => g.rollouts);
  if (sandbox.length === 0) io.stderr(REFUSAL);
  const rows = await verifyRollouts(rollouts, {
    testsField,
    sandbox,
    run,
    timeoutMs: timeoutS * 1000,
    candidate: fileName("candidate", values.candidate, "candidate.py"),
    testsFile: fileName("tests-file", values["tests-file"], "test_candidate.py"),
    code,
    text: text as CompletionRule,
    env,
  });

  const document = {
    version: 1,
    component: "unit_tests",
    file,
    refused: sandbox.length === 0,
    sandbox: values.sandbox ?? null,
    run: values.run ?? DEFAULT_RUN,
    timeoutSeconds: timeoutS,
    summary: {
      rollouts: rows.length,
      passed: rows.filter((r) => r.status === "pass").length,
      failed: rows.filter((r) => r.status === "fail").length,
      timedOut: rows.filter((r) => r.status === "timeout").length,
      errors: rows.filter((r) => r.status === "error").length,
      noTests: rows.filter((r) => r.status === "no-tests").length,
      refused: rows.filter((r) => r.status === "refused").length,
    },
    rollouts: rows,
  };
  const json = `${JSON.stringify(document, null, 2)}\n`;
  if (values.out !== undefined) writeFileSync(resolve(io.cwd, values.out), json);
  if (values.json) io.stdout(json);
  else {
    const s = document.summary;
    io.stdout(
      `${file}: ${s.rollouts} rollouts; ${s.passed} pass, ${s.failed} fail, ${s.timedOut} timed out (${timeoutS} s), ` +
        `${s.errors} could not run, ${s.noTests} without tests, ${s.refused} refused\n`,
    );
    for (const r of rows) io.stdout(`${r.id}\t${r.score ?? "-"}\t${r.status}\n`);
  }
  const issues: ParseIssue[] = [
    ...loaded.issues,
    ...rollouts
      .filter((_, i) => rows[i]!.status === "no-tests")
      .map((r) => ({
        file: r.source.file,
        line: r.source.line,
        field: `meta.${testsField}`,
        message: `rollout ${r.id} has no tests; scored null (not applicable)`,
      })),
  ];
  for (const issue of issues) io.stderr(`${formatIssue(issue)}\n`);
  for (const r of rows)
    if (r.status === "error")
      io.stderr(`${r.id}: the sandbox command could not run: ${r.output}\n`);
  if (sandbox.length === 0) return EXIT.failed;
  return issues.length > 0 ? EXIT.issues : EXIT.ok;
}
