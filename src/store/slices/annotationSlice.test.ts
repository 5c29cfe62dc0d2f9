import { beforeEach, describe, expect, it } from "vitest";
import { ANNOTATIONS_EMPTY, GROUP_ANNOTATION_EMPTY } from "../../core/index.ts";
import { useStore } from "../index.ts";

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
