/**
 * Annotations in IndexedDB, one record per annotated group, keyed by [dataset fingerprint, group
 * id]: an action rewrites only the group it changed, so saving stays cheap with thousands of
 * annotated groups, and several datasets keep their annotations apart.
 *
 * Schema versions: 1 holds `groups` and `datasets`; 2 adds `extras`, one record per [fingerprint,
 * kind] for the document's judge runs, rubrics and calibration set-up, each written only when it
 * changes. Opening a version-1 database upgrades it in place and keeps its data.
 */
import { openDB, type DBSchema, type IDBPDatabase } from "idb";
import {
  ANNOTATIONS_EMPTY,
  type AnnotationExtras,
  type Annotations,
  type GroupAnnotation,
} from "../../core/index.ts";

export const DB_NAME = "rollout-studio";
export const DB_VERSION = 2;

/** The extras, each stored in a record of its own. */
export type ExtrasKind = keyof AnnotationExtras;
export const EXTRAS_KINDS: readonly ExtrasKind[] = ["judgeRuns", "rubrics", "calibration"];

interface ExtrasRecord {
  readonly fingerprint: string;
  readonly kind: ExtrasKind;
  /** Stored as written; validated when read back. */
  readonly value: unknown;
  readonly savedAt: number;
}

interface GroupRecord {
  readonly fingerprint: string;
  readonly groupId: string;
  /** Stored as written; validated when read back (storage is untrusted input). */
  readonly annotation: unknown;
  readonly savedAt: number;
}

interface DatasetRecord {
  readonly fingerprint: string;
  /** The file name it was last opened as, for the list of datasets with saved annotations. */
  readonly file: string;
  readonly savedAt: number;
  /** The file-level fields of the annotations (validated when read back). */
  readonly annotator?: unknown;
  readonly hackReasons?: unknown;
}

/** The file-level fields of the annotations, saved beside the groups. */
export type AnnotationsMeta = Pick<Annotations, "annotator" | "hackReasons">;

interface StudioDb extends DBSchema {
  groups: { key: [string, string]; value: GroupRecord; indexes: { byFingerprint: string } };
  datasets: { key: string; value: DatasetRecord };
  extras: { key: [string, string]; value: ExtrasRecord; indexes: { byFingerprint: string } };
}

export interface GroupChange {
  readonly groupId: string;
  /** Null removes the group's record. */
  readonly annotation: GroupAnnotation | null;
}

export interface Restored {
  readonly annotations: Annotations;
  /**
   * Records that failed validation and were left out (reported, never silently dropped): group ids,
   * or an extras kind such as "judgeRuns".
   */
  readonly rejected: readonly string[];
}

export interface AnnotationsDb {
  load(fingerprint: string): Promise<Restored>;
  save(
    fingerprint: string,
    file: string,
    meta: AnnotationsMeta,
    changes: readonly GroupChange[],
    extras?: Partial<AnnotationExtras>,
  ): Promise<void>;
  clear(fingerprint: string): Promise<void>;
  datasets(): Promise<DatasetRecord[]>;
}

