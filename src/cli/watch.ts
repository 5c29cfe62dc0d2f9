/**
 * `rollout-studio analyze DIR --watch` (issue 14): follow a run's folder while the trainer writes
 * it, and print one line per step as it lands (groups, rollouts, pass rate, zero-std share, mixed
 * share), again whenever a step's numbers change, until the signal aborts.
 *
 * The folder is polled with fs.stat every `intervalMs` (500 ms): portable, and a run folder on a
 * network mount gives fs.watch no events. A JSONL file is read as it grows, from where the last
 * read stopped: only complete lines count, so a half-written last line is no issue; it is read once
 * its newline arrives (or, with no newline, once it has not changed for one poll and parses whole).
 * A file that shrinks, or whose first bytes change, is read again from the start, and a line says
 * so. Other containers (Parquet, a JSON document, CSV, .eval) are read whole once their size and
 * time have held still for one poll; one that does not load yet (a Parquet file half written) is
 * tried again when it changes. The numbers are those of core's `analyzeDataset` summary over each
 * step's groups (counted by `watchStepCounts`, without the clustering the line does not show), with
 * the step of io's run rule (the rows' step, else the file's).
 */
import { closeSync, openSync, readSync, statSync } from "node:fs";
import { join } from "node:path";
import {
  groupFlags,
  rolloutReward,
  type AnalysisSettings,
  type RolloutGroup,
} from "../core/index.ts";
import {
  datasetFromLoad,
  formatIssue,
  gatherRuns,
  LoadError,
  loadBytes,
  type RunFile,
} from "../io/index.ts";
import { listFolder } from "./runPaths.ts";

export interface WatchOptions {
  /** The folder, absolute. */
  readonly dir: string;
  readonly format: string | undefined;
  readonly settings: AnalysisSettings;
  readonly intervalMs: number;
  readonly signal: AbortSignal;
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
}

/** How far a file has been read. */
interface FileState {
  /** Bytes of complete records read so far (JSONL), or of the whole file (others). */
  data: Uint8Array;
  /** Bytes after the last newline, kept until their line is complete. */
  tail: Uint8Array;
  /** The tail as it was at the previous poll, to see it hold still. */
  tailBefore: number;
  size: number;
  mtimeMs: number;
  /** Size and time seen at the previous poll (whole-file containers wait for them to hold). */
  seen: { size: number; mtimeMs: number };
  /** The issues already printed. */
  issues: number;
  /** A load error already printed for this size and time. */
  failed: string;
  /** The line last printed per step. */
  lines: Map<number, string>;
}

const HEAD = 256;
const STREAMED = /\.(jsonl|ndjson)$/i;

const pct = (part: number, whole: number): string =>
  whole === 0 ? "-" : `${((100 * part) / whole).toFixed(1)}%`;

/**
 * The counts a step line shows, as `analyzeDataset(groups, settings).summary` gives them, without
 * the rest of the analysis: the line needs each group's rewards and flags only, and the diversity
 * clusters were most of the time from an appended line to its step line (bench/README.md, runs).
 */
export function watchStepCounts(
  groups: readonly RolloutGroup[],
  settings: AnalysisSettings,
): {
  groups: number;
  rollouts: number;
  passes: number;
  zeroStdGroups: number;
  mixedGroups: number;
} {
  let rollouts = 0;
  let passes = 0;
  let zeroStdGroups = 0;
  let mixedGroups = 0;
  for (const g of groups) {
    const rewards = g.rollouts.map((r) => rolloutReward(r, settings.rewardWeights));
    const flags = groupFlags(
      rewards,
      rewards.map((r) => r >= settings.passThreshold),
    );
    rollouts += g.rollouts.length;
    passes += flags.passes;
    if (flags.zeroStd) zeroStdGroups++;
    if (flags.mixed) mixedGroups++;
  }
  return { groups: groups.length, rollouts, passes, zeroStdGroups, mixedGroups };
}

