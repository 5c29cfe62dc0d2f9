/**
 * The annotation store behind the view server (issue 18), as one interface with two
 * implementations:
 *
 * - `AnnotationStore`: what both give. The file store (fileStore.ts: `<state>/annotations.json`,
 *   one implicit person, the lead, whose token is the session's) and PostgreSQL (pgStore.ts: the
 *   people `rollout-studio users add` made, each with a personal token).
 * - `TeamStore`: what only the database gives: several people, submission (blind mode), the gold
 *   annotations a lead resolves, and queues.
 *
 * A person's annotations read as a version-1 `Annotations` document (the file format), with each
 * group's version beside it. A write is one group's annotation, named with the version it was
 * read at: it lands (a new version) or is refused as stale with the current state (nothing is
 * overwritten, nothing the caller was told landed is lost). Who may do what is enforced here, in
 * the store, whatever the route above it: an annotator reads and writes only their own
 * annotations; a lead reads everyone's and the gold, and writes their own and the gold.
 */
import type { Annotations, GroupAnnotation, GroupId } from "../../core/index.ts";

export type Role = "annotator" | "lead";
export const ROLES: readonly Role[] = ["annotator", "lead"];

/** A person the store authenticated. Pass it back as `caller`; the store checks it again. */
export interface StoreUser {
  /** The store's key for the person (opaque). */
  readonly id: string;
  readonly name: string;
  readonly role: Role;
}

/**
 * A group annotation's version, opaque to callers: compare for equality and send it back. The
 * database counts writes ("1", "2", ...); the file store uses a hash of the group's annotation.
 * NO_GROUP_VERSION: the person has never written the group.
 */
export type GroupVersion = string;
export const NO_GROUP_VERSION: GroupVersion = "0";

/** One group of one person (or of the gold), as stored now. */
export interface GroupState {
  readonly version: GroupVersion;
  /** null: never written, or cleared (an empty annotation is stored as cleared). */
  readonly annotation: GroupAnnotation | null;
  /** When the person submitted the group (ISO 8601), else null. Gold: when it was resolved. */
  readonly submittedAt: string | null;
}

/** A person's annotations of the dataset. */
export interface PersonAnnotations {
  /** Whose (their name; "gold" for the gold). */
  readonly user: string;
  /**
   * The whole document's version (any group or document field written changes it), for writes
   * of the whole document (`writeDocument`); NO_DOCUMENT_VERSION while nothing is stored.
   */
  readonly version: string;
  /**
   * The version-1 document: every group with an annotation, and the document's other fields
   * (hack taxonomy, judge runs, rubrics, calibration); `annotator` is the person's name.
   */
  readonly annotations: Annotations;
  /** Every group the person ever wrote (cleared ones too, absent from `annotations`): its version. */
  readonly versions: Readonly<Record<GroupId, GroupVersion>>;
  /** The groups the person submitted, with when (ISO 8601). */
  readonly submitted: Readonly<Record<GroupId, string>>;
}

/** The gold annotations, with who resolved each group. */
export interface GoldAnnotations extends PersonAnnotations {
  readonly resolvedBy: Readonly<Record<GroupId, string>>;
}

/** The version of a person's document while nothing is stored (as the file store's "none"). */
export const NO_DOCUMENT_VERSION = "none";

export type DocumentWrite =
  | { readonly kind: "written"; readonly version: string }
  /** Not applied, nothing of it: the document is no longer at the base version. */
  | { readonly kind: "stale"; readonly message: string; readonly current: PersonAnnotations };

export type GroupWrite =
  | { readonly kind: "written"; readonly version: GroupVersion }
  /** Not applied: the group is no longer at the base version. `current` is what is stored. */
  | { readonly kind: "stale"; readonly message: string; readonly current: GroupState };

/** The caller may not do this (an annotator asking for another's annotations, or for the gold). */
export class StoreDenied extends Error {
  override name = "StoreDenied";
}

/** No such person or queue. */
export class StoreNotFound extends Error {
  override name = "StoreNotFound";
}

/** The request itself is wrong (a malformed version, an annotation that does not validate, ...). */
export class StoreInvalid extends Error {
  override name = "StoreInvalid";
}

export interface AnnotationStore {
  readonly kind: "file" | "postgres";
  /** Where the annotations live, fit to show: the file's path, or the redacted URL and dataset. */
  readonly location: string;
  /**
   * The person a token names, or null (unknown, malformed, revoked: checked on every call, no
   * cache). The file store: the session token (null with --no-token) names its one person.
   */
  authenticate(token: string | null): Promise<StoreUser | null>;
  /**
   * A person's annotations: the caller's own when `person` is omitted; another's for a lead only.
   *
   * @throws StoreDenied for an annotator asking for someone else's; StoreNotFound for no such person
   */
  readAnnotations(caller: StoreUser, person?: string): Promise<PersonAnnotations>;
  /**
   * Write the caller's annotation of one group (null or an empty annotation clears it), if it is
   * still at `baseVersion`.
   *
   * @throws StoreInvalid for a malformed version or an annotation that does not validate
   */
  writeGroup(
    caller: StoreUser,
    groupId: GroupId,
    annotation: GroupAnnotation | null,
    baseVersion: GroupVersion,
  ): Promise<GroupWrite>;
  /**
   * Write the caller's whole document (the view server's `PUT /api/annotations`), if it is still
   * at `baseVersion` (PersonAnnotations.version): all of it, or nothing. `annotator` is not
   * stored (it is the person's name).
   *
   * @throws StoreInvalid for a document that does not validate
   */
  writeDocument(
    caller: StoreUser,
    document: Annotations,
    baseVersion: string,
  ): Promise<DocumentWrite>;
  close(): Promise<void>;
}

