/**
 * `view`'s range reads (2): the first 4 MB and 100 seeded 64 KB ranges of a 1 GB JSONL (50 of the
 * run's step files end to end) through viewServerStart in process, against `FileHandle.read`.
 */
import { appendFileSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { open } from "node:fs/promises";
import { join } from "node:path";

import { randomMulberry32 } from "../src/core/index.ts";
import { catalogRoots } from "../src/server/catalog.ts";
import { viewServerStart } from "../src/server/serve.ts";
import { fingerprintBytes } from "./generate.ts";
import { DATA_DIR, verlRunFolder } from "./runData.ts";
import { check, emit, interleaved, MB, mbps, median, QUICK, round } from "./runsHarness.ts";

const RANGE_COUNT = 100;
const RANGE_BYTES = 64 << 10;
const HEAD_BYTES = 4 << 20;

function oneGbFile(): { path: string; size: number; fingerprint: string } {
  const run = verlRunFolder(100, 2e9, 400);
  const dir = join(DATA_DIR, "view-1GB");
  const path = join(dir, "run.jsonl");
  const manifest = join(dir, "manifest.json");
  try {
    const m = JSON.parse(readFileSync(manifest, "utf8")) as { source: string; size: number };
    if (m.source === run.fingerprint && statSync(path).size === m.size)
      return { path, size: m.size, fingerprint: run.fingerprint };
  } catch {
    // not there yet
  }
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  let size = 0;
  for (let step = 1; step <= 50; step++) {
    const bytes = readFileSync(join(run.dir, `${step}.jsonl`));
    appendFileSync(path, bytes);
    size += bytes.length;
  }
  writeFileSync(manifest, JSON.stringify({ source: run.fingerprint, size }));
  return { path, size, fingerprint: run.fingerprint };
}

export async function rangeBench(): Promise<void> {
  console.error("view: a 1 GB JSONL (50 step files of the run end to end)");
  const file = oneGbFile();
  const rng = randomMulberry32(500);
  const ranges: [number, number][] = [[0, HEAD_BYTES]];
  for (let i = 0; i < RANGE_COUNT; i++) {
    const start = Math.floor(rng() * (file.size - RANGE_BYTES));
    ranges.push([start, start + RANGE_BYTES]);
  }
  const total = ranges.reduce((s, [a, b]) => s + (b - a), 0);
  const roots = await catalogRoots([file.path], DATA_DIR);
  const stateDir = join(DATA_DIR, "view-1GB", ".rollout-studio");
  const token = "bench-token";
  const server = await viewServerStart({
    roots,
    studio: { dir: DATA_DIR, files: new Map(), csp: "default-src 'none'" },
    stateDir,
    host: "127.0.0.1",
    port: 0,
    token,
    version: "bench",
    format: null,
    warn: (m) => console.error(`  view: ${m}`),
  });
  const origin = `http://127.0.0.1:${server.port}`;
  const headers = { authorization: `Bearer ${token}` };
  try {
    const listing = (await (await fetch(`${origin}/api/runs`, { headers })).json()) as {
      runs: { files: { id: string; size: number }[] }[];
    };
    const id = listing.runs[0]!.files[0]!.id;
    const handle = await open(file.path, "r");
    const fsBytes: Uint8Array[] = [];
    const httpBytes: Uint8Array[] = [];
    const viaFs = async (): Promise<void> => {
      fsBytes.length = 0;
      for (const [a, b] of ranges) {
        const buffer = new Uint8Array(b - a);
        const { bytesRead } = await handle.read(buffer, 0, b - a, a);
        fsBytes.push(buffer.subarray(0, bytesRead));
      }
    };
    const viaHttp = async (): Promise<void> => {
      httpBytes.length = 0;
      for (const [a, b] of ranges) {
        const response = await fetch(`${origin}/api/files/${id}`, {
          headers: { ...headers, range: `bytes=${a}-${b - 1}` },
        });
        check(response.status === 206, `range ${a}-${b - 1}: status ${response.status}`);
        httpBytes.push(new Uint8Array(await response.arrayBuffer()));
      }
    };
    await viaFs();
    await viaHttp();
    const runs = QUICK ? 5 : 15;
    const [httpMs, fsMs] = await interleaved([viaHttp, viaFs], runs);
    await handle.close();
    check(
      httpBytes.length === fsBytes.length &&
        httpBytes.every((h, i) => fingerprintBytes(h) === fingerprintBytes(fsBytes[i]!)),
      "view's range bytes differ from the file's",
    );
    const h = median(httpMs!);
    const f = median(fsMs!);
    emit(
      "view.ranges.1GB",
      h,
      f,
      file.fingerprint,
      `view (in process, HTTP on loopback, one request at a time): the first 4 MB + ${RANGE_COUNT} random 64 KB ranges of a ${(file.size / MB).toFixed(0)} MB file, ${(total / MB).toFixed(1)} MB, ${mbps(total, h)}; baseline FileHandle.read of the same ranges ${mbps(total, f)}`,
      { runs, values: httpMs!.map(round), baselineValues: fsMs!.map(round) },
    );
  } finally {
    await server.close();
  }
}
