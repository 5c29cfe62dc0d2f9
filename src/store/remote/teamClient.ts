/**
 * Team mode's calls (`rollout-studio view RUN --db URL`, issue 18): every `/api/team/...` route
 * of src/server/README.md, with the person's own token, each reply parsed with the schemas of
 * io/view/teamApi.ts and annotations validated by io's annotations parser. A refusal (401, 403,
 * 404, 400, 503) is a `ViewReplyError` naming the route and the server's message; a stale group
 * write is an answer (`kind: "stale"`), not an error.
 */
import type { Annotations, GroupAnnotation, GroupId } from "../../core/index.ts";
import { annotationsParse, groupAnnotationFromUnknown, formatIssue } from "../../io/index.ts";
import type {
  TeamGroupStateReply,
  TeamProgressRow,
  TeamQueueReply,
  TeamQueueSpecBody,
  TeamQueueViewReply,
  TeamStateReply,
  TeamUserReply,
} from "../../io/view/teamApi.ts";
import type { ZodType } from "zod";
import { viewApi, viewFetch, type ViewSession } from "./viewSession.ts";

/** One person's state of one group, its annotation validated. */
export interface TeamGroupState {
  readonly version: string;
  readonly annotation: GroupAnnotation | null;
  readonly submittedAt: string | null;
}

/** A person's annotations, their document validated (the gold adds `resolvedBy`). */
export interface TeamPerson {
  readonly user: string;
  readonly version: string;
  readonly annotations: Annotations;
  readonly versions: Readonly<Record<GroupId, string>>;
  readonly submitted: Readonly<Record<GroupId, string>>;
}
export interface TeamGold extends TeamPerson {
  readonly resolvedBy: Readonly<Record<GroupId, string>>;
}

export type TeamGroupWrite =
  | { readonly kind: "written"; readonly version: string }
  | { readonly kind: "stale"; readonly message: string; readonly current: TeamGroupState };

const json = (body: unknown): RequestInit => ({
  body: JSON.stringify(body),
  headers: { "Content-Type": "application/json" },
});

async function get<T>(
  session: ViewSession,
  path: string,
  pick: (api: Awaited<ReturnType<typeof viewApi>>) => ZodType<T>,
): Promise<T> {
  const response = await viewFetch(session, path);
  const api = await viewApi();
  return api.parseViewReply(path, pick(api), await response.json());
}

function groupStateOf(route: string, state: TeamGroupStateReply): TeamGroupState {
  const annotation =
    state.annotation === null ? null : groupAnnotationFromUnknown(state.annotation);
  if (state.annotation !== null && annotation === null)
    throw new Error(`${route}: the annotation in the reply does not validate`);
  return { version: state.version, annotation, submittedAt: state.submittedAt };
}

function personOf(
  route: string,
  person: {
    user: string;
    version: string;
    annotations: unknown;
    versions: Record<string, string>;
    submitted: Record<string, string>;
  },
): TeamPerson {
  const parsed = annotationsParse(route, JSON.stringify(person.annotations));
  if (!parsed.ok) throw new Error(formatIssue(parsed.issues[0]!));
  return {
    user: person.user,
    version: person.version,
    annotations: parsed.value,
    versions: person.versions,
    submitted: person.submitted,
  };
}

const seg = (value: string): string => encodeURIComponent(value);

/** `GET /api/team/state`: who the caller is, their versions and submissions, the blind groups. */
export function fetchTeamState(session: ViewSession): Promise<TeamStateReply> {
  return get(session, "/api/team/state", (api) => api.teamStateSchema);
}

/** `GET /api/team/users` (lead: everyone; annotator: themself). */
export async function fetchTeamUsers(session: ViewSession): Promise<readonly TeamUserReply[]> {
  return (await get(session, "/api/team/users", (api) => api.teamUsersReplySchema)).users;
}

/** `GET /api/team/queues` (lead: all; annotator: theirs). */
export async function fetchTeamQueues(session: ViewSession): Promise<readonly TeamQueueReply[]> {
  return (await get(session, "/api/team/queues", (api) => api.teamQueuesReplySchema)).queues;
}

