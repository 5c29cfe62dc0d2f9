/**
 * The worker's remote load (workers/loadFile.ts runLoadRemote) against a real `view` server on a
 * port: a run's files are read by range requests and merged; a half-written last line is held
 * back, not an issue; a second read takes unchanged files from the cache (no request for their
 * bytes) and reads a grown one again; a file that does not load is one issue and the run's other
 * files still load; one large file is indexed, as a local File would be. (Here, not in src/server or
 * src/workers: it joins the two layers, which lint keeps apart.)
 */
import { appendFileSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LoadedDataset } from "../io/index.ts";
import { verlLine, writeVerlFolder } from "./runFixtures.ts";
import { remoteCacheEmpty, runLoadRemote, type RemoteCache } from "../workers/loadFile.ts";
import type { LoadReply, LoadRequest } from "../workers/protocol.ts";
import { catalogRoots } from "../server/catalog.ts";
import { viewServerStart, type ViewServer } from "../server/serve.ts";

const TOKEN = "remote-load-token-0123";
const base = mkdtempSync(join(tmpdir(), "view-remote-load-"));
const run = join(base, "steps");
let server: ViewServer;
const requested: string[] = [];
const realFetch = globalThis.fetch;

beforeAll(async () => {
  writeVerlFolder(run, [1, 2]);
  mkdirSync(join(run, "native"));
  const rows = [0, 1, 2, 3, 4, 5].map((i) =>
    JSON.stringify({ group_id: `g${i % 2}`, prompt: "p", completion: `c${i}`, reward: i % 3 }),
  );
  writeFileSync(join(run, "native", "rollouts.jsonl"), `${rows.join("\n")}\n`);
  server = await viewServerStart({
    roots: await catalogRoots([run], base),
    studio: { dir: base, files: new Map(), csp: "" },
    stateDir: join(run, ".rollout-studio"),
    host: "127.0.0.1",
    port: 0,
    token: TOKEN,
    version: "9.9.9",
    format: null,
    warn: () => undefined,
  });
  // Count the byte requests the loads make.
  globalThis.fetch = (input: RequestInfo | URL, init?: RequestInit) => {
    const range = new Headers(init?.headers).get("Range");
    requested.push(`${input instanceof Request ? input.url : input.toString()} ${range ?? ""}`);
    return realFetch(input, init);
  };
});

afterAll(async () => {
  globalThis.fetch = realFetch;
  await server.close();
});

/** The step folder's run as the server lists it now (the native file is a run of its own). */
const steps = () => server.catalog().runs.find((r) => r.dir === "")!;

/** The load request for a run as it is listed now. */
function job(
  requestId: number,
  extra: Partial<Extract<LoadRequest, { kind: "load-remote" }>> = {},
  listed = steps(),
) {
  return {
    kind: "load-remote" as const,
    requestId,
    name: "steps",
    files: listed.files.map((f) => ({
      url: `http://127.0.0.1:${server.port}/api/files/${f.id}`,
      id: f.id,
      run: {
        path: f.path,
        size: f.size,
        mtimeMs: f.mtimeMs,
        step: f.step,
        stepSource: f.stepSource,
      },
    })),
    headers: { Authorization: `Bearer ${TOKEN}` },
    ...extra,
  };
}

async function load(
  request: Extract<LoadRequest, { kind: "load-remote" }>,
  cache: RemoteCache,
): Promise<{ dataset: LoadedDataset; heldBack: number; indexed: boolean }> {
  const replies: LoadReply[] = [];
  const state = await runLoadRemote(
    request,
    (r) => replies.push(r),
    () => false,
    cache,
  );
  const done = replies.find((r) => r.kind === "done");
  if (done?.kind !== "done") throw new Error(`no dataset: ${JSON.stringify(replies.at(-1))}`);
  return { dataset: done.dataset, heldBack: done.heldBack ?? 0, indexed: state !== null };
}

/** Wait until the server's scan lists what is on disk now. */
async function rescanned(check: () => boolean): Promise<void> {
  for (let i = 0; i < 100 && !check(); i++) await new Promise((r) => setTimeout(r, 50));
  expect(check()).toBe(true);
}