/** The step line: what `--watch` prints. */
export function watchStepLine(
  step: number,
  file: string,
  groups: readonly RolloutGroup[],
  settings: AnalysisSettings,
): string {
  const s = watchStepCounts(groups, settings);
  return (
    `step ${step}: ${s.groups} groups, ${s.rollouts} rollouts, pass rate ${pct(s.passes, s.rollouts)}, ` +
    `zero-std ${pct(s.zeroStdGroups, s.groups)}, mixed ${pct(s.mixedGroups, s.groups)} (${file})`
  );
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  if (a.length === 0) return b;
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

function readRange(path: string, start: number, end: number): Uint8Array {
  const out = new Uint8Array(Math.max(0, end - start));
  const fd = openSync(path, "r");
  try {
    let at = 0;
    while (at < out.length) {
      const n = readSync(fd, out, at, out.length - at, start + at);
      if (n === 0) break;
      at += n;
    }
    return out.subarray(0, at);
  } finally {
    closeSync(fd);
  }
}

const sameBytes = (a: Uint8Array, b: Uint8Array): boolean =>
  a.length === b.length && a.every((x, i) => x === b[i]);

function parsesWhole(bytes: Uint8Array): boolean {
  try {
    JSON.parse(new TextDecoder().decode(bytes));
    return true;
  } catch {
    return false;
  }
}

function freshState(): FileState {
  return {
    data: new Uint8Array(0),
    tail: new Uint8Array(0),
    tailBefore: -1,
    size: 0,
    mtimeMs: 0,
    seen: { size: -1, mtimeMs: -1 },
    issues: 0,
    failed: "",
    lines: new Map(),
  };
}

/**
 * New complete bytes of a JSONL file since the last poll; null when there are none. Resets the
 * state (and says so) when the file shrank or was rewritten.
 */
function growJsonl(
  path: string,
  shown: string,
  st: FileState,
  size: number,
  out: (t: string) => void,
): boolean {
  const read = st.data.length + st.tail.length;
  if (size < read) {
    out(`${shown}: shrank from ${read} to ${size} bytes; read again\n`);
    Object.assign(st, freshState());
  } else if (read > 0) {
    const head = Math.min(HEAD, read);
    const before = concat(st.data, st.tail).subarray(0, head);
    if (!sameBytes(readRange(path, 0, head), before)) {
      out(`${shown}: rewritten; read again\n`);
      Object.assign(st, freshState());
    }
  }
  const from = st.data.length + st.tail.length;
  const added = size > from ? readRange(path, from, size) : new Uint8Array(0);
  const pending = concat(st.tail, added);
  const lastNewline = pending.lastIndexOf(0x0a);
  let complete = pending.subarray(0, lastNewline + 1);
  let tail = pending.subarray(lastNewline + 1);
  // A last line with no newline counts once it held still for a poll and is a whole JSON value.
  if (tail.length > 0 && added.length === 0 && st.tailBefore === tail.length && parsesWhole(tail)) {
    complete = pending;
    tail = new Uint8Array(0);
  }
  st.tailBefore = tail.length;
  st.tail = tail.slice();
  if (complete.length === 0) return false;
  st.data = concat(st.data, complete);
  return true;
}

/** Read a whole-file container once its size and time held still; true when it is (re)read. */
function settleWhole(
  path: string,
  shown: string,
  st: FileState,
  size: number,
  mtimeMs: number,
  out: (t: string) => void,
): boolean {
  const stable = st.seen.size === size && st.seen.mtimeMs === mtimeMs;
  st.seen = { size, mtimeMs };
  if (!stable || (st.size === size && st.mtimeMs === mtimeMs)) return false;
  if (st.data.length > 0) {
    out(`${shown}: ${size < st.size ? "shrank" : "rewritten"}; read again\n`);
    st.lines.clear();
    st.issues = 0;
  }
  st.size = size;
  st.mtimeMs = mtimeMs;
  st.data = readRange(path, 0, size);
  return true;
}

/** Load what a file holds so far and print each step whose line changed. */
async function report(file: RunFile, st: FileState, options: WatchOptions): Promise<void> {
  let dataset;
  try {
    dataset = datasetFromLoad(await loadBytes(file.path, st.data, { format: options.format }));
  } catch (e) {
    if (!(e instanceof LoadError)) throw e;
    const key = `${st.data.length}:${e.message}`;
    if (st.failed !== key) {
      st.failed = key;
      options.stderr(`rollout-studio: ${e.message} (tried again when it changes)\n`);
    }
    return;
  }
  st.failed = "";
  for (const issue of dataset.issues.slice(st.issues)) options.stderr(`${formatIssue(issue)}\n`);
  st.issues = dataset.issues.length;
  const bySteps = new Map<number, RolloutGroup[]>();
  dataset.groups.forEach((g, i) => {
    const step = dataset.summaries[i]?.step ?? file.step;
    const list = bySteps.get(step) ?? [];
    list.push(g);
    bySteps.set(step, list);
  });
  for (const step of [...bySteps.keys()].sort((a, b) => a - b)) {
    const line = watchStepLine(step, file.path, bySteps.get(step)!, options.settings);
    if (st.lines.get(step) === line) continue;
    st.lines.set(step, line);
    options.stdout(`${line}\n`);
  }
}

/** Wait `ms`, or less when the signal aborts; the abort listener goes with the wait. */
export const sleep = (ms: number, signal: AbortSignal): Promise<void> =>
  new Promise((done) => {
    const onAbort = (): void => {
      clearTimeout(timer);
      done();
    };
    // Removed when the timer fires: a listener left per poll piled up on the signal (Node warned
    // at 11, MaxListenersExceededWarning, and each one held its closure until the watch ended).
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      done();
    }, ms);
    signal.addEventListener("abort", onAbort, { once: true });
  });

/** Follow the folder until the signal aborts. */
export async function watchRun(options: WatchOptions): Promise<void> {
  const states = new Map<string, FileState>();
  while (!options.signal.aborted) {
    const runs = gatherRuns(listFolder(options.dir));
    for (const file of runs.flatMap((r) => r.files)) {
      if (options.signal.aborted) break;
      const path = join(options.dir, file.path);
      let st = states.get(file.path);
      if (st === undefined) {
        st = freshState();
        states.set(file.path, st);
      }
      let stat;
      try {
        stat = statSync(path);
      } catch {
        continue; // removed between the listing and now: the next poll drops it
      }
      const changed = STREAMED.test(file.path)
        ? growJsonl(path, file.path, st, stat.size, options.stdout)
        : settleWhole(path, file.path, st, stat.size, stat.mtimeMs, options.stdout);
      if (changed) await report(file, st, options);
    }
    for (const path of states.keys())
      if (!runs.some((r) => r.files.some((f) => f.path === path))) states.delete(path);
    await sleep(options.intervalMs, options.signal);
  }
}
