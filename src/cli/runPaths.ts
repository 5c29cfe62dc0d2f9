/**
 * The CLI's PATH arguments as a run (issue 14): a file, several files, a folder, or globs. Globs
 * are expanded here with node:fs (Node 20 has no fs.glob without a flag), by io's one glob matcher
 * (src/io/runs/glob.ts, shared with `view`): `*` and `?` match within one path segment, `**` any
 * number of segments, `[abc]` / `[!abc]` a class. A folder is listed recursively
 * (hidden, VCS and state folders skipped) and gathered by `gatherRuns`; it must hold one run.
 */
import { readdirSync, statSync, type Stats } from "node:fs";
import { isAbsolute, join, relative, resolve, sep } from "node:path";
import {
  gatherRuns,
  globSegmentMatcher,
  isGlob,
  isRunDataPath,
  runOfFiles,
  type Run,
  type RunListingEntry,
} from "../io/index.ts";
import { UsageError } from "./settings.ts";

/** A run the CLI reads: its name, the absolute path of each file, and the run (paths as shown). */
export interface CliRun {
  readonly name: string;
  readonly run: Run;
  /** The absolute path of each run file, by its run path. */
  readonly absolute: ReadonlyMap<string, string>;
  /** True for one FILE argument that is a file: the CLI reads it exactly as before runs. */
  readonly single: boolean;
}

const toPosix = (p: string): string => p.split(sep).join("/");

function statOrNull(path: string): Stats | null {
  try {
    return statSync(path);
  } catch {
    return null;
  }
}

/** Every file under a folder, as `/`-separated paths relative to it, skipping what runs skip. */
export function listFolder(root: string): RunListingEntry[] {
  const out: RunListingEntry[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
      const rel = dir === "" ? entry.name : `${dir}/${entry.name}`;
      if (entry.isDirectory()) {
        if (isRunDataPath(`${rel}/x.jsonl`)) walk(rel);
      } else if (entry.isFile() && isRunDataPath(rel)) {
        const st = statSync(join(root, rel));
        out.push({ path: rel, size: st.size, mtimeMs: st.mtimeMs });
      }
    }
  };
  walk("");
  return out;
}

/**
 * The files a glob matches, as absolute paths in name order. The pattern is relative to `cwd`
 * unless absolute; hidden names match only a segment that starts with a dot.
 */
export function expandGlob(cwd: string, pattern: string): string[] {
  const abs = isAbsolute(pattern);
  const segments = toPosix(pattern).split("/");
  const base = abs ? "/" : cwd;
  const start = abs ? segments.slice(1) : segments;
  const found: string[] = [];
  const visit = (dir: string, rest: readonly string[]): void => {
    const [head, ...tail] = rest;
    if (head === undefined) {
      if (statOrNull(dir)?.isFile() === true) found.push(dir);
      return;
    }
    if (head === "" || head === ".") return visit(dir, tail);
    if (!isGlob(head)) return visit(join(dir, head), tail);
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    if (head === "**") {
      visit(dir, tail);
      for (const e of entries)
        if (e.isDirectory() && !e.name.startsWith(".")) visit(join(dir, e.name), rest);
      return;
    }
    const matches = globSegmentMatcher(head);
    for (const e of entries) {
      if (e.name.startsWith(".") && !head.startsWith(".")) continue;
      if (matches(e.name)) visit(join(dir, e.name), tail);
    }
  };
  visit(base, start);
  return [...new Set(found)].sort();
}

function folderRun(cwd: string, arg: string): CliRun {
  const root = resolve(cwd, arg);
  const runs = gatherRuns(listFolder(root));
  if (runs.length === 0)
    throw new UsageError(
      `${arg}: the folder holds no data file (.jsonl, .json, .parquet, .csv, .eval)`,
    );
  if (runs.length > 1) {
    const names = runs.map((r) => (r.dir === "" ? "." : r.dir)).join(", ");
    throw new UsageError(
      `${arg}: the folder holds ${runs.length} runs (${names}); give one of them`,
    );
  }
  const run = runs[0]!;
  const shown = (p: string): string => toPosix(join(arg, p));
  const files = run.files.map((f) => ({ ...f, path: shown(f.path) }));
  const absolute = new Map(run.files.map((f) => [shown(f.path), join(root, f.path)]));
  return { name: arg, run: { ...run, files }, absolute, single: false };
}

/**
 * The run the PATH arguments name.
 *
 * @throws UsageError for no path, a glob that matches nothing, or a folder with no run or several
 */
export function cliRunOf(cwd: string, args: readonly string[]): CliRun {
  if (args.length === 0) throw new UsageError("give a FILE, several files, a folder or a glob");
  if (args.length === 1 && !isGlob(args[0]!)) {
    const arg = args[0]!;
    const st = statOrNull(resolve(cwd, arg));
    if (st?.isDirectory() === true) return folderRun(cwd, arg);
    // A single file (or a missing one: its load names the problem) reads exactly as before.
    const entry = { path: arg, size: st?.size ?? 0, mtimeMs: st?.mtimeMs ?? 0 };
    return {
      name: arg,
      run: runOfFiles([entry]),
      absolute: new Map([[arg, resolve(cwd, arg)]]),
      single: true,
    };
  }
  const entries: RunListingEntry[] = [];
  const absolute = new Map<string, string>();
  for (const arg of args) {
    const paths = isGlob(arg) ? expandGlob(cwd, arg) : [resolve(cwd, arg)];
    if (paths.length === 0) throw new UsageError(`${arg}: the pattern matches no file`);
    for (const path of paths) {
      const st = statOrNull(path);
      if (st?.isDirectory() === true)
        throw new UsageError(`${arg}: a folder is a run by itself; give it alone`);
      const shown = isGlob(arg) ? toPosix(isAbsolute(arg) ? path : relative(cwd, path)) : arg;
      if (absolute.has(shown)) continue;
      absolute.set(shown, path);
      entries.push({ path: shown, size: st?.size ?? 0, mtimeMs: st?.mtimeMs ?? 0 });
    }
  }
  const name = args.join(" ");
  const run = runOfFiles(entries);
  return { name, run, absolute, single: false };
}
