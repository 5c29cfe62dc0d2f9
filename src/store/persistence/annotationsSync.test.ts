import "fake-indexeddb/auto";
import { afterEach, describe, expect, it } from "vitest";
import { create } from "zustand";
import {
  ANNOTATIONS_EMPTY,
  CALIBRATION_STATE_EMPTY,
  GROUP_ANNOTATION_EMPTY,
  type Annotations,
} from "../../core/index.ts";
import type { LoadedDataset } from "../../io/dataset.ts";
import { openAnnotationsDb, type AnnotationsDb } from "./annotationsDb.ts";
import {
  startAnnotationsSync,
  type AnnotationsSync,
  type PersistState,
} from "./annotationsSync.ts";

interface State {
  load:
    | { status: "ready"; file: File; dataset: LoadedDataset }
    | { status: "idle" | "loading" | "error" };
  annotations: Annotations;
  persist: PersistState;
}

let dbCount = 0;
const syncs: AnnotationsSync[] = [];
afterEach(() => {
  for (const s of syncs.splice(0)) s.stop();
});

function dataset(file: string, rewards: number[]): LoadedDataset {
  return {
    file,
    format: "native",
    groupKey: "group_id",
    summaries: [{ id: "g", rewards, prompt: "", partial: false, step: null }],
  } as unknown as LoadedDataset;
}

function setup(db: AnnotationsDb) {
  const store = create<State>()(() => ({
    load: { status: "idle" },
    annotations: ANNOTATIONS_EMPTY,
    persist: { status: "off" },
  }));
  const sync = startAnnotationsSync(store, db, store);
  syncs.push(sync);
  const open = async (name: string, text: string, rewards = [1, 0]) => {
    store.setState({ load: { status: "loading" }, annotations: ANNOTATIONS_EMPTY });
    store.setState({
      load: { status: "ready", file: new File([text], name), dataset: dataset(name, rewards) },
    });
    await until(() => store.getState().persist.status !== "restoring");
  };
  return { store, sync, open };
}

async function until(ok: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !ok(); i++) await new Promise((r) => setTimeout(r, 5));
  expect(ok()).toBe(true);
}

const marked = (a: Annotations, groupId: string, hack: string): Annotations => ({
  ...ANNOTATIONS_EMPTY,
  groups: { ...a.groups, [groupId]: { ...GROUP_ANNOTATION_EMPTY, hacks: [hack] } },
});

