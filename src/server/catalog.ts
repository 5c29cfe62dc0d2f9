/**
 * What `rollout-studio view PATH...` serves: the files under the paths given, gathered into runs
 * (io/runs/runFiles.ts), each with an id the API names it by. The client only ever sends an id,
 * looked up here; no path from a request is ever joined to a folder.
 *
 * A PATH is a folder (listed recursively; what `isRunDataPath` skips is skipped), a file, or a
 * glob (its leading folders are listed and the rest matched, on every scan). Symbolic links: a
 * link to a file whose real path stays inside the folder (or glob base) given is listed; a link
 * that leads outside it is not listed, and links to folders are not followed (no cycles, no
 * escape). Serving checks again (`catalogOpen`): the real path of a listed file must still lie
 * inside its folder, or be the very file given, so a file swapped for a link after the scan is
 * refused.
 */
import { createHash } from "node:crypto";
import type { Dirent } from "node:fs";
import { open, readdir, realpath, stat, type FileHandle } from "node:fs/promises";
import { isAbsolute, relative, resolve, sep } from "node:path";
import {
  gatherRuns,
  globMatcher,
  globSplit,
  isGlob,
  isRunDataPath,
  runOfFiles,
  type Run,
  type RunListingEntry,
} from "../io/index.ts";

export type RootKind = "folder" | "file" | "glob";

/** One PATH argument, resolved. */
export interface CatalogRoot {
  /** As given on the command line. */
  readonly arg: string;
  readonly kind: RootKind;
  /** The folder listed (folder, glob base) or the file, absolute. */
  readonly abs: string;
  /** Its real path (symbolic links resolved): what every served file's real path is checked against. */
  readonly real: string;
  /** For a glob: matches paths relative to `abs`. */
  readonly match?: (path: string) => boolean;
  /**
   * A file that is a run of its own (`view RUN_A RUN_B --compare`), not one run together with the
   * other files given by name.
   */
  readonly alone?: boolean;
}

/** A listed file. */
export interface CatalogFile extends RunListingEntry {
  /** Stable for a path: the first 16 hex digits of the SHA-256 of its absolute path. */
  readonly id: string;
  /** Index of its root in the catalog's roots. */
  readonly root: number;
  readonly abs: string;
}

/** A run of the catalog: runFiles's run, from one root, with each file's id. */
export interface CatalogRun extends Omit<Run, "files"> {
  readonly root: number;
  readonly files: readonly (Run["files"][number] & { readonly id: string })[];
}

export interface Catalog {
  readonly roots: readonly CatalogRoot[];
  readonly files: ReadonlyMap<string, CatalogFile>;
  readonly runs: readonly CatalogRun[];
}

/** A PATH that does not exist, or is neither a file nor a folder. */
export class CatalogPathError extends Error {
  override name = "CatalogPathError";
}

export const fileId = (abs: string): string =>
  createHash("sha256").update(abs).digest("hex").slice(0, 16);

/** True when `real` is `root` or lies under it. */
export function pathInside(real: string, root: string): boolean {
  if (real === root) return true;
  const rel = relative(root, real);
  return rel !== "" && !rel.startsWith("..") && !isAbsolute(rel);
}

/**
 * Resolve the PATH arguments against `cwd`. `separate`: every file given is a run of its own
 * (`view --compare`, where each PATH is one run).
 */
export async function catalogRoots(
  args: readonly string[],
  cwd: string,
  options: { readonly separate?: boolean } = {},
): Promise<CatalogRoot[]> {
  const roots: CatalogRoot[] = [];
  for (const arg of args) {
    const posix = arg.split(sep).join("/");
    if (isGlob(posix)) {
      const { base, pattern } = globSplit(posix);
      const abs = resolve(cwd, base === "" ? "." : base);
      const info = await stat(abs).catch(() => null);
      if (info === null || !info.isDirectory())
        throw new CatalogPathError(
          `${arg}: the folder ${base || "."} the glob starts from does not exist`,
        );
      roots.push({
        arg,
        kind: "glob",
        abs,
        real: await realpath(abs),
        match: globMatcher(pattern),
      });
      continue;
    }
    const abs = resolve(cwd, arg);
    const info = await stat(abs).catch(() => null);
    if (info === null) throw new CatalogPathError(`${arg}: no such file or folder`);
    if (!info.isDirectory() && !info.isFile())
      throw new CatalogPathError(`${arg}: neither a file nor a folder`);
    roots.push({
      arg,
      kind: info.isDirectory() ? "folder" : "file",
      abs,
      real: await realpath(abs),
      ...(options.separate === true && info.isFile() ? { alone: true } : {}),
    });
  }
  return roots;
}

