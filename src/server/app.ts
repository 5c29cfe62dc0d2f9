/**
 * The `rollout-studio view` server's routes (Hono): the built studio at `/`, the data API under
 * `/api/` (README.md beside this file is the API's reference). Every request passes the Host
 * check; every `/api/` request needs the session token. Transport-free: serve.ts binds it to a
 * port, and the tests call `app.request()`.
 */
import { Hono, type Context, type Env } from "hono";
import { HTTPException } from "hono/http-exception";
import { streamSSE } from "hono/streaming";
import type { FileHandle } from "node:fs/promises";
import { hostAllowed, requestToken, tokenMatches } from "./access.ts";
import type { AnnotationsStore } from "./annotationsStore.ts";
import { catalogOpen, type Catalog } from "./catalog.ts";
import { eventReaches, type EventHub } from "./events.ts";
import { rangeParse } from "./ranges.ts";
import type { Studio } from "./studioFiles.ts";
import { readFile } from "node:fs/promises";
import type { StoreUser, TeamStore } from "./team/types.ts";
import { teamApiRoutes } from "./teamApiRoutes.ts";
import {
  ifMatchBase,
  IF_MATCH_NEEDED,
  teamAnnotationsPath,
  teamAnnotationsResponse,
  teamAnnotationsWrite,
  teamErrorResponse,
  teamInfo,
} from "./teamRoutes.ts";

export interface ServerContext {
  /** The files and runs as last scanned. */
  readonly catalog: () => Catalog;
  readonly annotations: AnnotationsStore;
  readonly studio: Studio;
  /** The session token; null with --no-token (loopback only). */
  readonly token: string | null;
  /** The Host header values accepted (known once the port is bound). */
  readonly allowedHosts: () => ReadonlySet<string>;
  readonly events: EventHub;
  /** The package's version. */
  readonly version: string;
  /** `--format`, for the studio to read the files with; null to detect. */
  readonly format: string | null;
  /**
   * `--compare`: the page opens root 0's first run as run A and compares root 1's first run (run
   * B) with it. Absent or false: no comparison.
   */
  readonly compare?: boolean;
  /** Milliseconds between keep-alive comments on an event stream. */
  readonly pingMs?: number;
  /**
   * Team mode (`view --db`): the people and their annotations are in this store; every `/api/`
   * request carries a person's own token (`token` is not used), and the annotations routes are
   * that person's (teamRoutes.ts). Absent or null: the file mode, as before.
   */
  readonly team?: TeamStore | null;
}

/** The person each team-mode request was authenticated as (set by the token check). */
type People = WeakMap<Request, StoreUser>;

/** A file id as catalog.ts makes them; anything else is not looked up at all. */
const FILE_ID = /^[0-9a-f]{16}$/;

const CHUNK = 256 * 1024;

/** Bytes [start, end] of an open file as a stream; the handle is closed at the end or on cancel. */
function fileStream(handle: FileHandle, start: number, end: number): ReadableStream<Uint8Array> {
  let position = start;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const want = Math.min(CHUNK, end + 1 - position);
      if (want <= 0) {
        await handle.close();
        controller.close();
        return;
      }
      const buffer = new Uint8Array(want);
      const { bytesRead } = await handle.read(buffer, 0, want, position);
      if (bytesRead === 0) {
        // The file shrank while being read: end here; the client sees fewer bytes than announced.
        await handle.close();
        controller.close();
        return;
      }
      position += bytesRead;
      controller.enqueue(buffer.subarray(0, bytesRead));
    },
    async cancel() {
      await handle.close();
    },
  });
}

/** `GET /api/runs`: the roots, and the runs with their files. */
async function runsResponse(c: Context, ctx: ServerContext, user?: StoreUser): Promise<Response> {
  const catalog = ctx.catalog();
  const team = ctx.team ?? null;
  const annotations =
    team === null || user === undefined
      ? { path: ctx.annotations.path, version: (await ctx.annotations.read()).version }
      : {
          path: teamAnnotationsPath(team, user),
          version: (await team.readAnnotations(user)).version,
        };
  return c.json({
    version: ctx.version,
    format: ctx.format,
    compare: ctx.compare ?? false,
    stateDir: ctx.annotations.stateDir,
    annotations,
    ...(team === null || user === undefined ? {} : { team: teamInfo(team, user) }),
    roots: catalog.roots.map((r) => ({ path: r.arg, kind: r.kind })),
    runs: catalog.runs.map((run) => ({
      root: run.root,
      dir: run.dir,
      kind: run.kind,
      files: run.files.map((f) => ({
        id: f.id,
        path: f.path,
        size: f.size,
        mtimeMs: f.mtimeMs,
        step: f.step,
        stepSource: f.stepSource,
      })),
    })),
  });
}

/**
 * `GET /api/files/:id` (and HEAD): a listed file by its id, whole or one byte range. The id is
 * never a path: anything but a catalog id is 404 without a look-up, and catalogOpen checks the
 * file's real path again before opening it.
 */