describe("annotations in IndexedDB", () => {
  it("writes every action and restores it when the same data opens again", async () => {
    const db = openAnnotationsDb(`test-${dbCount++}`);
    const first = setup(db);
    await first.open("run.jsonl", "{}\n");
    first.store.setState({ annotations: marked(ANNOTATIONS_EMPTY, "g", "g/1") });
    // While the write is in flight the state says so; once stored, nothing is pending.
    expect(first.store.getState().persist).toMatchObject({ status: "saved", pending: 1 });
    await first.sync.flushed();
    expect(first.store.getState().persist).toMatchObject({ status: "saved", pending: 0 });

    // A reload (or a crashed tab): a new store over the same database, the same file renamed.
    const second = setup(db);
    await second.open("renamed.jsonl", "{}\n");
    expect(second.store.getState().annotations.groups.g?.hacks).toEqual(["g/1"]);
    expect(second.store.getState().persist).toMatchObject({ status: "saved", restored: 1 });
  });

  it("keeps datasets apart, and opening another never deletes the first one's", async () => {
    const db = openAnnotationsDb(`test-${dbCount++}`);
    const { store, sync, open } = setup(db);
    await open("a.jsonl", "aaa");
    store.setState({ annotations: marked(ANNOTATIONS_EMPTY, "g", "g/0") });
    await sync.flushed();
    await open("b.jsonl", "bbb");
    expect(store.getState().annotations).toEqual(ANNOTATIONS_EMPTY);
    store.setState({ annotations: marked(ANNOTATIONS_EMPTY, "g", "g/9") });
    await sync.flushed();
    await open("a.jsonl", "aaa");
    expect(store.getState().annotations.groups.g?.hacks).toEqual(["g/0"]);
    // Same bytes, other rewards (another run over the same prompts): a different dataset.
    await open("a.jsonl", "aaa", [0, 0]);
    expect(store.getState().annotations).toEqual(ANNOTATIONS_EMPTY);
  });

  it("clears deliberately, and removes a group whose annotation became empty", async () => {
    const db = openAnnotationsDb(`test-${dbCount++}`);
    const { store, sync, open } = setup(db);
    await open("a.jsonl", "x");
    store.setState({ annotations: marked(marked(ANNOTATIONS_EMPTY, "g", "g/0"), "h", "h/0") });
    await sync.flushed();
    const fp = sync.fingerprint()!;
    store.setState({ annotations: marked(ANNOTATIONS_EMPTY, "g", "g/0") });
    await sync.flushed();
    expect(Object.keys((await db.load(fp)).annotations.groups)).toEqual(["g"]);
    await sync.clear();
    expect(store.getState().annotations).toEqual(ANNOTATIONS_EMPTY);
    expect((await db.load(fp)).annotations).toEqual(ANNOTATIONS_EMPTY);
  });

  it("starts a write in the task after the change, or at once when the page goes away", async () => {
    const real = openAnnotationsDb(`test-${dbCount++}`);
    let saves = 0;
    const counted: AnnotationsDb = {
      ...real,
      save: (...args) => {
        saves++;
        return real.save(...args);
      },
    };
    const { store, sync, open } = setup(counted);
    await open("a.jsonl", "x");
    const before = saves;
    const microtasks = async (): Promise<void> => {
      for (let i = 0; i < 10; i++) await Promise.resolve();
    };
    // Not in the change's own task (a keystroke's handler), but right after it.
    store.setState({ annotations: marked(ANNOTATIONS_EMPTY, "g", "g/0") });
    expect(store.getState().persist).toMatchObject({ status: "saved", pending: 1 });
    await microtasks();
    expect(saves).toBe(before);
    await new Promise((r) => setTimeout(r, 0));
    await microtasks();
    expect(saves).toBe(before + 1);
    await sync.flushed();
    // A page that is hidden or unloads starts the waiting write at once.
    store.setState({ annotations: marked(ANNOTATIONS_EMPTY, "g", "g/1") });
    window.dispatchEvent(new Event("pagehide"));
    await microtasks();
    expect(saves).toBe(before + 2);
    await sync.flushed();
    expect((await real.load(sync.fingerprint()!)).annotations.groups.g?.hacks).toEqual(["g/1"]);
  });

  it("says so at once when a write fails, and offers the export", async () => {
    const real = openAnnotationsDb(`test-${dbCount++}`);
    const full: AnnotationsDb = {
      ...real,
      save: () => Promise.reject(new DOMException("quota", "QuotaExceededError")),
    };
    const { store, sync, open } = setup(full);
    await open("a.jsonl", "x");
    store.setState({ annotations: marked(ANNOTATIONS_EMPTY, "g", "g/0") });
    await sync.flushed();
    const persist = store.getState().persist;
    expect(persist.status).toBe("error");
    if (persist.status === "error") expect(persist.message).toMatch(/storage is full.*Export/);
  });

  it("reports stored records that fail validation instead of dropping them silently", async () => {
    const db = openAnnotationsDb(`test-${dbCount++}`);
    const { store, sync, open } = setup(db);
    await open("a.jsonl", "x");
    const fp = sync.fingerprint()!;
    await db.save(fp, "a.jsonl", ANNOTATIONS_EMPTY, [
      { groupId: "bad", annotation: { ...GROUP_ANNOTATION_EMPTY, ranking: "not tiers" } as never },
      { groupId: "g", annotation: { ...GROUP_ANNOTATION_EMPTY, notes: "kept" } },
    ]);
    await open("a.jsonl", "x");
    expect(store.getState().annotations.groups.g?.notes).toBe("kept");
    expect(store.getState().persist).toMatchObject({ status: "saved", rejected: ["bad"] });
  });

  it("stores the extras (judge runs, rubrics, calibration) and restores them", async () => {
    const db = openAnnotationsDb(`test-${dbCount++}`);
    const first = setup(db);
    await first.open("run.jsonl", "{}\n");
    const calibration = {
      ...CALIBRATION_STATE_EMPTY,
      seed: 3,
      assignments: { "g/0": "test" as const },
    };
    const rubrics = {
      g: {
        versions: [
          { version: 1, savedAt: "t", author: "judge" as const, solution: ["a"], behavior: ["b"] },
        ],
        labelVersions: { "g/0": 1 },
      },
    };
    first.store.setState({
      annotations: { ...first.store.getState().annotations, calibration, rubrics },
    });
    await first.sync.flushed();
    const second = setup(db);
    await second.open("run.jsonl", "{}\n");
    expect(second.store.getState().annotations.calibration).toEqual(calibration);
    expect(second.store.getState().annotations.rubrics).toEqual(rubrics);
    expect(second.store.getState().annotations.judgeRuns).toEqual([]);
    // Clearing removes them too.
    await second.sync.clear();
    const third = setup(db);
    await third.open("run.jsonl", "{}\n");
    expect(third.store.getState().annotations.calibration).toEqual(CALIBRATION_STATE_EMPTY);
  });
});