interface Listed {
  readonly path: string;
  readonly abs: string;
  readonly size: number;
  readonly mtimeMs: number;
}

/** A folder's data files, recursively, with paths relative to it (`/`-separated). */
async function listFolder(root: CatalogRoot): Promise<Listed[]> {
  const out: Listed[] = [];
  const walk = async (dir: string, rel: string): Promise<void> => {
    let entries: Dirent[];
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch {
      return; // removed while scanning, or unreadable: listed again on the next scan
    }
    for (const entry of entries) {
      const path = rel === "" ? entry.name : `${rel}/${entry.name}`;
      const abs = resolve(dir, entry.name);
      if (entry.isDirectory()) {
        // A folder is entered when a data file in it could be listed (not hidden, not skipped).
        if (isRunDataPath(`${path}/probe.jsonl`)) await walk(abs, path);
        continue;
      }
      if (!entry.isFile() && !entry.isSymbolicLink()) continue;
      if (!isRunDataPath(path)) continue;
      if (root.match !== undefined && !root.match(path)) continue;
      const real = await realpath(abs).catch(() => null);
      if (real === null || !pathInside(real, root.real)) continue;
      const info = await stat(real).catch(() => null);
      if (info === null || !info.isFile()) continue;
      out.push({ path, abs, size: info.size, mtimeMs: info.mtimeMs });
    }
  };
  await walk(root.abs, "");
  return out;
}

/** Scan every root: the files and their runs, as they are now. */
export async function catalogScan(roots: readonly CatalogRoot[]): Promise<Catalog> {
  const files = new Map<string, CatalogFile>();
  const runs: CatalogRun[] = [];
  const withIds = (run: Run, root: number): CatalogRun => ({
    ...run,
    root,
    files: run.files.map((f) => ({ ...f, id: fileId(resolve(roots[root]!.abs, f.path)) })),
  });
  // Files given one by one are one run, in the order given (runOfFiles), named as given; a file
  // that is a run alone (view --compare) is its own.
  const loose: RunListingEntry[] = [];
  const looseIds = new Map<string, string>();
  let looseRoot = -1;
  for (const [i, root] of roots.entries()) {
    if (root.kind === "file") {
      const info = await stat(root.abs).catch(() => null);
      if (info === null || !info.isFile()) continue;
      const id = fileId(root.abs);
      if (files.has(id)) continue;
      const entry = { path: root.arg.split(sep).join("/"), size: info.size, mtimeMs: info.mtimeMs };
      files.set(id, { ...entry, id, root: i, abs: root.abs });
      if (root.alone === true) {
        const run = runOfFiles([entry]);
        runs.push({ ...run, root: i, files: run.files.map((f) => ({ ...f, id })) });
        continue;
      }
      loose.push(entry);
      looseIds.set(entry.path, id);
      if (looseRoot === -1) looseRoot = i;
      continue;
    }
    const listed = await listFolder(root);
    for (const l of listed) {
      const id = fileId(l.abs);
      if (!files.has(id))
        files.set(id, { path: l.path, size: l.size, mtimeMs: l.mtimeMs, id, root: i, abs: l.abs });
    }
    runs.push(...gatherRuns(listed).map((run) => withIds(run, i)));
  }
  if (loose.length > 0) {
    const run = runOfFiles(loose);
    runs.unshift({
      ...run,
      root: looseRoot,
      files: run.files.map((f) => ({ ...f, id: looseIds.get(f.path)! })),
    });
  }
  return { roots, files, runs };
}

/** Why a listed file is not served: gone, or its real path left its root. */
export type CatalogOpenError = "not-listed" | "gone" | "outside";

/**
 * Open a listed file read-only, after checking its real path again against its root.
 * The caller closes the handle.
 */
export async function catalogOpen(
  catalog: Catalog,
  id: string,
): Promise<
  { ok: true; handle: FileHandle; file: CatalogFile } | { ok: false; error: CatalogOpenError }
> {
  const file = catalog.files.get(id);
  if (file === undefined) return { ok: false, error: "not-listed" };
  const root = catalog.roots[file.root]!;
  const real = await realpath(file.abs).catch(() => null);
  if (real === null) return { ok: false, error: "gone" };
  const inside = root.kind === "file" ? real === root.real : pathInside(real, root.real);
  if (!inside) return { ok: false, error: "outside" };
  const handle = await open(real, "r").catch(() => null);
  if (handle === null) return { ok: false, error: "gone" };
  return { ok: true, handle, file };
}
