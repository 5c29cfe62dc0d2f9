/**
 * The file store behind the AnnotationStore interface: `<state dir>/annotations.json` of `view`
 * (annotationsStore.ts, whose document-level API and behaviour stay as they are), seen as a store
 * of one person, the lead, whose token is the session's. It gives what both stores give: read the
 * document, and write one group at the version it was read at.
 *
 * A group's version here is the first 16 hex digits of the SHA-256 of its annotation (normal
 * form), "0" while the file has none: any writer that changes the group changes it, and a write
 * based on the content now in the file loses nothing. A group write reads the file, checks the
 * group, and writes the whole document based on the file's version; when another writer changed
 * the file in between (another group, a PUT, `rollout-studio judge`) it reads again and checks
 * again, so only a change to the same group makes it stale.
 */
import { createHash } from "node:crypto";
import type { Annotations, GroupAnnotation, GroupId } from "../../core/index.ts";
import { annotationsParse, annotationsToJson } from "../../io/index.ts";
import { tokenMatches } from "../access.ts";
import type { AnnotationsStore } from "../annotationsStore.ts";
import { annotationIn, checkGroupId, staleMessage } from "./groupRows.ts";
import {
  NO_GROUP_VERSION,
  StoreDenied,
  StoreInvalid,
  StoreNotFound,
  type AnnotationStore,
  type DocumentWrite,
  type GroupVersion,
  type GroupWrite,
  type PersonAnnotations,
  type StoreUser,
} from "./types.ts";

/** The file store's one person. */
export const FILE_USER: StoreUser = { id: "file", name: "you", role: "lead" };

/** How often a group write reads again when other writers keep changing the file. */
export const FILE_WRITE_TRIES = 20;

/** The version of a group's annotation in the file store ("0": none). */
export function fileGroupVersion(annotation: GroupAnnotation | undefined | null): GroupVersion {
  if (annotation === undefined || annotation === null) return NO_GROUP_VERSION;
  return createHash("sha256").update(JSON.stringify(annotation)).digest("hex").slice(0, 16);
}

export class FileAnnotationStore implements AnnotationStore {
  readonly kind = "file" as const;
  readonly location: string;
  readonly file: AnnotationsStore;
  private readonly token: string | null;

  /** `token`: the session's (null with --no-token: every request is the one person). */
  constructor(file: AnnotationsStore, token: string | null) {
    this.file = file;
    this.token = token;
    this.location = file.path;
  }

  authenticate(token: string | null): Promise<StoreUser | null> {
    return Promise.resolve(
      this.token === null || tokenMatches(token, this.token) ? FILE_USER : null,
    );
  }

  private check(caller: StoreUser): void {
    if (caller.id !== FILE_USER.id) throw new StoreDenied("the file store has one person");
  }

  /** The document in the file, parsed. @throws StoreInvalid when the file does not validate */
  private async document() {
    const read = await this.file.read();
    if (!read.ok)
      throw new StoreInvalid(
        `${this.file.path} does not validate (${read.issues.map((i) => i.message).join("; ")}); a PUT of the whole document replaces it`,
      );
    const parsed = annotationsParse(this.file.path, read.text);
    if (!parsed.ok) throw new StoreInvalid(`${this.file.path} does not validate`);
    return { version: read.version, annotations: parsed.value };
  }

  async readAnnotations(caller: StoreUser, person?: string): Promise<PersonAnnotations> {
    this.check(caller);
    if (person !== undefined && person !== FILE_USER.name)
      throw new StoreNotFound(
        `the file store has one person; no one is named ${JSON.stringify(person)}`,
      );
    const { version, annotations } = await this.document();
    const versions = Object.fromEntries(
      Object.entries(annotations.groups).map(([id, a]) => [id, fileGroupVersion(a)] as const),
    );
    return { user: FILE_USER.name, version, annotations, versions, submitted: {} };
  }

  /** The whole document, as `PUT /api/annotations` writes it (annotationsStore.ts's write). */
  async writeDocument(
    caller: StoreUser,
    document: Annotations,
    baseVersion: string,
  ): Promise<DocumentWrite> {
    this.check(caller);
    const result = await this.file.write(annotationsToJson(document), baseVersion);
    if (result.kind === "invalid")
      throw new StoreInvalid(
        `the document does not validate: ${result.issues.map((i) => i.message).join("; ")}`,
      );
    if (result.kind === "conflict")
      return {
        kind: "stale",
        message:
          "the annotations changed since the version this write is based on; merge and write again",
        current: await this.readAnnotations(caller),
      };
    return { kind: "written", version: result.version };
  }

  async writeGroup(
    caller: StoreUser,
    groupId: GroupId,
    annotation: GroupAnnotation | null,
    baseVersion: GroupVersion,
  ): Promise<GroupWrite> {
    this.check(caller);
    checkGroupId(groupId);
    const value = annotationIn(groupId, annotation);
    for (let attempt = 0; attempt < FILE_WRITE_TRIES; attempt++) {
      const { version, annotations } = await this.document();
      const now = Object.hasOwn(annotations.groups, groupId)
        ? annotations.groups[groupId]
        : undefined;
      const current = fileGroupVersion(now);
      if (current !== baseVersion)
        return {
          kind: "stale",
          message: staleMessage(groupId, baseVersion, current),
          current: { version: current, annotation: now ?? null, submittedAt: null },
        };
      const next = fileGroupVersion(value);
      if (next === current) return { kind: "written", version: next };
      const others = Object.entries(annotations.groups).filter(([id]) => id !== groupId);
      const groups = Object.fromEntries(value === null ? others : [...others, [groupId, value]]);
      const result = await this.file.write(annotationsToJson({ ...annotations, groups }), version);
      if (result.kind === "written") return { kind: "written", version: next };
      if (result.kind === "invalid")
        throw new StoreInvalid(result.issues.map((i) => i.message).join("; "));
      // Another writer changed the file since it was read: read it again.
    }
    throw new Error(
      `${this.file.path} kept changing: ${FILE_WRITE_TRIES} tries did not get a write in`,
    );
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}
