// @vitest-environment node
/**
 * View-mode annotations against the real `view` server, in-process on a temporary run folder:
 * the page's sync (serverAnnotations.ts) reads and writes `<state dir>/annotations.json`, merges
 * conflicts and another client's writes, and follows the server's event stream (read here by a
 * fetch-based EventSource, as Node has none). The other client is plain `fetch`.
 */
import "fake-indexeddb/auto";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { create } from "zustand";
import {
  ANNOTATIONS_EMPTY,
  GROUP_ANNOTATION_EMPTY,
  type Annotations,
  type GroupAnnotation,
} from "../../core/index.ts";
import type { LoadedDataset } from "../../io/dataset.ts";
import { annotationsParse, annotationsToJson } from "../../io/annotations/annotationsFile.ts";
import { catalogRoots } from "../../server/catalog.ts";
import { viewServerStart, type ViewServer } from "../../server/serve.ts";
import { studioLoad } from "../../server/studioFiles.ts";
import { viewEventStreams } from "../remote/viewEvents.ts";
import { fetchViewRuns, type RemoteRun, type ViewSession } from "../remote/viewSession.ts";
import { openAnnotationsDb } from "./annotationsDb.ts";
import {
  startAnnotationsSync,
  type AnnotationsSync,
  type PersistState,
} from "./annotationsSync.ts";
import {
  startServerAnnotations,
  type ServerAnnotations,
  type ServerAnnotationsOptions,
  type ServerSaveState,
} from "./serverAnnotations.ts";

const TOKEN = "test-token-annotations-0123";
/** The other client's fetch: not the page's, which recordFetch counts. */
const otherFetch = globalThis.fetch;

/** EventSource over fetch: the part of it openViewEvents uses (named events, onerror, close). */
class FetchEventSource {
  onerror: (() => void) | null = null;
  private readonly listeners = new Map<string, ((e: { data: string }) => void)[]>();
  private readonly abort = new AbortController();

  constructor(url: string) {
    this.read(url).catch(() => this.onerror?.());
  }

  addEventListener(type: string, listener: (e: { data: string }) => void): void {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }

  close(): void {
    this.abort.abort();
  }

  private dispatch(block: string): void {
    let event = "message";
    const data: string[] = [];
    for (const line of block.split("\n")) {
      if (line.startsWith("event:")) event = line.slice(6).trim();
      else if (line.startsWith("data:")) data.push(line.slice(5).replace(/^ /, ""));
    }
    if (data.length === 0) return;
    for (const listener of this.listeners.get(event) ?? []) listener({ data: data.join("\n") });
  }

  private async read(url: string): Promise<void> {
    try {
      const response = await fetch(url, { signal: this.abort.signal });
      const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
      let buffer = "";
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        buffer += value;
        for (let end = buffer.indexOf("\n\n"); end >= 0; end = buffer.indexOf("\n\n")) {
          this.dispatch(buffer.slice(0, end));
          buffer = buffer.slice(end + 2);
        }
      }
    } catch {
      if (!this.abort.signal.aborted) this.onerror?.();
    }
  }
}

let studioDir: string;
beforeAll(() => {
  vi.stubGlobal("EventSource", FetchEventSource);
  studioDir = mkdtempSync(join(tmpdir(), "view-ann-studio-"));
  writeFileSync(
    join(studioDir, "index.html"),
    `<!doctype html><html><head><meta http-equiv="Content-Security-Policy" content="script-src 'self'" /></head></html>`,
  );
});
afterAll(() => vi.unstubAllGlobals());

interface State {
  load:
    | { status: "ready"; remote?: RemoteRun; file: File; dataset: LoadedDataset }
    | { status: "idle" };
  annotations: Annotations;
  persist: PersistState;
  server: ServerSaveState;
}

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
  expect(viewEventStreams()).toBe(0);
});

