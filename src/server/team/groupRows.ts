/**
 * Between the store's rows and core's shapes: a group annotation checked and normalised on its
 * way in (the version-1 file's rules, io/annotations/annotationsFile.ts), validated again on its
 * way out (storage is a boundary too), versions checked, and a person's rows gathered into the
 * version-1 document. Pure; shared by the PostgreSQL and file stores.
 */
import { createHash } from "node:crypto";
import {
  ANNOTATIONS_EMPTY,
  groupAnnotationIsEmpty,
  type Annotations,
  type GroupAnnotation,
  type GroupId,
} from "../../core/index.ts";
import { annotationsParse, groupAnnotationFromUnknown } from "../../io/index.ts";
import {
  NO_DOCUMENT_VERSION,
  NO_GROUP_VERSION,
  StoreInvalid,
  type GroupState,
  type GroupVersion,
  type PersonAnnotations,
} from "./types.ts";

/** The longest group id the store takes (ids are a format's, and short in practice). */
export const GROUP_ID_MAX = 1024;

/** @throws StoreInvalid for an id that is empty, too long, or holds a NUL (text cannot). */
export function checkGroupId(groupId: GroupId): void {
  if (typeof groupId !== "string" || groupId === "")
    throw new StoreInvalid("a group id is a non-empty string");
  if (groupId.length > GROUP_ID_MAX)
    throw new StoreInvalid(`a group id has at most ${GROUP_ID_MAX} characters`);
  if (groupId.includes("\u0000")) throw new StoreInvalid("a group id cannot hold a NUL character");
}

/**
 * The annotation as it is stored: validated by the file format's rules and normalised (an empty
 * annotation is stored as cleared: null).
 *
 * @throws StoreInvalid naming what does not validate
 */
export function annotationIn(
  groupId: GroupId,
  annotation: GroupAnnotation | null,
): GroupAnnotation | null {
  if (annotation === null) return null;
  // Parsed as the file's only group, under a fixed key (an id such as "__proto__" stays data).
  const text = JSON.stringify({ version: 1, groups: { g: annotation } });
  // PostgreSQL's text and jsonb cannot hold U+0000.
  if (text.includes("\\u0000"))
    throw new StoreInvalid("an annotation cannot hold a NUL character (U+0000)");
  const parsed = annotationsParse("annotation", text);
  if (!parsed.ok)
    throw new StoreInvalid(
      `the annotation of group ${JSON.stringify(groupId)} does not validate: ${parsed.issues.map((i) => i.message).join("; ")}`,
    );
  const normal = parsed.value.groups.g!;
  return groupAnnotationIsEmpty(normal) ? null : normal;
}

/**
 * A stored annotation read back: validated (another build, or a hand edit, may have written it).
 *
 * @throws Error when it does not validate: reads stop rather than drop a person's work unseen
 */
export function annotationOut(where: string, value: unknown): GroupAnnotation | null {
  if (value === null || value === undefined) return null;
  const parsed = groupAnnotationFromUnknown(value);
  if (parsed === null) throw new Error(`the stored annotation of ${where} does not validate`);
  return parsed;
}

/** The largest version a database row holds (PostgreSQL's integer). */
const VERSION_MAX = 2_147_483_647;

/**
 * A database version as a number (0: never written).
 *
 * @throws StoreInvalid for anything but a whole number in range
 */
export function versionNumber(version: GroupVersion): number {
  if (typeof version !== "string" || !/^\d{1,10}$/.test(version))
    throw new StoreInvalid(
      `a version is a whole number as text ("${NO_GROUP_VERSION}": never written); got ${JSON.stringify(version)}`,
    );
  const n = Number(version);
  if (n > VERSION_MAX) throw new StoreInvalid(`version ${version} is out of range`);
  return n;
}

export const NEVER_WRITTEN: GroupState = {
  version: NO_GROUP_VERSION,
  annotation: null,
  submittedAt: null,
};

/** The refusal's words: what happened, and what the writer does next. */
export function staleMessage(groupId: GroupId, base: GroupVersion, current: GroupVersion): string {
  return `group ${JSON.stringify(groupId)} changed since version ${base} (it is at version ${current} now): this write was not applied; merge it with the current annotation and write again`;
}

export interface StoredGroup {
  readonly groupId: GroupId;
  readonly state: GroupState;
}

/** The document's fields besides its groups and annotator, kept per person in the database. */
export type DocumentExtras = Pick<
  Annotations,
  "hackReasons" | "judgeRuns" | "rubrics" | "calibration"
>;

export const EXTRAS_EMPTY: DocumentExtras = {
  hackReasons: ANNOTATIONS_EMPTY.hackReasons,
  judgeRuns: ANNOTATIONS_EMPTY.judgeRuns,
  rubrics: ANNOTATIONS_EMPTY.rubrics,
  calibration: ANNOTATIONS_EMPTY.calibration,
};

export function extrasOf(document: Annotations): DocumentExtras {
  const { hackReasons, judgeRuns, rubrics, calibration } = document;
  return { hackReasons, judgeRuns, rubrics, calibration };
}

/**
 * Stored document fields read back, validated by the file format's rules.
 *
 * @throws Error when they do not validate
 */
export function extrasOut(where: string, value: unknown): DocumentExtras {
  const text = JSON.stringify({ ...(value as object), version: 1, groups: {} });
  const parsed = annotationsParse(where, text);
  if (!parsed.ok) throw new Error(`the stored document fields of ${where} do not validate`);
  return extrasOf(parsed.value);
}

/**
 * JSON with every object's keys sorted: equal values give equal text, whatever order they were
 * built or stored in (jsonb orders keys its own way).
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v !== null && typeof v === "object" && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}

/**
 * A person's document version: a hash of every group's version and the document fields'
 * version, so any write changes it; NO_DOCUMENT_VERSION while nothing is stored.
 */
export function documentVersion(
  versions: Readonly<Record<GroupId, GroupVersion>>,
  extrasVersion: GroupVersion,
): string {
  const groups = Object.entries(versions).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  if (groups.length === 0 && extrasVersion === NO_GROUP_VERSION) return NO_DOCUMENT_VERSION;
  const text = JSON.stringify([groups, extrasVersion]);
  return createHash("sha256").update(text).digest("hex").slice(0, 16);
}

/** A person's rows as the version-1 document, with each group's version and submission. */
export function personAnnotations(
  user: string,
  rows: readonly StoredGroup[],
  extras: { readonly value: DocumentExtras; readonly version: GroupVersion } = {
    value: EXTRAS_EMPTY,
    version: NO_GROUP_VERSION,
  },
): PersonAnnotations {
  // fromEntries defines own properties: an id such as "__proto__" stays a group.
  const groups: Record<GroupId, GroupAnnotation> = Object.fromEntries(
    rows.flatMap(({ groupId, state }) =>
      state.annotation === null ? [] : [[groupId, state.annotation] as const],
    ),
  );
  const versions: Record<GroupId, GroupVersion> = Object.fromEntries(
    rows.map(({ groupId, state }) => [groupId, state.version] as const),
  );
  const submitted: Record<GroupId, string> = Object.fromEntries(
    rows.flatMap(({ groupId, state }) =>
      state.submittedAt === null ? [] : [[groupId, state.submittedAt] as const],
    ),
  );
  return {
    user,
    version: documentVersion(versions, extras.version),
    annotations: { ...ANNOTATIONS_EMPTY, ...extras.value, annotator: user, groups },
    versions,
    submitted,
  };
}
