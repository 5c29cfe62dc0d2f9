/**
 * The view server in team mode (`rollout-studio view RUN --db URL`, issue 18): every `/api/`
 * request names its person by their personal token (users.ts; 401 for none, a wrong one or a
 * revoked one, checked on every request), and the annotations routes read and write that
 * person's document in the team store, with the same shapes and status codes as the file mode's
 * (README.md beside this file). The store decides who may do what; this module only maps its
 * answers and errors to HTTP.
 */
import type { Context } from "hono";
import { annotationsParse, annotationsToJson } from "../io/index.ts";
import { DbError } from "./db/connect.ts";
import type { EventHub } from "./events.ts";
import {
  StoreDenied,
  StoreInvalid,
  StoreNotFound,
  type StoreUser,
  type TeamStore,
} from "./team/types.ts";

/** How `/api/runs` names a person's annotations (and the page keys its offline copy by). */
export function teamAnnotationsPath(store: TeamStore, user: StoreUser): string {
  return `${store.location}, ${JSON.stringify(user.name)}'s annotations`;
}

/** `/api/runs`'s `team` field: who the page is, and which dataset it annotates. */
export function teamInfo(store: TeamStore, user: StoreUser) {
  return { user: user.name, role: user.role, dataset: store.dataset };
}

/** What a write without If-Match is told (428). */
export const IF_MATCH_NEEDED =
  'a write needs If-Match: "<version>" (the ETag of the document it is based on)';

/** The version an If-Match header names (`"v"`, `W/"v"` or bare `v`); null when it names none. */
export function ifMatchBase(header: string | undefined): string | null {
  if (header === undefined) return null;
  return /^\s*(?:W\/)?"?([^"]*)"?\s*$/.exec(header)?.[1] ?? null;
}

/** A store's refusal or a database failure as an HTTP answer; null for anything else. */
export function teamErrorResponse(c: Context, e: unknown): Response | null {
  if (e instanceof StoreDenied) return c.json({ error: e.message }, 403);
  if (e instanceof StoreNotFound) return c.json({ error: e.message }, 404);
  if (e instanceof StoreInvalid) return c.json({ error: e.message }, 400);
  // DbError's message names the database redacted; the driver's own errors are not shown.
  if (e instanceof DbError) return c.json({ error: e.message }, 503);
  if (typeof e === "object" && e !== null && "code" in e && typeof e.code === "string")
    return c.json({ error: `the database refused the request (${e.code})` }, 503);
  return null;
}

/** `GET /api/annotations` in team mode: the caller's document, its version as the ETag. */
export async function teamAnnotationsResponse(
  c: Context,
  store: TeamStore,
  user: StoreUser,
): Promise<Response> {
  const mine = await store.readAnnotations(user);
  c.header("ETag", `"${mine.version}"`);
  return c.body(annotationsToJson(mine.annotations), 200, {
    "Content-Type": "application/json; charset=utf-8",
  });
}

/**
 * `PUT /api/annotations` in team mode: the caller's whole document, if it is still at the
 * If-Match version (409 with the current one if not; all or nothing), then an `annotations`
 * event to the caller's own streams and a `team` event to theirs and every lead's.
 */
export async function teamAnnotationsWrite(
  c: Context,
  store: TeamStore,
  user: StoreUser,
  events: EventHub,
  base: string,
): Promise<Response> {
  const parsed = annotationsParse("request body", await c.req.text());
  if (!parsed.ok)
    return c.json({ error: "the annotations do not validate", issues: parsed.issues }, 400);
  const result = await store.writeDocument(user, parsed.value, base);
  if (result.kind === "stale") {
    c.header("ETag", `"${result.current.version}"`);
    return c.json(
      {
        error: result.message,
        version: result.current.version,
        current: JSON.parse(annotationsToJson(result.current.annotations)) as unknown,
      },
      409,
    );
  }
  events.publish({ event: "annotations", data: { version: result.version }, user: user.id });
  // The leads follow everyone's work live; the writer's own streams hear of it too.
  events.publish({
    event: "team",
    data: { kind: "annotations", user: user.name, groupId: null },
    annotators: [user.name],
  });
  c.header("ETag", `"${result.version}"`);
  return c.json({ version: result.version });
}
