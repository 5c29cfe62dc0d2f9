/**
 * Team mode's API (`rollout-studio view RUN --db URL`, issue 18) as the page reads it: the shapes
 * of every `/api/team/...` reply and of the `team` event, as zod schemas. The server builds
 * exactly these values (src/server/README.md, "Team mode"); the page parses every reply with
 * them (`parseViewReply`), never trusting it.
 *
 * Annotations travel in the version-1 file format: a person's whole document as the file's JSON
 * object, one group's annotation as a value of the file's `groups` map. They are validated by
 * io's annotations parser on arrival (`annotationsParse`, `groupAnnotationFromUnknown`), so the
 * schemas here keep them as `unknown`.
 */
import { z } from "zod";

export const teamRoleSchema = z.enum(["annotator", "lead"]);

/** `GET /api/team/users`: a lead gets everyone, an annotator only themself. */
export const teamUserSchema = z.object({
  name: z.string(),
  role: teamRoleSchema,
  createdAt: z.string(),
  revokedAt: z.string().nullable(),
});
export const teamUsersReplySchema = z.object({ users: z.array(teamUserSchema) });

/** A queue as listed (`GET /api/team/queues`; for an annotator `groups` counts theirs). */
export const teamQueueSchema = z.object({
  name: z.string(),
  blind: z.boolean(),
  /** The share of the queue given to two annotators, in [0, 1]. */
  overlap: z.number(),
  seed: z.number(),
  /** The filter the lead made it from, as the page sent it (core's `TeamFilter` and selection). */
  filter: z.unknown(),
  createdBy: z.string(),
  createdAt: z.string(),
  groups: z.number().int().nonnegative(),
});
export const teamQueuesReplySchema = z.object({ queues: z.array(teamQueueSchema) });

/**
 * `POST /api/team/queues` (lead): the queue the page built with core's `teamQueue` and
 * `teamAssign`. 201 `{ queue }`; 400 when it does not validate (unknown annotator, a group twice,
 * a name taken); 403 for an annotator.
 */
export const teamQueueSpecSchema = z.object({
  name: z.string(),
  blind: z.boolean(),
  overlap: z.number(),
  seed: z.number().int(),
  filter: z.unknown(),
  groups: z.array(z.string()),
  assignments: z.array(z.object({ groupId: z.string(), user: z.string() })),
});
export const teamQueueCreatedSchema = z.object({ queue: teamQueueSchema });

/** `GET /api/team/queues/:name`: the items in queue order (an annotator: only theirs). */
export const teamQueueViewSchema = z.object({
  queue: teamQueueSchema,
  items: z.array(
    z.object({
      groupId: z.string(),
      position: z.number().int().nonnegative(),
      /** An annotator sees only themself here. */
      assignees: z.array(z.string()),
    }),
  ),
});

/** `GET /api/team/queues/:name/progress`: per assignee (an annotator: only their own row). */
export const teamProgressReplySchema = z.object({
  progress: z.array(
    z.object({
      user: z.string(),
      assigned: z.number().int().nonnegative(),
      annotated: z.number().int().nonnegative(),
      submitted: z.number().int().nonnegative(),
    }),
  ),
});

/** One person's state of one group. `version` "0": never written. */
export const teamGroupStateSchema = z.object({
  version: z.string(),
  /** A value of the version-1 file's `groups` map, or null (none, or cleared). */
  annotation: z.unknown(),
  submittedAt: z.string().nullable(),
});

/**
 * `GET /api/team/state`: the caller and where they stand, for the page to apply blind mode
 * (core's `teamVisibility`) and to show their queue.
 */
export const teamStateSchema = z.object({
  user: z.string(),
  role: teamRoleSchema,
  dataset: z.string(),
  /** The caller's group versions (every group they ever wrote; "0" for none). */
  versions: z.record(z.string(), z.string()),
  /** The groups the caller submitted, with the time (ISO). */
  submitted: z.record(z.string(), z.string()),
  /** Every group held by any blind queue of the dataset (not only the caller's). */
  blind: z.array(z.string()),
});

/**
 * `PUT /api/team/groups/:groupId` (the caller's own annotation of one group; `If-Match: "<group
 * version>"`, 428 without) and `PUT /api/team/gold/:groupId` (lead). Body `{ annotation }`.
 * 200 `{ version }`; 409 `{ error, current }` when the group moved since that version (nothing is
 * written); 400 when the annotation does not validate.
 */
export const teamGroupWriteSchema = z.object({ annotation: z.unknown() });
export const teamGroupWrittenSchema = z.object({ version: z.string() });
export const teamGroupConflictSchema = z.object({
  error: z.string(),
  current: teamGroupStateSchema,
});

/** `POST /api/team/groups/:groupId/submit`: 200 `{ state }`; 400 with nothing to submit. */
export const teamSubmittedSchema = z.object({ state: teamGroupStateSchema });

/**
 * A person's annotations (`GET /api/team/annotations/:user`: a lead reads anyone's, an
 * annotator only their own; `GET /api/team/everyone`, lead: `{ people }`, every person who
 * wrote anything; `GET /api/team/gold`, lead, adds `resolvedBy`).
 */
export const teamPersonSchema = z.object({
  user: z.string(),
  version: z.string(),
  /** The version-1 annotations document (its JSON object), `annotator` = the person's name. */
  annotations: z.unknown(),
  versions: z.record(z.string(), z.string()),
  submitted: z.record(z.string(), z.string()),
});
export const teamEveryoneSchema = z.object({ people: z.array(teamPersonSchema) });
export const teamGoldSchema = teamPersonSchema.extend({
  /** Per resolved group, the lead who resolved it. */
  resolvedBy: z.record(z.string(), z.string()),
});

/**
 * The `team` event on `GET /api/events`: something changed that the page may want to read again.
 * It names no content. A lead's streams get every one; an annotator's get their own writes and
 * the queues that give them groups.
 */
export const TEAM_EVENT_KINDS = ["annotations", "submit", "gold", "queue"] as const;
export const teamEventSchema = z.object({
  kind: z.enum(TEAM_EVENT_KINDS),
  /** Who acted (for `queue`: the lead who made it). */
  user: z.string(),
  /** The group, for `submit` and `gold`; null otherwise. */
  groupId: z.string().nullable(),
});

/** `/api/runs`'s `team` field (absent in the file mode). */
export const viewTeamSchema = z.object({
  user: z.string(),
  role: teamRoleSchema,
  dataset: z.string(),
});

export type TeamUserReply = z.infer<typeof teamUserSchema>;
export type TeamQueueReply = z.infer<typeof teamQueueSchema>;
export type TeamQueueSpecBody = z.infer<typeof teamQueueSpecSchema>;
export type TeamQueueViewReply = z.infer<typeof teamQueueViewSchema>;
export type TeamProgressRow = z.infer<typeof teamProgressReplySchema>["progress"][number];
export type TeamGroupStateReply = z.infer<typeof teamGroupStateSchema>;
export type TeamStateReply = z.infer<typeof teamStateSchema>;
export type TeamPersonReply = z.infer<typeof teamPersonSchema>;
export type TeamGoldReply = z.infer<typeof teamGoldSchema>;
export type TeamEvent = z.infer<typeof teamEventSchema>;
export type ViewTeam = z.infer<typeof viewTeamSchema>;
