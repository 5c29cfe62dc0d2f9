import { beforeEach, describe, expect, it } from "vitest";
import { ANNOTATIONS_EMPTY, GROUP_ANNOTATION_EMPTY } from "../../core/index.ts";
import { createPlainStore } from "../createStore.ts";

/** A fresh store per test: nothing persisted, nothing left over from the test before. */
let useStore = createPlainStore();
beforeEach(() => {
  useStore = createPlainStore();
});

const store = () => useStore;

beforeEach(() => useStore.getState().setAnnotations(ANNOTATIONS_EMPTY));

describe("annotation slice", () => {
  it("updates one group and drops annotations that become empty", () => {
    const s = store();
    s.getState().updateGroupAnnotation("g", (a) => ({ ...a, hacks: ["r1"] }));
    expect(s.getState().annotations.groups.g?.hacks).toEqual(["r1"]);
    s.getState().setReviewed("g", true);
    expect(s.getState().annotations.groups.g).toMatchObject({ hacks: ["r1"], reviewed: true });
    s.getState().updateGroupAnnotation("g", (a) => ({ ...a, hacks: [] }));
    expect(s.getState().annotations.groups.g?.reviewed).toBe(true);
    s.getState().setReviewed("g", false);
    expect(s.getState().annotations).toEqual(ANNOTATIONS_EMPTY);
  });

  it("replaces everything on import", () => {
    const s = store();
    s.getState().setReviewed("a", true);
    const imported = {
      ...ANNOTATIONS_EMPTY,
      groups: {
        b: {
          ...GROUP_ANNOTATION_EMPTY,
          ranking: [["b/0"]],
          hacks: [],
          labels: {},
          notes: "",
          reviewed: false,
        },
      },
    };
    s.getState().setAnnotations(imported);
    expect(s.getState().annotations).toBe(imported);
  });
});

describe("undo and redo", () => {
  it("steps back and forth through every change, and a new change drops the redo stack", () => {
    const s = useStore;
    s.setState({ annotationPast: [], annotationFuture: [] });
    const { setReviewed, updateGroupAnnotation, undoAnnotation, redoAnnotation } = s.getState();
    setReviewed("g", true);
    updateGroupAnnotation("g", (a) => ({ ...a, hacks: ["g/1"] }));
    setReviewed("g", true); // no change: no undo step
    expect(s.getState().annotationPast).toHaveLength(2);
    undoAnnotation();
    expect(s.getState().annotations.groups.g).toMatchObject({ reviewed: true, hacks: [] });
    undoAnnotation();
    expect(s.getState().annotations).toEqual(ANNOTATIONS_EMPTY);
    undoAnnotation(); // nothing left: unchanged
    expect(s.getState().annotations).toEqual(ANNOTATIONS_EMPTY);
    redoAnnotation();
    redoAnnotation();
    expect(s.getState().annotations.groups.g?.hacks).toEqual(["g/1"]);
    undoAnnotation();
    setReviewed("h", true);
    expect(s.getState().annotationFuture).toEqual([]);
    redoAnnotation();
    expect(s.getState().annotations.groups.g?.hacks).toEqual([]);
  });
});