async function fileResponse(
  c: Context<Env, "/api/files/:id">,
  ctx: ServerContext,
): Promise<Response> {
  const id = c.req.param("id");
  if (!FILE_ID.test(id)) return c.json({ error: "no such file" }, 404);
  const opened = await catalogOpen(ctx.catalog(), id);
  if (!opened.ok)
    return c.json(
      {
        error:
          opened.error === "outside"
            ? "the file now leads outside the paths served"
            : "no such file",
      },
      404,
    );
  const { handle } = opened;
  let keep = false;
  try {
    const info = await handle.stat();
    const size = info.size;
    const etag = `"${size.toString(16)}-${Math.trunc(info.mtimeMs).toString(16)}"`;
    c.header("Accept-Ranges", "bytes");
    c.header("ETag", etag);
    c.header("Last-Modified", info.mtime.toUTCString());
    c.header("Cache-Control", "no-cache");
    c.header("Content-Type", "application/octet-stream");
    if (c.req.header("if-none-match") === etag) return c.body(null, 304);
    const range = rangeParse(c.req.header("range") ?? null, size);
    if (range.kind === "unsatisfiable") {
      c.header("Content-Range", `bytes */${size}`);
      return c.json({ error: "one satisfiable byte range per request", size }, 416);
    }
    const [start, end] = range.kind === "range" ? [range.start, range.end] : [0, size - 1];
    const length = Math.max(0, end - start + 1);
    c.header("Content-Length", String(length));
    if (range.kind === "range") c.header("Content-Range", `bytes ${start}-${end}/${size}`);
    const status = range.kind === "range" ? 206 : 200;
    if (c.req.method === "HEAD" || length === 0) return c.body(null, status);
    keep = true;
    return c.body(fileStream(handle, start, end), status);
  } finally {
    if (!keep) await handle.close();
  }
}

/**
 * Team mode: whether the token of a stream's request still names its person (checked at every
 * keep-alive). A database that cannot answer keeps the stream: the next check decides.
 */
async function stillValid(team: TeamStore, c: Context, user: StoreUser): Promise<boolean> {
  const token = requestToken(c.req.header("authorization"), c.req.query("token"));
  try {
    return (await team.authenticate(token))?.id === user.id;
  } catch {
    return true;
  }
}

/**
 * `GET /api/events`: an event stream that opens with `hello` (the annotations' version), relays
 * every published event and sends a keep-alive comment every `pingMs`, until the client goes or
 * the server closes (or, in team mode, the person's token is revoked: checked at each keep-alive).
 */
function eventStream(c: Context, ctx: ServerContext, pingMs: number, user?: StoreUser): Response {
  return streamSSE(c, async (stream) => {
    let done = false;
    // The keep-alive wait, cut short on stop: a pending timer would hold the process open.
    let timer: ReturnType<typeof setTimeout> | undefined;
    let wake: () => void = () => undefined;
    const pause = () =>
      new Promise<void>((resolve) => {
        wake = resolve;
        timer = setTimeout(resolve, pingMs);
      });
    const stop = () => {
      done = true;
      unsubscribe();
      unclose();
      clearTimeout(timer);
      wake();
    };
    const unsubscribe = ctx.events.subscribe((e) => {
      // Team mode: a person hears of their own annotations, and of the team events for them.
      if (!eventReaches(e, user)) return;
      stream.writeSSE({ event: e.event, data: JSON.stringify(e.data) }).catch(stop);
    });
    const unclose = ctx.events.onClose(() => {
      stop();
      stream.close().catch(() => undefined);
    });
    stream.onAbort(stop);
    const annotations =
      ctx.team && user !== undefined
        ? await ctx.team.readAnnotations(user)
        : await ctx.annotations.read();
    await stream.writeSSE({
      event: "hello",
      data: JSON.stringify({ annotations: { version: annotations.version } }),
    });
    while (!done) {
      await pause();
      if (!done && user !== undefined && ctx.team && !(await stillValid(ctx.team, c, user))) {
        // Revoked while the stream was open: it ends, as every other request of theirs fails.
        stop();
        await stream.close();
      }
      if (!done) await stream.write(": ping\n\n");
    }
  });
}

/** `GET /api/annotations`: the document as stored, its version as the ETag (422 if it does not validate). */
async function annotationsResponse(c: Context, ctx: ServerContext): Promise<Response> {
  const current = await ctx.annotations.read();
  c.header("ETag", `"${current.version}"`);
  if (!current.ok)
    return c.json(
      {
        error: `${ctx.annotations.path} does not validate; a PUT with If-Match replaces it`,
        issues: current.issues,
        version: current.version,
      },
      422,
    );
  return c.body(current.text, 200, { "Content-Type": "application/json; charset=utf-8" });
}

/**
 * `PUT /api/annotations`: replace the document if it is still the version named in If-Match (409
 * with the current one if not), and tell every event stream the new version.
 */
