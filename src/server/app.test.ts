/**
 * The `view` server's routes through `app.request()` (no port): Host check, token, listing,
 * ranges, traversal, annotations versions. The process-level checks (a real port, signals, the
 * built CLI) are e2e/view-security.spec.ts.
 */
import { mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { allowedHosts } from "./access.ts";
import { AnnotationsStore, NO_FILE_VERSION } from "./annotationsStore.ts";
import { createApp } from "./app.ts";
import { catalogRoots, catalogScan, type Catalog } from "./catalog.ts";
import { EventHub } from "./events.ts";
import { studioLoad } from "./studioFiles.ts";

const TOKEN = "test-token-0123456789";
const HOST = "127.0.0.1:7575";
const CSP = "script-src 'self'; object-src 'none'";

const base = mkdtempSync(join(tmpdir(), "view-app-"));
const runDir = join(base, "run");
const stateDir = join(runDir, ".rollout-studio");
const STEP10 =
  '{"prompt":"p","completion":"a","reward":1}\n{"prompt":"p","completion":"b","reward":0}\n';

function setUpFiles(): void {
  mkdirSync(join(runDir, "completions"), { recursive: true });
  writeFileSync(join(runDir, "completions", "completions_00010.jsonl"), STEP10);
  writeFileSync(join(runDir, "completions", "completions_00020.jsonl"), '{"x":2}\n');
  writeFileSync(join(runDir, "notes.txt"), "not data\n");
  writeFileSync(join(base, "secret.jsonl"), '{"secret":"outside the run"}\n');
  symlinkSync(join(base, "secret.jsonl"), join(runDir, "completions", "leak.jsonl"));
  symlinkSync(
    join(runDir, "completions", "completions_00020.jsonl"),
    join(runDir, "completions", "alias.jsonl"),
  );
  const studio = join(base, "studio");
  mkdirSync(join(studio, "assets"), { recursive: true });
  writeFileSync(
    join(studio, "index.html"),
    `<!doctype html><html><head><meta http-equiv="Content-Security-Policy" content="${CSP}" /></head><body>studio</body></html>`,
  );
  writeFileSync(join(studio, "assets", "app.js"), "console.log(1);\n");
}

let catalog: Catalog;
let app: ReturnType<typeof createApp>;
let hub: EventHub;
let store: AnnotationsStore;

beforeAll(async () => {
  setUpFiles();
  catalog = await catalogScan(await catalogRoots([runDir], base));
  hub = new EventHub();
  store = new AnnotationsStore(stateDir);
  app = createApp({
    catalog: () => catalog,
    annotations: store,
    studio: await studioLoad(join(base, "studio")),
    token: TOKEN,
    allowedHosts: () => allowedHosts("127.0.0.1", 7575, []),
    events: hub,
    version: "9.9.9",
    format: null,
    pingMs: 50,
  });
});

const get = (path: string, headers: Record<string, string> = {}) =>
  app.request(path, { headers: { host: HOST, authorization: `Bearer ${TOKEN}`, ...headers } });

interface RunsBody {
  version: string;
  stateDir: string;
  annotations: { path: string; version: string };
  runs: {
    dir: string;
    kind: string;
    files: { id: string; path: string; size: number; step: number; stepSource: string }[];
  }[];
}

const notesOnDisk = (): string | undefined =>
  (
    JSON.parse(readFileSync(join(stateDir, "annotations.json"), "utf8")) as {
      groups: { g1?: { notes: string } };
    }
  ).groups.g1?.notes;

const runs = async (): Promise<RunsBody> => (await (await get("/api/runs")).json()) as RunsBody;
const idOf = async (path: string): Promise<string> => {
  const file = (await runs()).runs.flatMap((r) => r.files).find((f) => f.path === path);
  if (file === undefined) throw new Error(`${path} is not listed`);
  return file.id;
};

describe("Host check and token", () => {
  it("refuses a foreign Host, for the page and the API (DNS rebinding)", async () => {
    for (const path of ["/", "/api/runs"]) {
      const res = await get(path, { host: "evil.example:7575" });
      expect(res.status).toBe(403);
    }
    expect((await get("/", { host: "localhost:7576" })).status).toBe(403);
    expect((await get("/", { host: "localhost:7575" })).status).toBe(200);
    expect((await get("/", { host: "[::1]:7575" })).status).toBe(200);
  });

  it("every /api/ route needs the token: 401 without it or with a wrong one", async () => {
    for (const path of [
      "/api/runs",
      "/api/annotations",
      "/api/events",
      "/api/files/0000000000000000",
      "/api/nope",
    ]) {
      const none = await app.request(path, { headers: { host: HOST } });
      expect(none.status, path).toBe(401);
      const wrong = await get(path, { authorization: "Bearer wrong" });
      expect(wrong.status, path).toBe(401);
    }
    const put = await app.request("/api/annotations", {
      method: "PUT",
      headers: { host: HOST, "if-match": '"none"' },
      body: '{"version":1,"groups":{}}',
    });
    expect(put.status).toBe(401);
  });

  it("takes the token from ?token= too (EventSource cannot set headers)", async () => {
    const res = await app.request(`/api/runs?token=${TOKEN}`, { headers: { host: HOST } });
    expect(res.status).toBe(200);
  });

  it("serves the page without a token, with the build's CSP as a header", async () => {
    const res = await app.request("/", { headers: { host: HOST } });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("studio");
    expect(res.headers.get("content-security-policy")).toBe(`${CSP}; frame-ancestors 'none'`);
    expect(res.headers.get("referrer-policy")).toBe("no-referrer");
    const asset = await app.request("/assets/app.js", { headers: { host: HOST } });
    expect(asset.headers.get("content-type")).toMatch(/^text\/javascript/);
  });
});

describe("GET /api/runs", () => {
  it("lists the runs with ids, paths, sizes, steps; skips non-data files and links that lead out", async () => {
    const body = await runs();
    expect(body.version).toBe("9.9.9");
    expect(body.stateDir).toBe(stateDir);
    expect(body.annotations).toEqual({
      path: join(stateDir, "annotations.json"),
      version: NO_FILE_VERSION,
    });
    expect(body.runs).toHaveLength(1);
    const [run] = body.runs;
    expect(run!.dir).toBe("completions");
    expect(run!.files.map((f) => [f.path, f.size, f.step, f.stepSource])).toEqual([
      ["completions/alias.jsonl", 8, 0, "file-order"],
      ["completions/completions_00010.jsonl", STEP10.length, 1, "file-order"],
      ["completions/completions_00020.jsonl", 8, 2, "file-order"],
    ]);
    expect(new Set(run!.files.map((f) => f.id)).size).toBe(3);
    for (const f of run!.files) expect(f.id).toMatch(/^[0-9a-f]{16}$/);
  });

  it("ids are stable across scans", async () => {
    const again = await catalogScan(catalog.roots);
    expect([...again.files.keys()].sort()).toEqual([...catalog.files.keys()].sort());
  });
});

describe("GET /api/files/:id", () => {
  it("serves the whole file with validators", async () => {
    const res = await get(`/api/files/${await idOf("completions/completions_00010.jsonl")}`);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe(STEP10);
    expect(res.headers.get("accept-ranges")).toBe("bytes");
    expect(res.headers.get("etag")).toMatch(/^"[0-9a-f]+-[0-9a-f]+"$/);
    expect(res.headers.get("last-modified")).not.toBeNull();
    const again = await get(`/api/files/${await idOf("completions/completions_00010.jsonl")}`, {
      "if-none-match": res.headers.get("etag")!,
    });
    expect(again.status).toBe(304);
  });

  it("serves a byte range with 206 and Content-Range", async () => {
    const id = await idOf("completions/completions_00010.jsonl");
    const res = await get(`/api/files/${id}`, { range: "bytes=1-9" });
    expect(res.status).toBe(206);
    expect(res.headers.get("content-range")).toBe(`bytes 1-9/${STEP10.length}`);
    expect(res.headers.get("content-length")).toBe("9");
    expect(await res.text()).toBe(STEP10.slice(1, 10));
    const tail = await get(`/api/files/${id}`, { range: "bytes=-5" });
    expect(await tail.text()).toBe(STEP10.slice(-5));
  });

  it("answers 416 with the size for a range it cannot serve", async () => {
    const id = await idOf("completions/completions_00010.jsonl");
    for (const range of [`bytes=${STEP10.length}-`, "bytes=5-1", "bytes=0-1,4-5", "lines=1-2"]) {
      const res = await get(`/api/files/${id}`, { range });
      expect(res.status, range).toBe(416);
      expect(res.headers.get("content-range")).toBe(`bytes */${STEP10.length}`);
    }
  });

  it("serves nothing by path: plain, encoded and double-encoded .., absolute paths, unknown ids", async () => {
    const attempts = [
      "/api/files/../../secret.jsonl",
      "/api/files/..%2f..%2fsecret.jsonl",
      "/api/files/%2e%2e%2f%2e%2e%2fsecret.jsonl",
      "/api/files/%252e%252e%252fsecret.jsonl",
      `/api/files/${encodeURIComponent(join(base, "secret.jsonl"))}`,
      `/api/files/${join(base, "secret.jsonl")}`,
      "/api/files/completions%2fcompletions_00010.jsonl",
      "/api/files/ffffffffffffffff",
      "/..%2f..%2fsecret.jsonl",
      "/%2e%2e/%2e%2e/secret.jsonl",
      "/assets/../../secret.jsonl",
    ];
    for (const path of attempts) {
      const res = await get(path);
      expect(res.status, path).toBe(404);
      expect(await res.text(), path).not.toContain("outside the run");
    }
  });

  it("a symbolic link inside the folder that leads outside is neither listed nor served", async () => {
    const listed = (await runs()).runs.flatMap((r) => r.files).map((f) => f.path);
    expect(listed).not.toContain("completions/leak.jsonl");
    const { fileId } = await import("./catalog.ts");
    const res = await get(`/api/files/${fileId(join(runDir, "completions", "leak.jsonl"))}`);
    expect(res.status).toBe(404);
    expect(await res.text()).not.toContain("outside the run");
  });
});

describe("annotations", () => {
  const doc = (notes: string) =>
    JSON.stringify({ version: 1, groups: { g1: { ranking: [["r1"], ["r0"]], notes } } });
  const put = (body: string, ifMatch?: string) =>
    app.request("/api/annotations", {
      method: "PUT",
      headers: {
        host: HOST,
        authorization: `Bearer ${TOKEN}`,
        ...(ifMatch === undefined ? {} : { "if-match": ifMatch }),
      },
      body,
    });

  it("reads an empty version-1 document before any write", async () => {
    const res = await get("/api/annotations");
    expect(res.status).toBe(200);
    expect(res.headers.get("etag")).toBe(`"${NO_FILE_VERSION}"`);
    expect(((await res.json()) as { version: number; groups: object }).groups).toEqual({});
  });

  it("writes against the version it was based on, refuses a stale one with the current document", async () => {
    const events: unknown[] = [];
    const stop = hub.subscribe((e) => events.push(e));
    expect((await put(doc("first"))).status).toBe(428);
    const first = await put(doc("first"), `"${NO_FILE_VERSION}"`);
    expect(first.status).toBe(200);
    const v1 = ((await first.json()) as { version: string }).version;
    expect(first.headers.get("etag")).toBe(`"${v1}"`);
    expect(notesOnDisk()).toBe("first");

    // A second tab still on the empty document loses the race: refused, with what is there now.
    const stale = await put(doc("second tab"), `"${NO_FILE_VERSION}"`);
    expect(stale.status).toBe(409);
    const conflict = (await stale.json()) as {
      version: string;
      current: { groups: { g1: { notes: string } } };
    };
    expect(conflict.version).toBe(v1);
    expect(conflict.current.groups.g1.notes).toBe("first");
    expect(notesOnDisk()).toBe("first");

    const second = await put(doc("merged"), `"${v1}"`);
    expect(second.status).toBe(200);
    expect(events).toEqual([
      { event: "annotations", data: { version: v1 } },
      {
        event: "annotations",
        data: { version: ((await second.json()) as { version: string }).version },
      },
    ]);
    stop();
  });

  it("never writes an invalid document: 400 with the field", async () => {
    const before = readFileSync(join(stateDir, "annotations.json"), "utf8");
    const current = (await get("/api/annotations")).headers.get("etag")!;
    const bad = await put(
      JSON.stringify({ version: 1, groups: { g1: { ranking: "r1" } } }),
      current,
    );
    expect(bad.status).toBe(400);
    expect(JSON.stringify(await bad.json())).toContain("ranking");
    expect((await put("{not json", current)).status).toBe(400);
    expect(readFileSync(join(stateDir, "annotations.json"), "utf8")).toBe(before);
  });

  it("two writes at once on the same version: one lands, the other is refused", async () => {
    const current = (await get("/api/annotations")).headers.get("etag")!;
    const results = await Promise.all([put(doc("tab A"), current), put(doc("tab B"), current)]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
  });
});

describe("GET /api/events", () => {
  it("opens with hello, then relays published events", async () => {
    const res = await get("/api/events");
    expect(res.headers.get("content-type")).toMatch(/^text\/event-stream/);
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let text = "";
    const until = async (needle: string) => {
      while (!text.includes(needle)) {
        const { value, done } = await reader.read();
        if (done) break;
        text += decoder.decode(value);
      }
    };
    await until("event: hello");
    hub.publish({
      event: "files",
      data: {
        id: "abc",
        kind: "grown",
        size: 10,
        mtimeMs: 1,
        path: "a.jsonl",
        root: 0,
        run: "",
        step: 0,
        stepSource: "file-order",
      },
    });
    await until('"kind":"grown"');
    expect(text).toContain("event: files");
    await until(": ping");
    hub.close();
    await until("never there");
    await reader.cancel();
  });
});
