/**
 * Team mode's own routes (`rollout-studio view RUN --db URL`, issue 18): `/api/team/...`, the
 * rest of the team store (state, people, queues, progress, one group's write and submission,
 * anyone's annotations for a lead, the gold). Each reply is built as its type in
 * io/view/teamApi.ts, the schemas the page parses it with, so the compiler holds the two to one
 * shape. The store decides who may do what (an annotator's call for another's data is refused
 * there, whatever the route); this module checks the request's form, maps the store's answers
 * and errors to HTTP (teamErrorResponse), and tells the event streams (events.ts decides whose).
 * In the file mode every `/api/team/...` path is 404 with a line saying why.
 */
import type { Context, Hono } from "hono";
import type { GroupAnnotation } from "../core/index.ts";
import { groupAnnotationFromUnknown } from "../io/index.ts";
import {
  teamGroupWriteSchema,
  teamQueueSpecSchema,
  type TeamEvent,
  type TeamGoldReply,
  type TeamGroupStateReply,
  type TeamPersonReply,
  type TeamProgressRow,
  type TeamQueueReply,
  type TeamQueueViewReply,
  type TeamStateReply,
  type TeamUserReply,
} from "../io/view/teamApi.ts";
import type { EventHub } from "./events.ts";
import type {
  GoldAnnotations,
  GroupState,
  GroupWrite,
  PersonAnnotations,
  QueueInfo,
  StoreUser,
  TeamStore,
} from "./team/types.ts";
import { ifMatchBase, IF_MATCH_NEEDED, teamErrorResponse } from "./teamRoutes.ts";

/** The file mode's answer to every `/api/team/...` path (404). */
export const TEAM_MODE_NEEDED = "team mode needs rollout-studio view --db";

export interface TeamRoutesContext {
  /** The team store; null in the file mode. */
  readonly store: TeamStore | null;
  readonly events: EventHub;
  /** The person the token check authenticated this request as. */
  readonly userOf: (c: Context) => StoreUser | undefined;
}

const groupStateReply = (state: GroupState): TeamGroupStateReply => ({
  version: state.version,
  annotation: state.annotation,
  submittedAt: state.submittedAt,
});

const personReply = (person: PersonAnnotations): TeamPersonReply => ({
  user: person.user,
  version: person.version,
  // The version-1 document's JSON object (the file format is the document as JSON).
  annotations: person.annotations,
  versions: { ...person.versions },
  submitted: { ...person.submitted },
});

const goldReply = (gold: GoldAnnotations): TeamGoldReply => ({
  ...personReply(gold),
  resolvedBy: { ...gold.resolvedBy },
});

const queueReply = (queue: QueueInfo): TeamQueueReply => ({
  name: queue.name,
  blind: queue.blind,
  overlap: queue.overlap,
  seed: queue.seed,
  filter: queue.filter,
  createdBy: queue.createdBy,
  createdAt: queue.createdAt,
  groups: queue.groups,
});

/** The request's JSON body, or null when it is not JSON. */
async function bodyJson(c: Context): Promise<{ value: unknown } | null> {
  try {
    return { value: (await c.req.json()) as unknown };
  } catch {
    return null;
  }
}

/** `{ annotation }` of a group write: the annotation (null clears), or the 400 to answer. */
async function groupWriteBody(
  c: Context,
): Promise<{ ok: true; annotation: GroupAnnotation | null } | { ok: false; error: string }> {
  const body = await bodyJson(c);
  const parsed = body === null ? null : teamGroupWriteSchema.safeParse(body.value);
  if (parsed === null || !parsed.success || parsed.data.annotation === undefined)
    return { ok: false, error: 'the body is { "annotation": <a group annotation, or null> }' };
  if (parsed.data.annotation === null) return { ok: true, annotation: null };
  const annotation = groupAnnotationFromUnknown(parsed.data.annotation);
  return annotation === null
    ? { ok: false, error: "the annotation does not validate (version-1 group annotation)" }
    : { ok: true, annotation };
}

type Route = (
  body: (c: Context, me: StoreUser) => Promise<Response>,
) => (c: Context) => Promise<Response>;

/** A route's handler for the request's person; the store's refusals become 403, 404, 400, 503. */
function routeOf(ctx: TeamRoutesContext): Route {
  return (body) => async (c) => {
    const me = ctx.userOf(c);
    if (me === undefined) throw new Error("a team route was reached without a person");
    try {
      return await body(c, me);
    } catch (e) {
      const answer = teamErrorResponse(c, e);
      if (answer === null) throw e;
      return answer;
    }
  };
}

const param = (c: Context, name: string): string => c.req.param(name) ?? "";

/** A versioned write of one group (the caller's own, or the gold): If-Match, body, answer. */
async function groupWrite(
  c: Context,
  write: (annotation: GroupAnnotation | null, base: string) => Promise<GroupWrite>,
  written: () => void,
): Promise<Response> {
  const base = ifMatchBase(c.req.header("if-match"));
  if (base === null) return c.json({ error: IF_MATCH_NEEDED }, 428);
  const body = await groupWriteBody(c);
  if (!body.ok) return c.json({ error: body.error }, 400);
  const result = await write(body.annotation, base);
  if (result.kind === "stale")
    return c.json({ error: result.message, current: groupStateReply(result.current) }, 409);
  written();
  return c.json({ version: result.version });
}