describe("runLoadRemote", () => {
  const cache: RemoteCache = remoteCacheEmpty();

  it("reads a run by range requests and merges it", async () => {
    const { dataset } = await load(job(1), cache);
    expect(dataset.stats.rollouts).toBe(16);
    expect(dataset.summaries.map((s) => s.step)).toEqual([1, 1, 2, 2]);
    expect(dataset.issues).toEqual([]);
  });

  it("holds back a half-written line, reads unchanged files from the cache", async () => {
    const line = verlLine(2, "Solve 2+2.", 1, 7);
    const sizeBefore = steps().files[1]!.size;
    appendFileSync(join(run, "2.jsonl"), line.slice(0, 30));
    await rescanned(() => steps().files[1]!.size > sizeBefore);
    requested.length = 0;
    const half = await load(job(2), cache);
    expect(half.dataset.stats.rollouts).toBe(16);
    expect(half.dataset.issues).toEqual([]);
    expect(half.heldBack).toBe(30);
    const step1 = steps().files[0]!.id;
    // Step 1's file: its end is looked at (is its last line complete?), its bytes not read again.
    expect(requested.filter((u) => u.includes(step1))).toHaveLength(1);

    appendFileSync(join(run, "2.jsonl"), `${line.slice(30)}\n`);
    await rescanned(() => steps().files[1]!.size === sizeBefore + line.length + 1);
    const whole = await load(job(3), cache);
    expect(whole.dataset.stats.rollouts).toBe(17);
    expect(whole.heldBack).toBe(0);
    expect(whole.dataset.issues).toEqual([]);
  });

  it("a file that does not load is one issue; the others load", async () => {
    writeFileSync(join(run, "3.jsonl"), "this is not json\n");
    await rescanned(() => steps().files.length === 3);
    const { dataset } = await load(job(4), cache);
    expect(dataset.stats.rollouts).toBe(17);
    expect(dataset.issues.filter((i) => i.file === "3.jsonl").length).toBeGreaterThanOrEqual(1);
  });

  it("one file of the run is loaded as a local File: indexed from the threshold", async () => {
    const native = server.catalog().runs.find((r) => r.dir === "native")!;
    const { dataset, indexed } = await load(
      job(5, { indexThreshold: 0 }, native),
      remoteCacheEmpty(),
    );
    expect(indexed).toBe(true);
    expect(dataset.indexed).toBe(true);
    expect(dataset.stats.rollouts).toBe(6);
    expect(dataset.summaries.map((s) => s.id)).toEqual(["g0", "g1"]);
  });

  it("a followed indexed file that grows is extended: only the appended bytes are read", async () => {
    const native = () => server.catalog().runs.find((r) => r.dir === "native")!;
    const local = remoteCacheEmpty();
    const first = await load(job(6, { indexThreshold: 0 }, native()), local);
    expect(first.indexed).toBe(true);
    const before = native().files[0]!.size;
    const more = [6, 7].map((i) =>
      JSON.stringify({ group_id: "g1", prompt: "p", completion: `c${i}`, reward: 1 }),
    );
    appendFileSync(join(run, "native", "rollouts.jsonl"), `${more.join("\n")}\n`);
    await rescanned(() => native().files[0]!.size > before);
    requested.length = 0;
    const grown = await load(job(7, { indexThreshold: 0 }, native()), local);
    expect(grown.dataset.stats.rollouts).toBe(8);
    expect(grown.dataset.summaries.map((s) => [s.id, s.rewards.length])).toEqual([
      ["g0", 3],
      ["g1", 5],
    ]);
    // The appended bytes are read from where the last read stopped; the whole file only once
    // (the check of its last line, which for a file under 1 MB is all of it), never indexed again.
    const size = native().files[0]!.size;
    expect(requested.filter((r) => r.endsWith(`bytes=${before}-${size - 1}`))).toHaveLength(1);
    expect(requested.filter((r) => r.endsWith(`bytes=0-${size - 1}`))).toHaveLength(1);
    const fresh = await load(job(8, { indexThreshold: 0 }, native()), remoteCacheEmpty());
    expect(grown.dataset.summaries).toEqual(fresh.dataset.summaries);
    expect(grown.dataset.stats).toEqual(fresh.dataset.stats);
  });

  it("a served run from the threshold is indexed file by file; a grown file is extended", async () => {
    const local = remoteCacheEmpty();
    const first = await load(job(9, { indexThreshold: 0 }), local);
    expect(first.indexed).toBe(true);
    expect(first.dataset.indexed).toBe(true);
    const sizeBefore = steps().files[0]!.size;
    appendFileSync(join(run, "1.jsonl"), `${verlLine(1, "Solve 2+2.", 1, 8)}\n`);
    await rescanned(() => steps().files[0]!.size > sizeBefore);
    requested.length = 0;
    const grown = await load(job(10, { indexThreshold: 0 }), local);
    const fresh = await load(job(11, { indexThreshold: 0 }), remoteCacheEmpty());
    expect(grown.dataset.summaries).toEqual(fresh.dataset.summaries);
    expect(grown.dataset.stats).toEqual(fresh.dataset.stats);
    expect(grown.dataset.stats.rollouts).toBe(first.dataset.stats.rollouts + 1);
    const id = steps().files[0]!.id;
    const size = steps().files[0]!.size;
    // The grown file: its tail looked at, then only what was appended.
    expect(
      requested.filter((r) => r.includes(id) && r.endsWith(`bytes=${sizeBefore}-${size - 1}`)),
    ).toHaveLength(1);
  });
});