export function openAnnotationsDb(name = DB_NAME): AnnotationsDb {
  let db: Promise<IDBPDatabase<StudioDb>> | null = null;
  const open = (): Promise<IDBPDatabase<StudioDb>> =>
    (db ??= openDB<StudioDb>(name, DB_VERSION, {
      upgrade(database, oldVersion) {
        if (oldVersion < 1) {
          const groups = database.createObjectStore("groups", {
            keyPath: ["fingerprint", "groupId"],
          });
          groups.createIndex("byFingerprint", "fingerprint");
          database.createObjectStore("datasets", { keyPath: "fingerprint" });
        }
        if (oldVersion < 2) {
          const extras = database.createObjectStore("extras", { keyPath: ["fingerprint", "kind"] });
          extras.createIndex("byFingerprint", "fingerprint");
        }
      },
    }));
  return {
    async load(fingerprint) {
      const database = await open();
      const records = await database.getAllFromIndex("groups", "byFingerprint", fingerprint);
      const dataset = await database.get("datasets", fingerprint);
      const extraRecords = await database.getAllFromIndex("extras", "byFingerprint", fingerprint);
      // The validators bring zod: loaded on the first restore, not with the first page.
      const [{ groupAnnotationFromUnknown }, extrasSchema] = await Promise.all([
        import("../../io/annotations/annotationsFile.ts"),
        import("../../io/annotations/extrasSchema.ts"),
      ]);
      const groups: Record<string, GroupAnnotation> = {};
      const rejected: string[] = [];
      for (const r of records) {
        const annotation = groupAnnotationFromUnknown(r.annotation);
        if (annotation === null) rejected.push(r.groupId);
        else groups[r.groupId] = annotation;
      }
      const extras: Partial<Record<ExtrasKind, unknown>> = {};
      for (const r of extraRecords) {
        const value =
          r.kind === "judgeRuns"
            ? extrasSchema.judgeRunsFromUnknown(r.value)
            : r.kind === "rubrics"
              ? extrasSchema.rubricBookFromUnknown(r.value)
              : r.kind === "calibration"
                ? extrasSchema.calibrationFromUnknown(r.value)
                : null;
        if (value === null) rejected.push(String(r.kind));
        else extras[r.kind] = value;
      }
      const reasons = dataset?.hackReasons;
      return {
        annotations: {
          ...ANNOTATIONS_EMPTY,
          annotator: typeof dataset?.annotator === "string" ? dataset.annotator : "",
          hackReasons:
            Array.isArray(reasons) &&
            reasons.length > 0 &&
            reasons.every((r) => typeof r === "string" && r !== "")
              ? (reasons as string[])
              : ANNOTATIONS_EMPTY.hackReasons,
          groups,
          ...(extras as Partial<AnnotationExtras>),
        },
        rejected,
      };
    },
    async save(fingerprint, file, meta, changes, extras = {}) {
      const tx = (await open()).transaction(["groups", "datasets", "extras"], "readwrite");
      const now = Date.now();
      const groups = tx.objectStore("groups");
      const writes: Promise<unknown>[] = changes.map((c) =>
        c.annotation === null
          ? groups.delete([fingerprint, c.groupId])
          : groups.put({ fingerprint, groupId: c.groupId, annotation: c.annotation, savedAt: now }),
      );
      writes.push(
        tx.objectStore("datasets").put({
          fingerprint,
          file,
          savedAt: now,
          annotator: meta.annotator,
          hackReasons: [...meta.hackReasons],
        }),
      );
      for (const kind of EXTRAS_KINDS) {
        const value = extras[kind];
        if (value !== undefined)
          writes.push(tx.objectStore("extras").put({ fingerprint, kind, value, savedAt: now }));
      }
      await Promise.all([...writes, tx.done]);
    },
    async clear(fingerprint) {
      const tx = (await open()).transaction(["groups", "datasets", "extras"], "readwrite");
      const keys = await tx.objectStore("groups").index("byFingerprint").getAllKeys(fingerprint);
      const extraKeys = await tx
        .objectStore("extras")
        .index("byFingerprint")
        .getAllKeys(fingerprint);
      await Promise.all([
        ...keys.map((k) => tx.objectStore("groups").delete(k)),
        ...extraKeys.map((k) => tx.objectStore("extras").delete(k)),
        tx.objectStore("datasets").delete(fingerprint),
        tx.done,
      ]);
    },
    async datasets() {
      return (await open()).getAll("datasets");
    },
  };
}

/** The extras whose object changed between two states (reference inequality). */
export function extrasChanges(before: Annotations, after: Annotations): Partial<AnnotationExtras> {
  const out: { -readonly [K in ExtrasKind]?: AnnotationExtras[K] } = {};
  if (before.judgeRuns !== after.judgeRuns) out.judgeRuns = after.judgeRuns;
  if (before.rubrics !== after.rubrics) out.rubrics = after.rubrics;
  if (before.calibration !== after.calibration) out.calibration = after.calibration;
  return out;
}

/** The groups whose annotation object changed between two states (reference inequality). */
export function annotationChanges(before: Annotations, after: Annotations): GroupChange[] {
  const changes: GroupChange[] = [];
  for (const [groupId, annotation] of Object.entries(after.groups))
    if (before.groups[groupId] !== annotation) changes.push({ groupId, annotation });
  // Own keys only: `in` finds "constructor" or "toString" on every object, so a group with such an
  // id was never deleted from storage (found by the round-trip property test).
  for (const groupId of Object.keys(before.groups))
    if (!Object.hasOwn(after.groups, groupId)) changes.push({ groupId, annotation: null });
  return changes;
}
