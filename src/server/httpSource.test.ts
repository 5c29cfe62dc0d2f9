/**
 * io's httpByteSource against the view server's own routes (app.request as the fetch): a file read
 * by range requests gives the same bytes, and the same indexed dataset and groups, as the same
 * bytes in a local Blob; reads stop at the listed size while the file grows; a failed range names
 * the file and the status.
 */
import { appendFileSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import {
  httpByteSource,
  indexBlobIfPossible,
  readFileBytes,
  readIndexedGroup,
  type ByteSource,
} from "../io/index.ts";
import { allowedHosts } from "./access.ts";
import { AnnotationsStore } from "./annotationsStore.ts";
import { createApp } from "./app.ts";
import { catalogRoots, catalogScan, type Catalog } from "./catalog.ts";
import { EventHub } from "./events.ts";

const TOKEN = "test-token-0123456789";
const HOST = "127.0.0.1:7575";
const base = mkdtempSync(join(tmpdir(), "view-http-source-"));
const runDir = join(base, "run");
const path = join(runDir, "rollouts.jsonl");

function rows(n: number): string {
  let text = "";
  for (let i = 0; i < n; i++)
    text += `${JSON.stringify({ group_id: `g${Math.floor(i / 4)}`, prompt: `prompt ${Math.floor(i / 4)}`, completion: `answer ${i} ${"x".repeat(i % 50)}`, reward: i % 3 === 0 ? 1 : 0 })}\n`;
  return text;
}

let catalog: Catalog;
let app: ReturnType<typeof createApp>;

beforeAll(async () => {
  mkdirSync(runDir, { recursive: true });
  writeFileSync(path, rows(4000));
  catalog = await catalogScan(await catalogRoots([runDir], base));
  app = createApp({
    catalog: () => catalog,
    annotations: new AnnotationsStore(join(runDir, ".rollout-studio")),
    studio: { dir: base, files: new Map(), csp: "" },
    token: TOKEN,
    allowedHosts: () => allowedHosts("127.0.0.1", 7575, []),
    events: new EventHub(),
    version: "9.9.9",
    format: null,
    pingMs: 50,
  });
});

/** app.request as a fetch, with the Host the server was bound to. */
const appFetch = ((input: string, init?: RequestInit) =>
  app.request(input, {
    ...init,
    headers: { host: HOST, ...(init?.headers as Record<string, string>) },
  })) as unknown as typeof fetch;

function source(size?: number): ByteSource {
  const file = catalog.runs[0]!.files[0]!;
  return httpByteSource({
    url: `http://${HOST}/api/files/${file.id}`,
    name: file.path,
    size: size ?? file.size,
    headers: { Authorization: `Bearer ${TOKEN}` },
    fetch: appFetch,
  });
}

const noCallbacks = {
  onProgress: () => undefined,
  onFirstGroup: () => undefined,
  isCancelled: () => false,
};

describe("httpByteSource", () => {
  it("streams and slices the same bytes as the file", async () => {
    const local = new Blob([rows(4000)]);
    const remote = source();
    expect(remote.size).toBe(local.size);
    const [a, b] = await Promise.all([
      readFileBytes(
        remote,
        () => undefined,
        () => false,
      ),
      readFileBytes(
        local,
        () => undefined,
        () => false,
      ),
    ]);
    expect(Buffer.from(a).equals(Buffer.from(b))).toBe(true);
    for (const [s, e] of [
      [0, 10],
      [1000, 5000],
      [local.size - 7, local.size + 100],
      [50, 50],
    ] as const) {
      const got = new Uint8Array(await remote.slice(s, e).arrayBuffer());
      const want = new Uint8Array(await local.slice(s, e).arrayBuffer());
      expect(Buffer.from(got).equals(Buffer.from(want))).toBe(true);
    }
  });

  it("indexes to the same dataset and groups as a local Blob of the same bytes", async () => {
    const local = Object.assign(new Blob([rows(4000)]), { name: source().name });
    const [r, l] = await Promise.all([
      indexBlobIfPossible(source(), "native", noCallbacks),
      indexBlobIfPossible(local, "native", noCallbacks),
    ]);
    expect(r).not.toBeNull();
    expect(r!.dataset.summaries).toEqual(l!.dataset.summaries);
    expect(r!.dataset.stats).toEqual(l!.dataset.stats);
    const id = r!.dataset.summaries[17]!.id;
    const [rg, lg] = await Promise.all([
      readIndexedGroup(r!.state, id),
      readIndexedGroup(l!.state, id),
    ]);
    expect(rg).toEqual(lg);
    expect(rg.group?.rollouts).toHaveLength(4);
  });

  it("reads only up to the listed size while the file grows", async () => {
    const listed = source();
    appendFileSync(path, rows(8).replace(/"g/g, '"late-g'));
    const bytes = await readFileBytes(
      listed,
      () => undefined,
      () => false,
    );
    expect(bytes.length).toBe(listed.size);
    expect(new TextDecoder().decode(bytes)).not.toContain("late-g");
  });

  it("a failed range names the file and the status", async () => {
    const wrong = httpByteSource({
      url: `http://${HOST}/api/files/0000000000000000`,
      name: "gone.jsonl",
      size: 100,
      headers: { Authorization: `Bearer ${TOKEN}` },
      fetch: appFetch,
    });
    await expect(wrong.slice(0, 10).arrayBuffer()).rejects.toThrow(/gone\.jsonl.*HTTP 404/);
    await expect(
      readFileBytes(
        wrong,
        () => undefined,
        () => false,
      ),
    ).rejects.toThrow(/HTTP 404/);
  });
});