describe("annotation slice: the annotate feature's actions", () => {
  const group = (id: string) => useStore.getState().annotations.groups[id];

  it("sets a ranking as one undo step, and an equal ranking changes nothing", () => {
    const s = store();
    s.getState().setRanking("g", [["a"], ["b", "c"]]);
    expect(group("g")?.ranking).toEqual([["a"], ["b", "c"]]);
    const past = s.getState().annotationPast.length;
    s.getState().setRanking("g", [["a"], ["b", "c"]]);
    expect(s.getState().annotationPast.length).toBe(past);
    s.getState().setRanking("g", [["b", "c"], ["a"]]);
    s.getState().undoAnnotation();
    expect(group("g")?.ranking).toEqual([["a"], ["b", "c"]]);
    s.getState().setRanking("g", []);
    expect(group("g")).toBeUndefined();
  });

  it("sets and clears labels", () => {
    const s = store();
    s.getState().setLabel("g", "a", "pass");
    s.getState().setLabel("g", "b", "defer");
    expect(group("g")?.labels).toEqual({ a: "pass", b: "defer" });
    s.getState().setLabel("g", "a", null);
    s.getState().setLabel("g", "b", null);
    expect(group("g")).toBeUndefined();
    // The split drawn for "a" when it was labelled stays recorded (calibration splits never move).
    const { calibration, ...rest } = s.getState().annotations;
    const { calibration: empty, ...emptyRest } = ANNOTATIONS_EMPTY;
    expect(rest).toEqual(emptyRest);
    expect(Object.keys(calibration.assignments)).toEqual(["a"]);
    expect({ ...calibration, assignments: {} }).toEqual(empty);
  });

  it("marks a hack with its details, edits them, and unmarks both", () => {
    const s = store();
    const detail = { reason: "invented id", note: "ORD-9999", quote: "order ORD-9999" };
    s.getState().markHack("g", "a", detail);
    expect(group("g")).toMatchObject({ hacks: ["a"], hackDetails: { a: detail } });
    const past = s.getState().annotationPast.length;
    s.getState().markHack("g", "a", { ...detail });
    expect(s.getState().annotationPast.length).toBe(past);
    s.getState().markHack("g", "a", { ...detail, note: "edited" });
    expect(group("g")?.hacks).toEqual(["a"]);
    expect(group("g")?.hackDetails.a?.note).toBe("edited");
    s.getState().unmarkHack("g", "a");
    expect(group("g")).toBeUndefined();
    s.getState().undoAnnotation();
    expect(group("g")?.hackDetails.a?.note).toBe("edited");
  });

  it("sets group and rollout notes; empty notes are removed", () => {
    const s = store();
    s.getState().setGroupNotes("g", "looked at it");
    s.getState().setRolloutNote("g", "a", "fine");
    expect(group("g")).toMatchObject({ notes: "looked at it", rolloutNotes: { a: "fine" } });
    s.getState().setRolloutNote("g", "a", "");
    s.getState().setGroupNotes("g", "");
    expect(group("g")).toBeUndefined();
  });

  it("edits the hack taxonomy, dropping blank and repeated reasons; undoable", () => {
    const s = store();
    s.getState().setHackReasons(["a", " b ", "", "a"]);
    expect(s.getState().annotations.hackReasons).toEqual(["a", "b"]);
    const past = s.getState().annotationPast.length;
    s.getState().setHackReasons(["a", "b"]);
    expect(s.getState().annotationPast.length).toBe(past);
    s.getState().undoAnnotation();
    expect(s.getState().annotations.hackReasons).toEqual(ANNOTATIONS_EMPTY.hackReasons);
  });

  it("finds nothing similar while no dataset is loaded", async () => {
    expect(await store().getState().findSimilar("g", "a")).toEqual([]);
  });

  it("changes extras without an undo step; undo and redo keep the current extras", () => {
    const s = store();
    s.getState().setLabel("g", "g/0", "pass");
    const steps = s.getState().annotationPast.length;
    const rubric = {
      versions: [
        { version: 1, savedAt: "t", author: "human" as const, solution: ["s"], behavior: [] },
      ],
      labelVersions: {},
    };
    s.getState().updateAnnotationExtras(() => ({ rubrics: { g: rubric } }));
    expect(s.getState().annotationPast).toHaveLength(steps);
    s.getState().setLabel("g", "g/1", "fail");
    // The label remembers the rubric version current when it was set.
    expect(s.getState().annotations.rubrics.g?.labelVersions).toEqual({ "g/1": 1 });
    s.getState().undoAnnotation();
    expect(s.getState().annotations.groups.g?.labels).toEqual({ "g/0": "pass" });
    expect(s.getState().annotations.rubrics.g?.versions).toEqual(rubric.versions);
    s.getState().undoAnnotation();
    expect(s.getState().annotations.groups.g).toBeUndefined();
    expect(s.getState().annotations.rubrics.g?.versions).toEqual(rubric.versions);
    s.getState().redoAnnotation();
    s.getState().redoAnnotation();
    expect(s.getState().annotations.groups.g?.labels).toEqual({ "g/0": "pass", "g/1": "fail" });
    expect(s.getState().annotations.rubrics.g?.versions).toEqual(rubric.versions);
    s.getState().setLabel("g", "g/1", null);
    expect(s.getState().annotations.rubrics.g?.labelVersions).toEqual({});
  });
});

describe("calibration splits", () => {
  it("a label gets its split when it is set, with no calibration panel open", () => {
    const s = store();
    s.getState().setLabel("g", "r1", "pass");
    s.getState().setLabel("g", "r2", "fail");
    s.getState().setLabel("g", "r3", "defer");
    const { assignments } = s.getState().annotations.calibration;
    expect(Object.keys(assignments).sort()).toEqual(["r1", "r2"]);
    const first = assignments.r1;
    // Relabelled, undone, redone: a drawn split stays where it is.
    s.getState().setLabel("g", "r1", "fail");
    s.getState().undoAnnotation();
    s.getState().redoAnnotation();
    expect(s.getState().annotations.calibration.assignments.r1).toBe(first);
  });
});