/** A person, as a lead lists them (never their token). */
export interface UserInfo {
  readonly name: string;
  readonly role: Role;
  /** ISO 8601. */
  readonly createdAt: string;
  /** ISO 8601, or null while the token works. */
  readonly revokedAt: string | null;
}

/** A queue as a lead makes it: the groups already chosen and assigned (core computes both). */
export interface QueueSpec {
  readonly name: string;
  /** Blind: an annotator sees no one else's labels, no judge verdict, no reward until they submit. */
  readonly blind: boolean;
  /** The share of groups given to two people, in [0, 1]. */
  readonly overlap: number;
  /** The seed the sample and the assignment were drawn with (a safe integer). */
  readonly seed: number;
  /** What the groups were chosen by (any JSON: kept for the record and shown). */
  readonly filter: unknown;
  /** The queue's groups, in the order annotators go through them; no repeats. */
  readonly groups: readonly GroupId[];
  /** Who labels which group: every group is one of `groups`, every user a person not revoked. */
  readonly assignments: readonly { readonly groupId: GroupId; readonly user: string }[];
}

export interface QueueInfo {
  readonly name: string;
  readonly blind: boolean;
  readonly overlap: number;
  readonly seed: number;
  /** The spec's filter; null for an annotator in a blind queue (it may tell of rewards). */
  readonly filter: unknown;
  readonly createdBy: string;
  /** ISO 8601. */
  readonly createdAt: string;
  /** Groups in the queue (an annotator: the groups assigned to them). */
  readonly groups: number;
}

export interface QueueItem {
  readonly groupId: GroupId;
  /** 0-based place in the queue's order. */
  readonly position: number;
  /** Who labels it (an annotator is shown only themself). */
  readonly assignees: readonly string[];
}

export interface QueueView {
  readonly queue: QueueInfo;
  /** In the queue's order; an annotator gets only the groups assigned to them. */
  readonly items: readonly QueueItem[];
}

/** One person's progress on a queue ("12 of 40"). */
export interface QueueProgress {
  readonly user: string;
  readonly assigned: number;
  /** Assigned groups the person has an annotation of. */
  readonly annotated: number;
  /** Assigned groups the person submitted. */
  readonly submitted: number;
}

export interface TeamStore extends AnnotationStore {
  readonly kind: "postgres";
  /** The dataset this store reads and writes (a served run's name). */
  readonly dataset: string;
  /** Everyone (a lead), or the caller alone (an annotator). */
  listUsers(caller: StoreUser): Promise<readonly UserInfo[]>;
  /**
   * Every person's annotations of the dataset that has any (a lead only): agreement's input.
   *
   * @throws StoreDenied for an annotator
   */
  readEveryone(caller: StoreUser): Promise<readonly PersonAnnotations[]>;
  /**
   * Mark the caller's annotation of a group submitted (blind mode reveals the rest after it).
   * Submitting again keeps the first time; a later write keeps it too.
   *
   * @throws StoreInvalid when the caller has no annotation of the group
   */
  submitGroup(caller: StoreUser, groupId: GroupId): Promise<GroupState>;
  /** @throws StoreDenied for an annotator */
  readGold(caller: StoreUser): Promise<GoldAnnotations>;
  /**
   * Write a group's gold annotation (the resolution), versioned like a person's.
   *
   * @throws StoreDenied for an annotator
   */
  writeGold(
    caller: StoreUser,
    groupId: GroupId,
    annotation: GroupAnnotation | null,
    baseVersion: GroupVersion,
  ): Promise<GroupWrite>;
  /**
   * Make a queue (a lead only), its groups and assignments in one transaction.
   *
   * @throws StoreDenied for an annotator; StoreInvalid for a bad spec or a name already taken
   */
  createQueue(caller: StoreUser, spec: QueueSpec): Promise<QueueInfo>;
  /** The dataset's queues (a lead), or those the caller is assigned to (an annotator). */
  listQueues(caller: StoreUser): Promise<readonly QueueInfo[]>;
  /** @throws StoreNotFound for no such queue (or, for an annotator, one not assigned to them) */
  readQueue(caller: StoreUser, name: string): Promise<QueueView>;
  /**
   * Progress per assigned person (a lead), or the caller's own (an annotator).
   *
   * @throws StoreNotFound as readQueue
   */
  queueProgress(caller: StoreUser, name: string): Promise<readonly QueueProgress[]>;
  /**
   * Every group held by any blind queue of the dataset, sorted, for anyone who may use the store:
   * not only the caller's (core's `teamVisibility`: a group not given to an annotator today may
   * be given to them tomorrow, so its rewards stay hidden in the page either way).
   */
  blindGroups(caller: StoreUser): Promise<readonly GroupId[]>;
  /**
   * Send a short text (under 8000 bytes) to every server process listening on the same
   * database, this one included (PostgreSQL NOTIFY): how several `view --db` processes tell each
   * other's event streams what changed (teamRelay.ts).
   */
  notify(text: string): Promise<void>;
  /**
   * Hear every `notify` on the database until the returned function stops it (closing the store
   * stops it too). A broken connection is reconnected; `warn` is told, and what was sent while
   * it was down is not heard.
   */
  listen(
    onText: (text: string) => void,
    warn: (message: string) => void,
  ): Promise<() => Promise<void>>;
}