/** `POST /api/team/queues` (lead). */
export async function createTeamQueue(
  session: ViewSession,
  spec: TeamQueueSpecBody,
): Promise<TeamQueueReply> {
  const path = "/api/team/queues";
  const response = await viewFetch(session, path, { method: "POST", ...json(spec) });
  const api = await viewApi();
  return api.parseViewReply(path, api.teamQueueCreatedSchema, await response.json()).queue;
}

/** `GET /api/team/queues/:name`. */
export function fetchTeamQueue(session: ViewSession, name: string): Promise<TeamQueueViewReply> {
  return get(session, `/api/team/queues/${seg(name)}`, (api) => api.teamQueueViewSchema);
}

/** `GET /api/team/queues/:name/progress`. */
export async function fetchTeamProgress(
  session: ViewSession,
  name: string,
): Promise<readonly TeamProgressRow[]> {
  const path = `/api/team/queues/${seg(name)}/progress`;
  return (await get(session, path, (api) => api.teamProgressReplySchema)).progress;
}

async function writeGroupAt(
  session: ViewSession,
  path: string,
  annotation: GroupAnnotation | null,
  base: string,
): Promise<TeamGroupWrite> {
  const response = await viewFetch(
    session,
    path,
    {
      method: "PUT",
      body: JSON.stringify({ annotation }),
      headers: { "Content-Type": "application/json", "If-Match": `"${base}"` },
    },
    [409],
  );
  const api = await viewApi();
  const body = (await response.json()) as unknown;
  if (response.status === 409) {
    const conflict = api.parseViewReply(path, api.teamGroupConflictSchema, body);
    return {
      kind: "stale",
      message: conflict.error,
      current: groupStateOf(path, conflict.current),
    };
  }
  return {
    kind: "written",
    version: api.parseViewReply(path, api.teamGroupWrittenSchema, body).version,
  };
}

/** `PUT /api/team/groups/:groupId`: the caller's annotation of one group, if still at `base`. */
export function writeTeamGroup(
  session: ViewSession,
  groupId: GroupId,
  annotation: GroupAnnotation | null,
  base: string,
): Promise<TeamGroupWrite> {
  return writeGroupAt(session, `/api/team/groups/${seg(groupId)}`, annotation, base);
}

/** `POST /api/team/groups/:groupId/submit`: the caller submits their annotation of the group. */
export async function submitTeamGroup(
  session: ViewSession,
  groupId: GroupId,
): Promise<TeamGroupState> {
  const path = `/api/team/groups/${seg(groupId)}/submit`;
  const response = await viewFetch(session, path, { method: "POST" });
  const api = await viewApi();
  const reply = api.parseViewReply(path, api.teamSubmittedSchema, await response.json());
  return groupStateOf(path, reply.state);
}

/** `GET /api/team/annotations/:user` (lead: anyone; annotator: themself). */
export async function fetchTeamPerson(session: ViewSession, user: string): Promise<TeamPerson> {
  const path = `/api/team/annotations/${seg(user)}`;
  return personOf(path, await get(session, path, (api) => api.teamPersonSchema));
}

/** `GET /api/team/everyone` (lead): every person who wrote anything. */
export async function fetchTeamEveryone(session: ViewSession): Promise<readonly TeamPerson[]> {
  const path = "/api/team/everyone";
  const reply = await get(session, path, (api) => api.teamEveryoneSchema);
  return reply.people.map((p) => personOf(path, p));
}

/** `GET /api/team/gold` (lead). */
export async function fetchTeamGold(session: ViewSession): Promise<TeamGold> {
  const path = "/api/team/gold";
  const reply = await get(session, path, (api) => api.teamGoldSchema);
  return { ...personOf(path, reply), resolvedBy: reply.resolvedBy };
}

/** `PUT /api/team/gold/:groupId` (lead): the resolution, if the gold group is still at `base`. */
export function writeTeamGold(
  session: ViewSession,
  groupId: GroupId,
  annotation: GroupAnnotation | null,
  base: string,
): Promise<TeamGroupWrite> {
  return writeGroupAt(session, `/api/team/gold/${seg(groupId)}`, annotation, base);
}