interface Served {
  readonly dir: string;
  readonly session: ViewSession;
  readonly remote: RemoteRun;
  /** `<state dir>/annotations.json`, parsed. */
  readonly onDisk: () => Annotations;
  readonly close: () => Promise<void>;
  readonly path: string;
}

/** A run folder with one data file (or `again`'s, a restart), served in-process on a free port. */
async function serve(options: { annotationsText?: string; again?: Served } = {}): Promise<Served> {
  const dir = options.again?.dir ?? mkdtempSync(join(tmpdir(), "view-ann-"));
  const stateDir = join(dir, ".rollout-studio");
  if (options.again === undefined)
    writeFileSync(join(dir, "run.jsonl"), '{"prompt":"p","completion":"a","reward":1}\n');
  if (options.annotationsText !== undefined) {
    mkdirSync(stateDir);
    writeFileSync(join(stateDir, "annotations.json"), options.annotationsText);
  }
  const server: ViewServer = await viewServerStart({
    roots: await catalogRoots([join(dir, "run.jsonl")], dir),
    studio: await studioLoad(studioDir),
    stateDir,
    host: "127.0.0.1",
    port: 0,
    token: TOKEN,
    version: "0.0.0-test",
    format: null,
    warn: () => undefined,
  });
  let closed = false;
  const close = async (): Promise<void> => {
    if (!closed) await server.close();
    closed = true;
  };
  cleanups.push(close);
  const session: ViewSession = { origin: `http://127.0.0.1:${server.port}`, token: TOKEN };
  const remote: RemoteRun = { session, listing: await fetchViewRuns(session), run: 0 };
  const path = server.annotationsPath;
  const onDisk = (): Annotations => {
    const parsed = annotationsParse("annotations.json", readFileSync(path, "utf8"));
    if (!parsed.ok) throw new Error("annotations.json does not validate");
    return parsed.value;
  };
  return { dir, session, remote, onDisk, close, path };
}

/** Another client (a second tab, a script): the server's document, and a write of it. */
async function otherClient(session: ViewSession) {
  const headers = { Authorization: `Bearer ${session.token}` };
  const response = await otherFetch(`${session.origin}/api/annotations`, { headers });
  const version = JSON.parse(response.headers.get("ETag")!) as string;
  const parsed = annotationsParse("GET", await response.text());
  if (!parsed.ok) throw new Error("the server's document does not validate");
  const put = async (doc: Annotations): Promise<number> => {
    const reply = await otherFetch(`${session.origin}/api/annotations`, {
      method: "PUT",
      headers: { ...headers, "If-Match": `"${version}"` },
      body: annotationsToJson(doc),
    });
    return reply.status;
  };
  return { doc: parsed.value, version, put };
}

const dataset = { file: "run.jsonl", format: "native", groupKey: "prompt", summaries: [] };

/** A page: a store, the server sync over it (and, if asked, the IndexedDB copy), opened on `served`. */
function page(served: Served, options: ServerAnnotationsOptions = {}) {
  const store = create<State>()(() => ({
    load: { status: "idle" },
    annotations: ANNOTATIONS_EMPTY,
    persist: { status: "off" },
    server: { status: "off" },
  }));
  const sync: ServerAnnotations = startServerAnnotations(store, store, {
    ...options,
    debounceMs: 20,
  });
  cleanups.push(() => sync.stop());
  const open = (): void =>
    store.setState({
      load: {
        status: "ready",
        remote: served.remote,
        file: new File([], "run.jsonl"),
        dataset: dataset as unknown as LoadedDataset,
      },
    });
  return { store, sync, open };
}

async function until(ok: () => boolean): Promise<void> {
  for (let i = 0; i < 400 && !ok(); i++) await new Promise((r) => setTimeout(r, 10));
  expect(ok()).toBe(true);
}

const rank = (order: string): GroupAnnotation => ({
  ...GROUP_ANNOTATION_EMPTY,
  ranking: order.split("").map((r) => [`r${r}`]),
});

const withGroup = (a: Annotations, id: string, g: GroupAnnotation): Annotations => ({
  ...a,
  groups: { ...a.groups, [id]: g },
});