/** The routes that read: the caller's state, people, queues, progress, annotations, the gold. */
function readRoutes(app: Hono, store: TeamStore, route: Route): void {
  app.get(
    "/api/team/state",
    route(async (c, me) => {
      const [mine, blind] = await Promise.all([store.readAnnotations(me), store.blindGroups(me)]);
      const reply: TeamStateReply = {
        user: me.name,
        role: me.role,
        dataset: store.dataset,
        versions: { ...mine.versions },
        submitted: { ...mine.submitted },
        blind: [...blind],
      };
      return c.json(reply);
    }),
  );
  app.get(
    "/api/team/users",
    route(async (c, me) => {
      const users: TeamUserReply[] = (await store.listUsers(me)).map((u) => ({
        name: u.name,
        role: u.role,
        createdAt: u.createdAt,
        revokedAt: u.revokedAt,
      }));
      return c.json({ users });
    }),
  );
  app.get(
    "/api/team/queues",
    route(async (c, me) => c.json({ queues: (await store.listQueues(me)).map(queueReply) })),
  );
  app.get(
    "/api/team/queues/:name",
    route(async (c, me) => {
      const view = await store.readQueue(me, param(c, "name"));
      const reply: TeamQueueViewReply = {
        queue: queueReply(view.queue),
        items: view.items.map((i) => ({
          groupId: i.groupId,
          position: i.position,
          assignees: [...i.assignees],
        })),
      };
      return c.json(reply);
    }),
  );
  app.get(
    "/api/team/queues/:name/progress",
    route(async (c, me) => {
      const rows = await store.queueProgress(me, param(c, "name"));
      const progress: TeamProgressRow[] = rows.map((p) => ({
        user: p.user,
        assigned: p.assigned,
        annotated: p.annotated,
        submitted: p.submitted,
      }));
      return c.json({ progress });
    }),
  );
  app.get(
    "/api/team/annotations/:user",
    route(async (c, me) => c.json(personReply(await store.readAnnotations(me, param(c, "user"))))),
  );
  app.get(
    "/api/team/everyone",
    route(async (c, me) => c.json({ people: (await store.readEveryone(me)).map(personReply) })),
  );
  app.get(
    "/api/team/gold",
    route(async (c, me) => c.json(goldReply(await store.readGold(me)))),
  );
}

/** The routes that write: a queue, one group of the caller's, its submission, the gold. */
function writeRoutes(app: Hono, store: TeamStore, events: EventHub, route: Route): void {
  const publish = (data: TeamEvent, annotators: readonly string[]) =>
    events.publish({ event: "team", data, annotators });
  app.post(
    "/api/team/queues",
    route(async (c, me) => {
      const body = await bodyJson(c);
      const spec = body === null ? null : teamQueueSpecSchema.safeParse(body.value);
      if (spec === null || !spec.success)
        return c.json(
          {
            error:
              "the body is a queue: { name, blind, overlap, seed, filter, groups, assignments }",
            issues: spec?.success === false ? spec.error.issues.map((i) => i.message) : [],
          },
          400,
        );
      const queue = await store.createQueue(me, spec.data);
      // The lead's streams, and those of everyone the queue gives groups to.
      const assignees = [...new Set(spec.data.assignments.map((a) => a.user))];
      publish({ kind: "queue", user: me.name, groupId: null }, assignees);
      return c.json({ queue: queueReply(queue) }, 201);
    }),
  );
  app.put(
    "/api/team/groups/:groupId",
    route((c, me) => {
      const groupId = param(c, "groupId");
      return groupWrite(
        c,
        (annotation, base) => store.writeGroup(me, groupId, annotation, base),
        () => publish({ kind: "annotations", user: me.name, groupId: null }, [me.name]),
      );
    }),
  );
  app.post(
    "/api/team/groups/:groupId/submit",
    route(async (c, me) => {
      const groupId = param(c, "groupId");
      const state = await store.submitGroup(me, groupId);
      publish({ kind: "submit", user: me.name, groupId }, [me.name]);
      return c.json({ state: groupStateReply(state) });
    }),
  );
  app.put(
    "/api/team/gold/:groupId",
    route((c, me) => {
      const groupId = param(c, "groupId");
      return groupWrite(
        c,
        (annotation, base) => store.writeGold(me, groupId, annotation, base),
        // Leads only: an annotator never hears of the gold.
        () => publish({ kind: "gold", user: me.name, groupId }, []),
      );
    }),
  );
}

/** Register the `/api/team/...` routes (after the token check, before the API's 404). */
export function teamApiRoutes(app: Hono, ctx: TeamRoutesContext): void {
  if (ctx.store === null) {
    app.all("/api/team/*", (c) => c.json({ error: TEAM_MODE_NEEDED }, 404));
    return;
  }
  const route = routeOf(ctx);
  readRoutes(app, ctx.store, route);
  writeRoutes(app, ctx.store, ctx.events, route);
}
