/**
 * Covers: `rollout-studio analyze DIR --watch` as a child process (the built CLI, which the test
 * setup builds): a step file written into the folder gets its line; a line appended in two halves
 * is read once, whole, with no issue; a file that shrinks is read again and a line says so;
 * SIGTERM ends it with exit 0. Also the refusals of --watch without one folder; the step line's
 * counts equal analyzeDataset's summary (property); the poll's wait leaves no abort listener.
 */
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { getEventListeners } from "node:events";
import { appendFileSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fc, test as propTest } from "@fast-check/vitest";
import { afterEach, describe, expect, it } from "vitest";
import { ANALYSIS_DEFAULTS, analyzeDataset, type RolloutGroup } from "../core/index.ts";
import { main } from "./main.ts";
import { sleep, watchStepCounts } from "./watch.ts";
import { verlLine } from "../test/runFixtures.ts";

const BIN = join(import.meta.dirname, "../../bin/rollout-studio.mjs");

interface Watched {
  readonly child: ChildProcessWithoutNullStreams;
  stdout: string;
  stderr: string;
  readonly exit: Promise<number | null>;
}

let running: Watched | null = null;

afterEach(() => {
  if (running !== null && running.child.exitCode === null) running.child.kill("SIGKILL");
  running = null;
});

function watch(dir: string): Watched {
  const child = spawn(process.execPath, [BIN, "analyze", dir, "--watch"], {
    env: { ...process.env },
  });
  const w: Watched = {
    child,
    stdout: "",
    stderr: "",
    exit: new Promise((done) => child.on("exit", (code) => done(code))),
  };
  child.stdout.on("data", (d: Buffer) => (w.stdout += d.toString()));
  child.stderr.on("data", (d: Buffer) => (w.stderr += d.toString()));
  running = w;
  return w;
}

async function until(what: string, ok: () => boolean, ms = 8000): Promise<void> {
  const start = Date.now();
  while (!ok()) {
    if (Date.now() - start > ms) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const lines = (w: Watched, prefix: string): string[] =>
  w.stdout.split("\n").filter((l) => l.startsWith(prefix));

describe("analyze DIR --watch", () => {
  it("prints a line per step as it lands, reads a line written in two halves once, stops on SIGTERM", async () => {
    const dir = mkdtempSync(join(tmpdir(), "rs-watch-"));
    const w = watch(dir);
    await until("the start line", () => w.stdout.includes("watching"));

    const first = [0, 1, 0, 1].map((s, i) => verlLine(1, "Solve 2+2.", s, i));
    writeFileSync(join(dir, "1.jsonl"), `${first.join("\n")}\n`);
    await until("step 1", () => lines(w, "step 1:").length === 1);
    expect(lines(w, "step 1:")[0]).toBe(
      "step 1: 1 groups, 4 rollouts, pass rate 50.0%, zero-std 0.0%, mixed 100.0% (1.jsonl)",
    );

    writeFileSync(
      join(dir, "2.jsonl"),
      `${[1, 1].map((s, i) => verlLine(2, "What is 3*5?", s, i)).join("\n")}\n`,
    );
    await until("step 2", () => lines(w, "step 2:").length === 1);
    expect(lines(w, "step 2:")[0]).toContain(
      "1 groups, 2 rollouts, pass rate 100.0%, zero-std 100.0%",
    );

    // A line in two halves: nothing is read (and no issue) until it is whole.
    const line = verlLine(2, "What is 3*5?", 0, 2);
    appendFileSync(join(dir, "2.jsonl"), line.slice(0, 40));
    await new Promise((r) => setTimeout(r, 1500));
    expect(lines(w, "step 2:")).toHaveLength(1);
    appendFileSync(join(dir, "2.jsonl"), `${line.slice(40)}\n`);
    await until("step 2 again", () => lines(w, "step 2:").length === 2);
    expect(lines(w, "step 2:")[1]).toBe(
      "step 2: 1 groups, 3 rollouts, pass rate 66.7%, zero-std 0.0%, mixed 100.0% (2.jsonl)",
    );

    // A file that shrinks is read again, and a line says so.
    writeFileSync(join(dir, "1.jsonl"), `${first[1]}\n`);
    await until("the shrink line", () => w.stdout.includes("1.jsonl: shrank from"));
    await until("step 1 again", () => lines(w, "step 1:").length === 2);
    expect(lines(w, "step 1:")[1]).toContain("1 groups, 1 rollouts, pass rate 100.0%");

    expect(w.stderr).toBe("");
    w.child.kill("SIGTERM");
    expect(await w.exit).toBe(0);
  }, 30000);

  it("refuses --watch without one folder", async () => {
    let stderr = "";
    const io = { stdout: () => undefined, stderr: (t: string) => (stderr += t), cwd: tmpdir() };
    expect(await main(["analyze", "a.jsonl", "b.jsonl", "--watch"], io)).toBe(2);
    expect(stderr).toContain("--watch follows one folder");
    const dir = mkdtempSync(join(tmpdir(), "rs-watch-"));
    expect(await main(["analyze", dir, "--watch", "--json"], io)).toBe(2);
    expect(stderr).toContain("it takes no --json");
  });
});

describe("watchStepCounts", () => {
  const settings = ANALYSIS_DEFAULTS;
  const groupOf = (id: string, rewards: readonly (number | null)[]): RolloutGroup => ({
    id,
    rollouts: rewards.map((reward, index) => ({
      id: `${id}/${index}`,
      groupId: id,
      index,
      prompt: null,
      messages: [],
      completion: `c${index}`,
      reward,
      rewards: {},
      answer: null,
      testsPassed: null,
      meta: {},
      source: { file: "f", line: index + 1 },
    })),
  });
  const reward = fc.oneof(
    fc.constantFrom(0, 1, 0.5, null),
    fc.double({ min: -2, max: 2, noNaN: true }),
  );

  propTest.prop([fc.array(fc.array(reward, { minLength: 1, maxLength: 8 }), { maxLength: 12 })])(
    "gives analyzeDataset's summary counts",
    (rewardLists) => {
      const groups = rewardLists.map((rs, i) => groupOf(`g${i}`, rs));
      const summary = analyzeDataset(groups, settings).summary;
      expect(watchStepCounts(groups, settings)).toEqual({
        groups: summary.groups,
        rollouts: summary.rollouts,
        passes: summary.passes,
        zeroStdGroups: summary.zeroStdGroups,
        mixedGroups: summary.mixedGroups,
      });
    },
  );
});

describe("sleep", () => {
  it("leaves no abort listener behind once it has waited", async () => {
    const controller = new AbortController();
    for (let i = 0; i < 3; i++) await sleep(1, controller.signal);
    expect(getEventListeners(controller.signal, "abort")).toHaveLength(0);
    const pending = sleep(60_000, controller.signal);
    expect(getEventListeners(controller.signal, "abort")).toHaveLength(1);
    controller.abort();
    await pending;
  });
});