async function annotationsWrite(c: Context, ctx: ServerContext, people: People): Promise<Response> {
  const base = ifMatchBase(c.req.header("if-match"));
  if (base === null) return c.json({ error: IF_MATCH_NEEDED }, 428);
  const user = people.get(c.req.raw);
  if (ctx.team && user !== undefined)
    return teamAnnotationsWrite(c, ctx.team, user, ctx.events, base);
  const result = await ctx.annotations.write(await c.req.text(), base);
  if (result.kind === "invalid")
    return c.json({ error: "the annotations do not validate", issues: result.issues }, 400);
  if (result.kind === "conflict") {
    c.header("ETag", `"${result.current.version}"`);
    return c.json(
      {
        error:
          "the annotations changed since the version this write is based on; merge and write again",
        version: result.current.version,
        current: result.current.ok ? (JSON.parse(result.current.text) as unknown) : null,
      },
      409,
    );
  }
  ctx.events.publish({ event: "annotations", data: { version: result.version } });
  c.header("ETag", `"${result.version}"`);
  return c.json({ version: result.version });
}

/** Any other path: a file of the studio's build by its URL path (the page needs no token). */
async function studioFileResponse(c: Context, ctx: ServerContext): Promise<Response> {
  const path = c.req.path === "/" ? "/index.html" : c.req.path;
  const file = ctx.studio.files.get(path);
  if (file === undefined) return c.text("Not found\n", 404);
  const body = await readFile(file.abs).catch(() => null);
  if (body === null) return c.text("Not found\n", 404);
  // The build's own policy, plus what only a header can say: no framing.
  c.header("Content-Security-Policy", `${ctx.studio.csp}; frame-ancestors 'none'`);
  c.header("Content-Type", file.type);
  c.header(
    "Cache-Control",
    path.startsWith("/assets/") ? "public, max-age=31536000, immutable" : "no-cache",
  );
  return c.body(body, 200);
}

/**
 * The app: the Host check on every request, the token on every `/api/` request (both registered
 * before any route, so no route is reached without them), then the API routes, a 404 for any other
 * `/api/` path, and the studio's build.
 */
export function createApp(ctx: ServerContext): Hono {
  const app = new Hono();
  const pingMs = ctx.pingMs ?? 15_000;
  const people: People = new WeakMap();
  const team = ctx.team ?? null;

  app.use("*", async (c, next) => {
    if (!hostAllowed(c.req.header("host"), ctx.allowedHosts())) {
      return c.text("rollout-studio view: this Host is not served (DNS rebinding guard)\n", 403);
    }
    await next();
    c.header("X-Content-Type-Options", "nosniff");
    // The page's URL carries the token: never send it on in a Referer.
    c.header("Referrer-Policy", "no-referrer");
  });

  app.use("/api/*", async (c, next) => {
    const given = requestToken(c.req.header("authorization"), c.req.query("token"));
    if (team !== null) {
      // A person's own token, checked against the store on every request (no cache: a revoked
      // token fails at once).
      const user = await team.authenticate(given);
      if (user === null) {
        c.header("WWW-Authenticate", 'Bearer realm="rollout-studio"');
        return c.json({ error: "the personal token is missing, wrong or revoked" }, 401);
      }
      people.set(c.req.raw, user);
    } else if (ctx.token !== null && !tokenMatches(given, ctx.token)) {
      c.header("WWW-Authenticate", 'Bearer realm="rollout-studio"');
      return c.json({ error: "the session token is missing or wrong" }, 401);
    }
    c.header("Cache-Control", "no-store");
    await next();
  });

  const userOf = (c: Context) => people.get(c.req.raw);
  app.get("/api/runs", (c) => runsResponse(c, ctx, userOf(c)));
  app.get("/api/files/:id", (c) => fileResponse(c, ctx));
  app.get("/api/events", (c) => eventStream(c, ctx, pingMs, userOf(c)));
  app.get("/api/annotations", (c) => {
    const user = userOf(c);
    return team !== null && user !== undefined
      ? teamAnnotationsResponse(c, team, user)
      : annotationsResponse(c, ctx);
  });
  app.put("/api/annotations", (c) => annotationsWrite(c, ctx, people));
  teamApiRoutes(app, { store: team, events: ctx.events, userOf });
  app.all("/api/*", (c) => c.json({ error: "no such API route" }, 404));

  app.get("*", (c) => studioFileResponse(c, ctx));

  // Team mode: the store's refusals and a database that cannot be reached are answers, not 500s
  // (and never show the database's URL unredacted). The file mode keeps Hono's own handler.
  if (team !== null)
    app.onError((e, c) => {
      if (e instanceof HTTPException) return e.getResponse();
      const answer = teamErrorResponse(c, e);
      if (answer !== null) return answer;
      console.error(`rollout-studio view: ${e.message}`);
      return c.text("Internal Server Error", 500);
    });

  return app;
}
