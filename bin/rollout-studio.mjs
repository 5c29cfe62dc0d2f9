#!/usr/bin/env node
// The `rollout-studio` command. It runs the CLI built to plain JavaScript in dist-cli/ by
// `npm run build:cli` (vite.cli.config.ts; `npm run build`, `npm start` and the test setup build it
// too). Nothing is compiled at run time: a missing build is an error that says how to make it.
// ROLLOUT_STUDIO_FROM_SOURCE=1 runs the TypeScript in src/cli through tsx instead (for working on
// the CLI; it takes seconds to start).
import { spawn } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { totalmem } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { getHeapStatistics } from "node:v8";

/**
 * Commands that hold a whole run's groups or analyses in one process (health streams a run, but
 * loads a trajectory run or a single file that is not indexed whole). From 256 MB of input
 * (ROLLOUT_STUDIO_LARGE_INPUT=BYTES) they run in a child Node whose heap may use three quarters of the machine's memory:
 * Node's default limit (about 4 GB) stopped `analyze` of a 1 GB file of 2 million groups with a
 * crash. ROLLOUT_STUDIO_HEAP_SET is set in the child (and by a user who chose the limit).
 */
const HEAVY = new Set(["analyze", "export", "health", "judge", "verify"]);
const largeInput = Number(process.env.ROLLOUT_STUDIO_LARGE_INPUT || 256 * 1024 * 1024);

/** Bytes of the files the arguments name (a folder: its files), flags and globs not counted. */
function inputBytes(args) {
  let total = 0;
  for (const arg of args) {
    if (arg.startsWith("-")) continue;
    try {
      const stat = statSync(arg);
      if (stat.isFile()) total += stat.size;
      else if (stat.isDirectory())
        for (const entry of readdirSync(arg, { withFileTypes: true }))
          if (entry.isFile()) total += statSync(join(arg, entry.name)).size;
    } catch {
      // Not a path (a flag's value, a glob): the command says what is wrong with it.
    }
  }
  return total;
}

/** The heap limit (MB) to rerun with, or null to run here. */
function largerHeap(args) {
  if (!HEAVY.has(args[0]) || process.env.ROLLOUT_STUDIO_HEAP_SET) return null;
  const chosen = [...process.execArgv, process.env.NODE_OPTIONS ?? ""].join(" ");
  if (chosen.includes("max-old-space-size")) return null;
  const target = Math.floor((totalmem() / 1048576) * 0.75);
  const now = getHeapStatistics().heap_size_limit / 1048576;
  if (target < now * 1.25 || inputBytes(args.slice(1)) < largeInput) return null;
  return target;
}

const heap = largerHeap(process.argv.slice(2));
if (heap !== null) {
  const child = spawn(
    process.execPath,
    [
      ...process.execArgv,
      `--max-old-space-size=${heap}`,
      fileURLToPath(import.meta.url),
      ...process.argv.slice(2),
    ],
    { stdio: "inherit", env: { ...process.env, ROLLOUT_STUDIO_HEAP_SET: "1" } },
  );
  // Ctrl+C reaches the child from the terminal; a signal sent to this process is passed on.
  for (const signal of ["SIGINT", "SIGTERM"])
    process.on(signal, () => {
      if (child.exitCode === null) child.kill(signal);
    });
  child.on("exit", (code, signal) => process.exit(code ?? (signal === null ? 1 : 128 + 15)));
  await new Promise(() => undefined);
}

const built = new URL("../dist-cli/rollout-studio.mjs", import.meta.url);
const io = {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  cwd: process.cwd(),
};

let main;
if (process.env.ROLLOUT_STUDIO_FROM_SOURCE === "1") {
  const { tsImport } = await import("tsx/esm/api");
  ({ main } = await tsImport("../src/cli/main.ts", import.meta.url));
} else if (existsSync(built)) {
  ({ main } = await import(built.href));
} else {
  process.stderr.write(
    "rollout-studio: the CLI is not built (dist-cli/rollout-studio.mjs is missing).\n" +
      "Build it with `npm run build:cli` in the rollout-studio folder, or run the TypeScript\n" +
      "directly with ROLLOUT_STUDIO_FROM_SOURCE=1 (slower to start).\n",
  );
  process.exit(1);
}
process.exitCode = await main(process.argv.slice(2), io);
