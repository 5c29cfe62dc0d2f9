/**
 * The annotations of a `view` session: `<state dir>/annotations.json`, in the version-1 format
 * the CLI reads (io/annotations/annotationsFile.ts), validated on every read and write.
 *
 * A version is the first 16 hex digits of the SHA-256 of the file's bytes (NO_FILE_VERSION while
 * there is none), so a change made by anyone (another tab, `rollout-studio judge`, an editor)
 * changes it. A write names the version it was based on; one based on another version is refused
 * with the current document (the client merges and writes again), never applied over it. Writes
 * are serialised in the server, and atomic on disk (atomicWrite.ts).
 */
import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { annotationsParse, annotationsToJson, type ParseIssue } from "../io/index.ts";
import { writeFileAtomic, type AtomicWriteFs, NODE_FS } from "./atomicWrite.ts";

export const ANNOTATIONS_FILE = "annotations.json";

/** The version of a state folder with no annotations file yet. */
export const NO_FILE_VERSION = "none";

/** The document a state folder with no annotations file reads as: version 1, no groups. */
export const EMPTY_ANNOTATIONS_TEXT = (() => {
  const empty = annotationsParse("(empty)", '{"version":1,"groups":{}}');
  if (!empty.ok) throw new Error("the empty annotations document does not validate");
  return annotationsToJson(empty.value);
})();

export const annotationsVersion = (text: string): string =>
  createHash("sha256").update(text).digest("hex").slice(0, 16);

export type AnnotationsRead =
  | { readonly ok: true; readonly version: string; readonly text: string; readonly exists: boolean }
  /** The file on disk does not validate (edited by hand, or by another tool). */
  | {
      readonly ok: false;
      readonly version: string;
      readonly text: string;
      readonly issues: readonly ParseIssue[];
    };

export type AnnotationsWrite =
  | { readonly kind: "written"; readonly version: string }
  | { readonly kind: "invalid"; readonly issues: readonly ParseIssue[] }
  | { readonly kind: "conflict"; readonly current: AnnotationsRead };

export class AnnotationsStore {
  readonly stateDir: string;
  readonly path: string;
  private readonly fs: AtomicWriteFs;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(stateDir: string, fs: AtomicWriteFs = NODE_FS) {
    this.stateDir = stateDir;
    this.path = join(stateDir, ANNOTATIONS_FILE);
    this.fs = fs;
  }

  /** The file as it is now, with its version. */
  async read(): Promise<AnnotationsRead> {
    let text: string;
    try {
      text = await readFile(this.path, "utf8");
    } catch (e) {
      if (e instanceof Error && "code" in e && e.code === "ENOENT")
        return { ok: true, version: NO_FILE_VERSION, text: EMPTY_ANNOTATIONS_TEXT, exists: false };
      throw e;
    }
    const version = annotationsVersion(text);
    const parsed = annotationsParse(this.path, text);
    return parsed.ok
      ? { ok: true, version, text, exists: true }
      : { ok: false, version, text, issues: parsed.issues };
  }

  /**
   * Write a new document, based on `baseVersion`. The text is validated and written in its
   * normalised form (annotationsToJson), so the file always reads back as the CLI expects.
   */
  write(text: string, baseVersion: string): Promise<AnnotationsWrite> {
    const run = this.queue.then(() => this.writeNow(text, baseVersion));
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async writeNow(text: string, baseVersion: string): Promise<AnnotationsWrite> {
    const parsed = annotationsParse("request body", text);
    if (!parsed.ok) return { kind: "invalid", issues: parsed.issues };
    const current = await this.read();
    if (current.version !== baseVersion) return { kind: "conflict", current };
    const out = annotationsToJson(parsed.value);
    await writeFileAtomic(this.path, out, this.fs);
    return { kind: "written", version: annotationsVersion(out) };
  }
}
