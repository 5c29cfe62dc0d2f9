/**
 * Live follow for `rollout-studio view`: keeps the catalog current while a trainer writes the
 * run, and publishes what changed (`files` events) and when the annotations file changes
 * (`annotations` events).
 *
 * chokidar only says that something under a path changed; the truth is a rescan (catalog.ts) and
 * a diff of the files' sizes, times and first bytes (fileChanges.ts). Rescans are throttled to
 * one per RESCAN_MS, so a JSONL written line by line gives at most 1000 / RESCAN_MS events a
 * second, and a change is published within RESCAN_MS plus the scan (the studio's budget is 2 s).
 * The annotations file is polled (fs.watchFile, ANNOTATIONS_POLL_MS): it may not exist yet, and
 * its folder may not either.
 */
import { watch, type FSWatcher } from "chokidar";
import { unwatchFile, watchFile, type Stats } from "node:fs";
import { open } from "node:fs/promises";
import { isRunDataPath } from "../io/index.ts";
import type { AnnotationsStore } from "./annotationsStore.ts";
import { catalogScan, type Catalog, type CatalogRoot } from "./catalog.ts";
import type { EventHub } from "./events.ts";
import { fileChanges, HEAD_BYTES, type FileSnapshot } from "./fileChanges.ts";

export const RESCAN_MS = 300;
export const ANNOTATIONS_POLL_MS = 300;

async function readHead(abs: string, size: number): Promise<Uint8Array> {
  const handle = await open(abs, "r").catch(() => null);
  if (handle === null) return new Uint8Array(0);
  try {
    const buffer = new Uint8Array(Math.min(size, HEAD_BYTES));
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/** Snapshots of a catalog's files, reusing the previous head where size and time are unchanged. */
async function snapshots(
  catalog: Catalog,
  previous: ReadonlyMap<string, FileSnapshot>,
): Promise<Map<string, FileSnapshot>> {
  const out = new Map<string, FileSnapshot>();
  for (const f of catalog.files.values()) {
    const p = previous.get(f.id);
    const head =
      p !== undefined && p.size === f.size && p.mtimeMs === f.mtimeMs
        ? p.head
        : await readHead(f.abs, f.size);
    out.set(f.id, { id: f.id, size: f.size, mtimeMs: f.mtimeMs, head });
  }
  return out;
}

/** True for a path chokidar need not watch: hidden or skipped folders (as the listing skips them). */
function ignoredByListing(root: CatalogRoot): (path: string, stats?: Stats) => boolean {
  return (path) => {
    if (path === root.abs || !path.startsWith(root.abs)) return false;
    const rel = path
      .slice(root.abs.length + 1)
      .split(/[\\/]/)
      .join("/");
    // A folder is watched when a data file in it could be listed (the same probe as the listing).
    return !isRunDataPath(`${rel}/probe.jsonl`) && !isRunDataPath(rel);
  };
}

export class Live {
  private catalog: Catalog;
  private snaps: Map<string, FileSnapshot> = new Map();
  private watchers: FSWatcher[] = [];
  private timer: ReturnType<typeof setTimeout> | null = null;
  private scanning: Promise<void> | null = null;
  private again = false;
  private lastAnnotations: string | null = null;
  private closed = false;
  private unsubscribe: () => void = () => undefined;

  private readonly hub: EventHub;
  /** null in team mode (`view --db`): the annotations are in the database, not a file. */
  private readonly annotations: AnnotationsStore | null;
  private readonly warn: (message: string) => void;

  private constructor(
    catalog: Catalog,
    hub: EventHub,
    annotations: AnnotationsStore | null,
    warn: (message: string) => void,
  ) {
    this.catalog = catalog;
    this.hub = hub;
    this.annotations = annotations;
    this.warn = warn;
  }

  /** Scan once, then follow. */
  static async start(
    roots: readonly CatalogRoot[],
    hub: EventHub,
    annotations: AnnotationsStore | null,
    warn: (message: string) => void,
    options: { watch: boolean } = { watch: true },
  ): Promise<Live> {
    const live = new Live(await catalogScan(roots), hub, annotations, warn);
    live.snaps = await snapshots(live.catalog, new Map());
    live.lastAnnotations = annotations === null ? null : (await annotations.read()).version;
    // A write through the API publishes its own event: polling must not publish it again.
    live.unsubscribe = hub.subscribe((e) => {
      if (e.event === "annotations") live.lastAnnotations = e.data.version;
    });
    if (options.watch) live.follow(roots);
    return live;
  }

  current(): Catalog {
    return this.catalog;
  }

  private follow(roots: readonly CatalogRoot[]): void {
    for (const root of roots) {
      const watcher = watch(root.abs, {
        ignoreInitial: true,
        followSymlinks: false,
        ...(root.kind === "file" ? {} : { ignored: ignoredByListing(root) }),
      });
      watcher.on("all", () => this.schedule());
      watcher.on("error", (e) => {
        this.warn(`watching ${root.arg}: ${e instanceof Error ? e.message : String(e)}`);
      });
      this.watchers.push(watcher);
    }
    const file = this.annotations;
    if (file === null) return;
    watchFile(file.path, { interval: ANNOTATIONS_POLL_MS }, () => {
      this.checkAnnotations().catch((e: unknown) =>
        this.warn(`reading ${file.path}: ${String(e)}`),
      );
    });
  }

  /** A rescan within RESCAN_MS (one for any number of triggers). */
  schedule(): void {
    if (this.closed || this.timer !== null) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.rescan().catch((e: unknown) => this.warn(`rescanning: ${String(e)}`));
    }, RESCAN_MS);
  }

  /** Scan now and publish the changes; concurrent calls run one more scan after the current one. */
  async rescan(): Promise<void> {
    if (this.scanning !== null) {
      this.again = true;
      return this.scanning;
    }
    this.scanning = (async () => {
      do {
        this.again = false;
        const previous = this.catalog;
        const next = await catalogScan(previous.roots);
        const snaps = await snapshots(next, this.snaps);
        const changes = fileChanges(this.snaps, snaps);
        this.catalog = next;
        this.snaps = snaps;
        for (const change of changes) {
          const file = next.files.get(change.id) ?? previous.files.get(change.id)!;
          const run = (next.files.has(change.id) ? next : previous).runs.find((r) =>
            r.files.some((f) => f.id === change.id),
          );
          const inRun = run?.files.find((f) => f.id === change.id);
          this.hub.publish({
            event: "files",
            data: {
              ...change,
              path: file.path,
              root: file.root,
              run: run?.dir ?? null,
              step: inRun?.step ?? null,
              stepSource: inRun?.stepSource ?? null,
            },
          });
        }
      } while (this.again && !this.closed);
    })().finally(() => {
      this.scanning = null;
    });
    return this.scanning;
  }

  /** Publish an `annotations` event when the file's version changed. */
  async checkAnnotations(): Promise<void> {
    if (this.annotations === null) return;
    const version = (await this.annotations.read()).version;
    if (version === this.lastAnnotations) return;
    this.lastAnnotations = version;
    this.hub.publish({ event: "annotations", data: { version } });
  }

  async close(): Promise<void> {
    this.closed = true;
    this.unsubscribe();
    if (this.timer !== null) clearTimeout(this.timer);
    if (this.annotations !== null) unwatchFile(this.annotations.path);
    await Promise.all(this.watchers.map((w) => w.close()));
    await this.scanning;
  }
}
