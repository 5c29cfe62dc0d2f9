/**
 * The IndexedDB schema bump from version 1 (groups, datasets) to 2 (adds extras) keeps old data
 * (issue 8 part 5): a version-1 database written with the raw idb API, as the studio of that
 * version wrote it, opens through annotationsDb with the same annotations, the extras at their
 * defaults, and then stores extras in the new store.
 */
import "fake-indexeddb/auto";
import { openDB } from "idb";
import { describe, expect, it } from "vitest";
import {
  ANNOTATIONS_EMPTY,
  CALIBRATION_STATE_EMPTY,
  GROUP_ANNOTATION_EMPTY,
  type Annotations,
  type GroupAnnotation,
} from "../../core/index.ts";
import { DB_VERSION, openAnnotationsDb } from "./annotationsDb.ts";

/** Write a version-1 database: its two stores and index, exactly as version 1 created them. */
async function writeVersion1(
  name: string,
  groups: readonly { fingerprint: string; groupId: string; annotation: unknown }[],
  datasets: readonly {
    fingerprint: string;
    file: string;
    annotator?: unknown;
    hackReasons?: unknown;
  }[],
): Promise<void> {
  const db = await openDB(name, 1, {
    upgrade(database) {
      const store = database.createObjectStore("groups", { keyPath: ["fingerprint", "groupId"] });
      store.createIndex("byFingerprint", "fingerprint");
      database.createObjectStore("datasets", { keyPath: "fingerprint" });
    },
  });
  const tx = db.transaction(["groups", "datasets"], "readwrite");
  await Promise.all([
    ...groups.map((g) => tx.objectStore("groups").put({ ...g, savedAt: 1 })),
    ...datasets.map((d) => tx.objectStore("datasets").put({ ...d, savedAt: 1 })),
    tx.done,
  ]);
  db.close();
}

describe("IndexedDB version 1 to 2", () => {
  it("is the version this studio opens", () => {
    expect(DB_VERSION).toBe(2);
  });

  it("opens a version-1 store with every annotation kept and the extras defaulted", async () => {
    const name = "migrate-v1";
    // Records as version 1 wrote them: the early shape without reviewed/hackDetails/rolloutNotes
    // (the parser fills them), and the later version-1 shape with every group field.
    const early = {
      ranking: [["r1"], ["r0", "r2"]],
      hacks: ["r3"],
      labels: { r0: "pass" },
      notes: "n",
    };
    const full: GroupAnnotation = {
      ...GROUP_ANNOTATION_EMPTY,
      ranking: [["b"], ["a"]],
      hacks: ["a"],
      labels: { a: "fail", b: "defer" },
      reviewed: true,
      hackDetails: { a: { reason: "invented id", note: "order 123", quote: "#123" } },
      rolloutNotes: { b: "fine" },
      pairwise: { schedule: "round-robin", seed: 3, players: ["a", "b"], judgements: [] },
    };
    await writeVersion1(
      name,
      [
        { fingerprint: "fp1", groupId: "g1", annotation: early },
        { fingerprint: "fp1", groupId: "constructor", annotation: full },
        { fingerprint: "fp2", groupId: "g1", annotation: { ...early, notes: "other dataset" } },
      ],
      [
        {
          fingerprint: "fp1",
          file: "run.jsonl",
          annotator: "ana",
          hackReasons: ["invented id", "other"],
        },
        { fingerprint: "fp2", file: "other.jsonl" },
      ],
    );

    const db = openAnnotationsDb(name);
    const restored = await db.load("fp1");
    const expected: Annotations = {
      ...ANNOTATIONS_EMPTY,
      annotator: "ana",
      hackReasons: ["invented id", "other"],
      // "constructor" is an id the prototype also owns: kept as data, like any other.
      groups: Object.fromEntries([
        [
          "g1",
          {
            ...GROUP_ANNOTATION_EMPTY,
            ranking: [["r1"], ["r0", "r2"]],
            hacks: ["r3"],
            labels: { r0: "pass" },
            notes: "n",
          },
        ],
        ["constructor", full],
      ]),
    };
    expect(restored).toEqual({ annotations: expected, rejected: [] });
    expect(restored.annotations.calibration).toEqual(CALIBRATION_STATE_EMPTY);
    expect((await db.load("fp2")).annotations.groups.g1?.notes).toBe("other dataset");
    expect((await db.datasets()).map((d) => d.file).sort()).toEqual(["other.jsonl", "run.jsonl"]);

    // The upgraded database has the new store: extras save and load beside the old groups.
    const rubrics = {
      g1: {
        versions: [
          {
            version: 1,
            savedAt: "2026-01-01T00:00:00.000Z",
            author: "human" as const,
            solution: ["s"],
            behavior: ["b"],
          },
        ],
        labelVersions: {},
      },
    };
    await db.save("fp1", "run.jsonl", { annotator: "ana", hackReasons: ["other"] }, [], {
      rubrics,
    });
    const after = await db.load("fp1");
    expect(after.annotations.rubrics).toEqual(rubrics);
    expect(after.annotations.groups).toEqual(expected.groups);

    const raw = await openDB(name);
    expect(raw.version).toBe(2);
    expect([...raw.objectStoreNames].sort()).toEqual(["datasets", "extras", "groups"]);
    raw.close();
  });

  it("reports a version-1 record that does not validate instead of dropping it silently", async () => {
    const name = "migrate-v1-bad";
    await writeVersion1(
      name,
      [
        { fingerprint: "fp", groupId: "ok", annotation: { hacks: ["r1"] } },
        { fingerprint: "fp", groupId: "bad", annotation: { ranking: "not tiers" } },
      ],
      [{ fingerprint: "fp", file: "run.jsonl" }],
    );
    const restored = await openAnnotationsDb(name).load("fp");
    expect(Object.keys(restored.annotations.groups)).toEqual(["ok"]);
    expect(restored.rejected).toEqual(["bad"]);
  });
});