describe("view-mode annotations on the server", () => {
  it("merges the server's document on open: the offline copy fills only what it lacks, then is written", async () => {
    const served = await serve({
      annotationsText: annotationsToJson({
        ...ANNOTATIONS_EMPTY,
        groups: { a: rank("01"), b: rank("10") },
      }),
    });
    let restoring = false;
    const { store, sync, open } = page(served, { restoring: () => restoring });
    open();
    // The offline copy restored before the server's reply: an old `a`, and `c` the server lacks.
    restoring = true;
    store.setState({
      annotations: { ...ANNOTATIONS_EMPTY, groups: { a: rank("10"), c: rank("0") } },
    });
    restoring = false;
    await until(() => sync.version() !== null);
    await sync.flush();
    const groups = store.getState().annotations.groups;
    expect(groups.a?.ranking).toEqual(rank("01").ranking);
    expect(groups.b?.ranking).toEqual(rank("10").ranking);
    expect(groups.c?.ranking).toEqual(rank("0").ranking);
    expect(Object.keys(served.onDisk().groups).sort()).toEqual(["a", "b", "c"]);
    expect(store.getState().server).toEqual({ status: "saved", path: served.path, pending: false });
  });

  it("writes a change to annotations.json, and nothing when nothing changed", async () => {
    const served = await serve();
    const calls = recordFetch();
    const { store, sync, open } = page(served);
    open();
    await until(() => sync.version() !== null);
    await sync.flush();
    expect(calls.filter((c) => c.method === "PUT")).toEqual([]);
    expect(existsSync(served.path)).toBe(false);

    store.setState({ annotations: withGroup(ANNOTATIONS_EMPTY, "g", rank("201")) });
    expect(store.getState().server).toMatchObject({ status: "saved", pending: true });
    await sync.flush();
    expect(served.onDisk().groups.g?.ranking).toEqual(rank("201").ranking);
    expect(calls.filter((c) => c.method === "PUT").map((c) => c.status)).toEqual([200]);
    // The write's own event names the version this page has: nothing is read or written again.
    const before = calls.length;
    await new Promise((r) => setTimeout(r, 100));
    await sync.flush();
    expect(calls.slice(before)).toEqual([]);
  });

  it("merges a write that lost a race (409): both changes end on disk", async () => {
    const served = await serve();
    const calls = recordFetch();
    // A page that does not hear the other write first: its PUT is based on the old version.
    const { store, sync, open } = page(served, { subscribe: () => () => undefined });
    open();
    await until(() => sync.version() !== null);
    const other = await otherClient(served.session);
    expect(await other.put(withGroup(other.doc, "theirs", rank("10")))).toBe(200);
    store.setState({ annotations: withGroup(store.getState().annotations, "mine", rank("01")) });
    await sync.flush();
    expect(calls.filter((c) => c.method === "PUT").map((c) => c.status)).toEqual([409, 200]);
    const disk = served.onDisk();
    expect(disk.groups.mine?.ranking).toEqual(rank("01").ranking);
    expect(disk.groups.theirs?.ranking).toEqual(rank("10").ranking);
    expect(Object.keys(store.getState().annotations.groups).sort()).toEqual(["mine", "theirs"]);
    expect(store.getState().server).toMatchObject({ status: "saved", pending: false });
  });

  it("writes a change still waiting when the dataset closes, not the next dataset's", async () => {
    const served = await serve();
    const { store, sync, open } = page(served);
    open();
    await until(() => sync.version() !== null);
    store.setState({ annotations: withGroup(ANNOTATIONS_EMPTY, "g", rank("01")) });
    // Another file opens: the load and the annotations change at once.
    store.setState({ load: { status: "idle" }, annotations: ANNOTATIONS_EMPTY });
    expect(store.getState().server).toEqual({ status: "off" });
    await until(() => existsSync(served.path));
    expect(served.onDisk().groups.g?.ranking).toEqual(rank("01").ranking);
  });

  it("brings another client's write into the store through the annotations event", async () => {
    const served = await serve();
    const { store, sync, open } = page(served);
    open();
    await until(() => sync.version() !== null);
    const other = await otherClient(served.session);
    expect(await other.put(withGroup(other.doc, "g", rank("210")))).toBe(200);
    await until(() => store.getState().annotations.groups.g !== undefined);
    expect(store.getState().annotations.groups.g?.ranking).toEqual(rank("210").ranking);
  });

  it("leaves a file that does not validate as it is until the user changes something", async () => {
    const broken = '{"version": 2, "groups": {}}\n';
    const served = await serve({ annotationsText: broken });
    let restoring = false;
    const { store, sync, open } = page(served, { restoring: () => restoring });
    open();
    await until(() => store.getState().server.status === "invalid");
    const invalid = store.getState().server;
    expect(invalid.status === "invalid" && invalid.message).toContain("version");
    // The offline copy restored: not the user's change, so the file stays.
    restoring = true;
    store.setState({ annotations: withGroup(ANNOTATIONS_EMPTY, "old", rank("0")) });
    restoring = false;
    await sync.flush();
    expect(readFileSync(served.path, "utf8")).toBe(broken);
    // The user's change replaces it, with what the page has.
    store.setState({ annotations: withGroup(store.getState().annotations, "g", rank("10")) });
    await sync.flush();
    expect(Object.keys(served.onDisk().groups).sort()).toEqual(["g", "old"]);
    expect(store.getState().server).toMatchObject({ status: "saved", pending: false });
  });

  it("says so, with the offer to export, when a write cannot land", async () => {
    const served = await serve();
    const { store, sync, open } = page(served);
    open();
    await until(() => sync.version() !== null);
    await served.close();
    store.setState({ annotations: withGroup(ANNOTATIONS_EMPTY, "g", rank("01")) });
    await sync.flush();
    const status = store.getState().server;
    expect(status.status).toBe("error");
    expect(status.status === "error" && status.message).toContain("Export annotations");
    expect(store.getState().annotations.groups.g).toBeDefined();
  });

  it("keeps the IndexedDB copy under the server's file, and restores it into the server", async () => {
    const served = await serve();
    const db = openAnnotationsDb(`view-test-${Date.now()}`);
    const first = page(served);
    const idb = startAnnotationsSync(first.store, db, first.store);
    cleanups.push(() => idb.stop());
    first.open();
    await until(() => idb.fingerprint() !== null);
    expect(idb.fingerprint()).toMatch(/^view:/);
    // Offline: the server is gone, the change stays in the browser.
    await served.close();
    first.store.setState({ annotations: withGroup(ANNOTATIONS_EMPTY, "g", rank("10")) });
    await idb.flushed();

    // `view` again on the same run: a new page restores the copy and writes it to the file.
    const again = await serve({ again: served });
    let idb2: AnnotationsSync | null = null;
    const second = page(again, { restoring: () => idb2?.restoring() ?? false });
    idb2 = startAnnotationsSync(second.store, db, second.store);
    cleanups.push(() => idb2?.stop());
    second.open();
    await until(() => idb2?.fingerprint() === idb.fingerprint());
    await until(() => existsSync(again.path) && again.onDisk().groups.g !== undefined);
    expect(again.onDisk().groups.g?.ranking).toEqual(rank("10").ranking);
  });
});

/** Every fetch from here on: method and reply status (a failed one: status 0). */
function recordFetch(): { method: string; status: number }[] {
  const calls: { method: string; status: number }[] = [];
  const real = globalThis.fetch;
  const spy = vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
    const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    const method = init?.method ?? "GET";
    try {
      const response = await real(input, init);
      if (!url.includes("/api/events")) calls.push({ method, status: response.status });
      return response;
    } catch (e) {
      calls.push({ method, status: 0 });
      throw e;
    }
  });
  cleanups.push(() => spy.mockRestore());
  return calls;
}
