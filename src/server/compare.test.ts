/**
 * `view RUN_A RUN_B --compare` (issue 19): each PATH is one run (two files given by name are two
 * runs, not one), the listing says `compare`, and the page's rule picks run A and run B from it
 * (the first run of each PATH). Without --compare, two files are one run, as before.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { viewRunsSchema } from "../io/view/viewApi.ts";
import { viewComparePair } from "../io/view/viewNames.ts";
import { allowedHosts } from "./access.ts";
import { AnnotationsStore } from "./annotationsStore.ts";
import { createApp } from "./app.ts";
import { catalogRoots, catalogScan } from "./catalog.ts";
import { EventHub } from "./events.ts";
import { studioLoad } from "./studioFiles.ts";

const TOKEN = "test-token-0123456789";
const HOST = "127.0.0.1:7575";
const base = mkdtempSync(join(tmpdir(), "view-compare-"));
const row = (group: string, reward: number): string =>
  `${JSON.stringify({ group_id: group, prompt: "p", completion: "c", reward })}\n`;

beforeAll(() => {
  writeFileSync(join(base, "a.jsonl"), row("g", 1));
  writeFileSync(join(base, "b.jsonl"), row("g", 0));
  for (const [dir, steps] of [
    ["runA", [1, 2]],
    ["runB", [1, 2, 3]],
  ] as const) {
    mkdirSync(join(base, dir));
    for (const step of steps) writeFileSync(join(base, dir, `${step}.jsonl`), row("p0", step));
  }
  mkdirSync(join(base, "studio"));
  writeFileSync(
    join(base, "studio", "index.html"),
    `<!doctype html><html><head><meta http-equiv="Content-Security-Policy" content="script-src 'self'" /></head></html>`,
  );
});

async function listing(paths: readonly string[], compare: boolean): Promise<unknown> {
  const roots = await catalogRoots(paths, base, { separate: compare });
  const catalog = await catalogScan(roots);
  const app = createApp({
    catalog: () => catalog,
    annotations: new AnnotationsStore(join(base, `state-${paths.join("-")}`)),
    studio: await studioLoad(join(base, "studio")),
    token: TOKEN,
    allowedHosts: () => allowedHosts("127.0.0.1", 7575, []),
    events: new EventHub(),
    version: "9.9.9",
    format: null,
    compare,
  });
  const res = await app.request("/api/runs", {
    headers: { host: HOST, authorization: `Bearer ${TOKEN}` },
  });
  expect(res.status).toBe(200);
  return res.json();
}

describe("view --compare", () => {
  it("two files given by name are two runs with --compare, one run without", async () => {
    const compared = viewRunsSchema.parse(await listing(["a.jsonl", "b.jsonl"], true));
    expect(compared.compare).toBe(true);
    expect(compared.runs.map((r) => [r.root, r.files.map((f) => f.path)])).toEqual([
      [0, ["a.jsonl"]],
      [1, ["b.jsonl"]],
    ]);
    expect(viewComparePair(compared)).toEqual({ a: 0, b: 1 });

    const merged = viewRunsSchema.parse(await listing(["a.jsonl", "b.jsonl"], false));
    expect(merged.compare).toBe(false);
    expect(merged.runs.map((r) => r.files.map((f) => f.path))).toEqual([["a.jsonl", "b.jsonl"]]);
    expect(viewComparePair(merged)).toBeNull();
  });

  it("two folders: run A is the first PATH's run, run B the second's, each with its steps", async () => {
    const body = viewRunsSchema.parse(await listing(["runA", "runB"], true));
    const pair = viewComparePair(body)!;
    expect(body.runs[pair.a]!.files.map((f) => f.step)).toEqual([1, 2]);
    expect(body.runs[pair.b]!.files.map((f) => f.step)).toEqual([1, 2, 3]);
    expect(body.runs[pair.a]!.root).toBe(0);
    expect(body.runs[pair.b]!.root).toBe(1);
  });

  it("a folder and a file: the file is run B by itself", async () => {
    const body = viewRunsSchema.parse(await listing(["runA", "b.jsonl"], true));
    const pair = viewComparePair(body)!;
    expect(body.runs[pair.a]!.files).toHaveLength(2);
    expect(body.runs[pair.b]!.files.map((f) => f.path)).toEqual(["b.jsonl"]);
  });

  it("a listing of an older server (no compare field) parses and compares nothing", () => {
    const old = {
      version: "0.1.0",
      format: null,
      stateDir: "/s",
      annotations: { path: "/s/annotations.json", version: "none" },
      roots: [],
      runs: [],
    };
    expect(viewComparePair(viewRunsSchema.parse(old))).toBeNull();
  });
});
