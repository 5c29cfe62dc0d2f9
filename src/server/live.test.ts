/**
 * The catalog's scans and live follow, on real folders: globs, files given one by one, a file
 * swapped for a link after the scan, and the `files` events a rescan publishes (rescans called
 * directly: the watcher only triggers them).
 */
import {
  appendFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { AnnotationsStore } from "./annotationsStore.ts";
import { catalogOpen, catalogRoots, catalogScan, CatalogPathError } from "./catalog.ts";
import { EventHub, type ServerEvent } from "./events.ts";
import { Live, RESCAN_MS } from "./live.ts";

const folder = (): string => mkdtempSync(join(tmpdir(), "view-live-"));

describe("catalog", () => {
  it("a glob lists the matching files under its base, on every scan", async () => {
    const dir = folder();
    mkdirSync(join(dir, "dump"));
    writeFileSync(join(dir, "dump", "1.jsonl"), "{}\n");
    writeFileSync(join(dir, "dump", "x.csv"), "a\n");
    const roots = await catalogRoots(["dump/*.jsonl"], dir);
    expect(roots[0]!.kind).toBe("glob");
    expect((await catalogScan(roots)).runs[0]!.files.map((f) => f.path)).toEqual(["1.jsonl"]);
    writeFileSync(join(dir, "dump", "2.jsonl"), "{}\n");
    const again = await catalogScan(roots);
    expect(again.runs[0]!.files.map((f) => [f.path, f.step, f.stepSource])).toEqual([
      ["1.jsonl", 1, "verl-name"],
      ["2.jsonl", 2, "verl-name"],
    ]);
  });

  it("files given one by one are one run, named as given", async () => {
    const dir = folder();
    writeFileSync(join(dir, "b.jsonl"), "{}\n");
    writeFileSync(join(dir, "a.jsonl"), "{}\n");
    const catalog = await catalogScan(await catalogRoots(["b.jsonl", "a.jsonl", "b.jsonl"], dir));
    expect(catalog.runs).toHaveLength(1);
    expect(catalog.runs[0]!.files.map((f) => f.path)).toEqual(["b.jsonl", "a.jsonl"]);
    expect(catalog.files.size).toBe(2);
  });

  it("a PATH that does not exist is an error naming it", async () => {
    await expect(catalogRoots(["nope/"], folder())).rejects.toThrow(CatalogPathError);
    await expect(catalogRoots(["nope/*.jsonl"], folder())).rejects.toThrow(/nope/);
  });

  it("skips hidden and state folders", async () => {
    const dir = folder();
    for (const sub of [".rollout-studio", ".git", "node_modules", "ok"]) {
      mkdirSync(join(dir, sub));
      writeFileSync(join(dir, sub, "0.jsonl"), "{}\n");
    }
    const catalog = await catalogScan(await catalogRoots([dir], dir));
    expect([...catalog.files.values()].map((f) => f.path)).toEqual(["ok/0.jsonl"]);
  });

  it("a listed file swapped for a link that leads out after the scan is refused", async () => {
    const dir = folder();
    mkdirSync(join(dir, "run"));
    writeFileSync(join(dir, "secret.jsonl"), "secret\n");
    writeFileSync(join(dir, "run", "0.jsonl"), "{}\n");
    const catalog = await catalogScan(await catalogRoots(["run"], dir));
    const [id] = catalog.files.keys();
    rmSync(join(dir, "run", "0.jsonl"));
    symlinkSync(join(dir, "secret.jsonl"), join(dir, "run", "0.jsonl"));
    const opened = await catalogOpen(catalog, id!);
    expect(opened).toEqual({ ok: false, error: "outside" });
    expect(await catalogOpen(catalog, "0123456789abcdef")).toEqual({
      ok: false,
      error: "not-listed",
    });
  });
});

describe("Live", () => {
  it("publishes added, grown, rewritten, shrunk and removed, once per change", async () => {
    const dir = folder();
    const file = join(dir, "0.jsonl");
    writeFileSync(file, '{"a":1}\n');
    const hub = new EventHub();
    const events: ServerEvent[] = [];
    hub.subscribe((e) => events.push(e));
    const live = await Live.start(
      await catalogRoots([dir], dir),
      hub,
      new AnnotationsStore(join(dir, ".rollout-studio")),
      () => undefined,
      { watch: false },
    );
    const kinds = () =>
      events.map((e) => (e.event === "files" ? `${e.data.path} ${e.data.kind}` : e.event));

    appendFileSync(file, '{"a":2}\n');
    await live.rescan();
    writeFileSync(join(dir, "1.jsonl"), "{}\n");
    await live.rescan();
    await live.rescan();
    writeFileSync(file, '{"b":1}\n{"b":2}\n{"b":3}\n');
    await live.rescan();
    writeFileSync(file, "{}\n");
    await live.rescan();
    rmSync(join(dir, "1.jsonl"));
    await live.rescan();
    expect(kinds()).toEqual([
      "0.jsonl grown",
      "1.jsonl added",
      "0.jsonl rewritten",
      "0.jsonl shrunk",
      "1.jsonl removed",
    ]);
    const added = events[1]!;
    expect(
      added.event === "files" && [added.data.step, added.data.stepSource, added.data.size],
    ).toEqual([1, "verl-name", 3]);
    await live.close();
  });

  it("publishes an annotations event when the file changes on disk", async () => {
    const dir = folder();
    const hub = new EventHub();
    const events: ServerEvent[] = [];
    hub.subscribe((e) => events.push(e));
    const store = new AnnotationsStore(join(dir, ".rollout-studio"));
    const live = await Live.start(await catalogRoots([dir], dir), hub, store, () => undefined, {
      watch: false,
    });
    await live.checkAnnotations();
    expect(events).toEqual([]);
    mkdirSync(join(dir, ".rollout-studio"));
    writeFileSync(store.path, '{"version":1,"groups":{}}\n');
    await live.checkAnnotations();
    await live.checkAnnotations();
    expect(events).toHaveLength(1);
    expect(events[0]!.event).toBe("annotations");
    await live.close();
  });

  it("follows a folder with the watcher: a new step file is published", async () => {
    const dir = folder();
    writeFileSync(join(dir, "0.jsonl"), "{}\n");
    const hub = new EventHub();
    const live = await Live.start(
      await catalogRoots([dir], dir),
      hub,
      new AnnotationsStore(join(dir, ".s")),
      () => undefined,
    );
    // The 2 s target is measured by the benchmarks; a test asserts that the event comes at all.
    const seen = new Promise<string>((resolve) => {
      hub.subscribe((e) => {
        if (e.event === "files" && e.data.kind === "added") resolve(e.data.kind);
      });
    });
    // chokidar's watch is set up asynchronously; give it a moment before writing.
    await new Promise((r) => setTimeout(r, 300));
    writeFileSync(join(dir, "1.jsonl"), "{}\n");
    expect(await seen).toBe("added");
    await live.close();
  });

  it("a JSONL written line by line gives a few events a second, and one after the last write", async () => {
    const dir = folder();
    const file = join(dir, "0.jsonl");
    writeFileSync(file, "{}\n");
    const hub = new EventHub();
    const times: number[] = [];
    hub.subscribe((e) => {
      if (e.event === "files") times.push(Date.now());
    });
    const live = await Live.start(
      await catalogRoots([dir], dir),
      hub,
      new AnnotationsStore(join(dir, ".s")),
      () => undefined,
    );
    await new Promise((r) => setTimeout(r, 300));
    const started = Date.now();
    let lastWrite = started;
    for (let i = 0; i < 50; i++) {
      lastWrite = Date.now();
      appendFileSync(file, `{"line":${i}}\n`);
      await new Promise((r) => setTimeout(r, 20));
    }
    // An event follows the last write (no time limit here: the benchmarks measure the latency).
    while (!(times.length > 0 && times.at(-1)! >= lastWrite))
      await new Promise((r) => setTimeout(r, 50));
    const seconds = (times.at(-1)! - started) / 1000;
    // One rescan per RESCAN_MS at most (plus the one after the last write).
    expect(times.length).toBeLessThanOrEqual(Math.ceil((seconds * 1000) / RESCAN_MS) + 2);
    const catalog = live.current();
    expect([...catalog.files.values()][0]!.size).toBe(readFileSync(file).length);
    await live.close();
  });
});
