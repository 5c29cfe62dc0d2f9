// The file store behind the AnnotationStore interface: `<state>/annotations.json`, one person.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ANNOTATIONS_EMPTY } from "../../core/index.ts";
import { annotationsParse, annotationsToJson } from "../../io/index.ts";
import { labelled } from "../../test/teamFixture.ts";
import { AnnotationsStore, NO_FILE_VERSION, type AnnotationsWrite } from "../annotationsStore.ts";
import { FILE_USER, FileAnnotationStore, fileGroupVersion } from "./fileStore.ts";
import { NO_GROUP_VERSION, StoreDenied, StoreInvalid, StoreNotFound } from "./types.ts";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function stateDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "rs-filestore-"));
  dirs.push(dir);
  return dir;
}

const onDisk = (file: AnnotationsStore) => {
  const parsed = annotationsParse(file.path, readFileSync(file.path, "utf8"));
  if (!parsed.ok) throw new Error("the file does not validate");
  return parsed.value;
};

describe("the file store", () => {
  it("its one person is the lead, named by the session token (any request with --no-token)", async () => {
    const store = new FileAnnotationStore(new AnnotationsStore(stateDir()), "session-token-1");
    expect(await store.authenticate("session-token-1")).toEqual(FILE_USER);
    expect(FILE_USER.role).toBe("lead");
    expect(await store.authenticate("session-token-2")).toBeNull();
    expect(await store.authenticate(null)).toBeNull();
    const open = new FileAnnotationStore(new AnnotationsStore(stateDir()), null);
    expect(await open.authenticate(null)).toEqual(FILE_USER);
    expect([store.kind, store.location]).toEqual(["file", store.file.path]);
  });

  it("reads the file as the person's document, each group's version a hash of its annotation", async () => {
    const file = new AnnotationsStore(stateDir());
    const store = new FileAnnotationStore(file, "t");
    const empty = await store.readAnnotations(FILE_USER);
    expect(empty.annotations.groups).toEqual({});
    expect([empty.versions, empty.submitted, empty.user]).toEqual([{}, {}, "you"]);
    const doc = {
      ...ANNOTATIONS_EMPTY,
      annotator: "kim",
      hackReasons: ["mine"],
      groups: { g1: labelled({ r0: "pass" }) },
    };
    await file.write(annotationsToJson(doc), NO_FILE_VERSION);
    const read = await store.readAnnotations(FILE_USER, "you");
    expect(read.annotations).toEqual(doc);
    expect(read.versions).toEqual({ g1: fileGroupVersion(labelled({ r0: "pass" })) });
    expect(read.versions.g1).toMatch(/^[0-9a-f]{16}$/);
  });

  it("writes one group at its version, keeping the rest of the document; a stale write is refused", async () => {
    const file = new AnnotationsStore(stateDir());
    const store = new FileAnnotationStore(file, "t");
    await file.write(
      annotationsToJson({
        ...ANNOTATIONS_EMPTY,
        annotator: "kim",
        groups: { g2: labelled({ r9: "fail" }) },
      }),
      NO_FILE_VERSION,
    );
    const first = await store.writeGroup(
      FILE_USER,
      "g1",
      labelled({ r0: "pass" }),
      NO_GROUP_VERSION,
    );
    expect(first).toEqual({ kind: "written", version: fileGroupVersion(labelled({ r0: "pass" })) });
    if (first.kind !== "written") throw new Error("unreachable");
    const second = await store.writeGroup(FILE_USER, "g1", labelled({ r0: "fail" }), first.version);
    expect(second.kind).toBe("written");
    const stale = await store.writeGroup(FILE_USER, "g1", labelled({ r0: "defer" }), first.version);
    expect(stale).toMatchObject({
      kind: "stale",
      current: { annotation: labelled({ r0: "fail" }), submittedAt: null },
    });
    if (stale.kind !== "stale") throw new Error("unreachable");
    expect(stale.message).toMatch(/this write was not applied/);
    const doc = onDisk(file);
    expect(doc.annotator).toBe("kim");
    expect(doc.groups).toEqual({ g1: labelled({ r0: "fail" }), g2: labelled({ r9: "fail" }) });
    // Clearing removes the group from the file.
    const v = (await store.readAnnotations(FILE_USER)).versions.g1!;
    expect(await store.writeGroup(FILE_USER, "g1", null, v)).toEqual({
      kind: "written",
      version: NO_GROUP_VERSION,
    });
    expect(Object.keys(onDisk(file).groups)).toEqual(["g2"]);
  });

  it("two writes on one base version: one lands, the other is stale", async () => {
    const file = new AnnotationsStore(stateDir());
    const store = new FileAnnotationStore(file, "t");
    const results = await Promise.all([
      store.writeGroup(FILE_USER, "g", labelled({}, "tab 1"), NO_GROUP_VERSION),
      store.writeGroup(FILE_USER, "g", labelled({}, "tab 2"), NO_GROUP_VERSION),
    ]);
    expect(results.map((r) => r.kind).sort()).toEqual(["stale", "written"]);
    const won = results.findIndex((r) => r.kind === "written");
    expect(onDisk(file).groups.g!.notes).toBe(`tab ${won + 1}`);
  });

  it("another writer changing another group meanwhile does not make the write stale: it reads again", async () => {
    const dir = stateDir();
    let interfered = false;
    // A file store whose first write finds the file changed by someone else (another group).
    class Interfering extends AnnotationsStore {
      override write(text: string, base: string): Promise<AnnotationsWrite> {
        if (!interfered) {
          interfered = true;
          const other = { ...ANNOTATIONS_EMPTY, groups: { other: labelled({ r1: "pass" }) } };
          writeFileSync(this.path, annotationsToJson(other));
        }
        return super.write(text, base);
      }
    }
    const file = new Interfering(dir);
    const store = new FileAnnotationStore(file, "t");
    const result = await store.writeGroup(
      FILE_USER,
      "g",
      labelled({ r0: "pass" }),
      NO_GROUP_VERSION,
    );
    expect(result.kind).toBe("written");
    expect(interfered).toBe(true);
    expect(Object.keys(onDisk(file).groups).sort()).toEqual(["g", "other"]);
  });

  it("writes the whole document at the file's version, as the PUT route does", async () => {
    const file = new AnnotationsStore(stateDir());
    const store = new FileAnnotationStore(file, "t");
    const doc = { ...ANNOTATIONS_EMPTY, annotator: "kim", groups: { g: labelled({ r0: "pass" }) } };
    const first = await store.writeDocument(FILE_USER, doc, NO_FILE_VERSION);
    expect(first.kind).toBe("written");
    const read = await store.readAnnotations(FILE_USER);
    expect(read.version).toBe(first.kind === "written" ? first.version : "");
    expect(read.version).toBe((await file.read()).version);
    expect(read.annotations).toEqual(doc);
    const stale = await store.writeDocument(FILE_USER, { ...doc, groups: {} }, NO_FILE_VERSION);
    expect(stale).toMatchObject({ kind: "stale", current: { version: read.version } });
    expect(onDisk(file).groups).toEqual(doc.groups);
    const bad = { ...doc, version: 2 } as unknown as typeof doc;
    await expect(store.writeDocument(FILE_USER, bad, read.version)).rejects.toBeInstanceOf(
      StoreInvalid,
    );
  });

  it("refuses another caller, another person, and a file that does not validate", async () => {
    const file = new AnnotationsStore(stateDir());
    const store = new FileAnnotationStore(file, "t");
    const stranger = { id: "7", name: "ann", role: "lead" as const };
    await expect(store.readAnnotations(stranger)).rejects.toBeInstanceOf(StoreDenied);
    await expect(
      store.writeGroup(stranger, "g", labelled({}), NO_GROUP_VERSION),
    ).rejects.toBeInstanceOf(StoreDenied);
    await expect(store.readAnnotations(FILE_USER, "ann")).rejects.toBeInstanceOf(StoreNotFound);
    writeFileSync(file.path, '{"version": 2}');
    await expect(store.readAnnotations(FILE_USER)).rejects.toBeInstanceOf(StoreInvalid);
    await expect(
      store.writeGroup(FILE_USER, "g", labelled({ r0: "pass" }), NO_GROUP_VERSION),
    ).rejects.toThrow(/does not validate/);
    expect(readFileSync(file.path, "utf8")).toBe('{"version": 2}');
    await store.close();
  });
});
