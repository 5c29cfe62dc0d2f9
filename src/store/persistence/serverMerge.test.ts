import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  ANNOTATIONS_EMPTY,
  GROUP_ANNOTATION_EMPTY,
  type Annotations,
  type GroupAnnotation,
  type HumanLabel,
} from "../../core/index.ts";
import { absorbChange, changedSince, mergeGroup, mergeOnOpen, mergeRemote } from "./serverMerge.ts";

const ranked = (order: string): Annotations["groups"][string] => ({
  ...GROUP_ANNOTATION_EMPTY,
  ranking: order.split("").map((r) => [r]),
});

const doc = (groups: Annotations["groups"], extra: Partial<Annotations> = {}): Annotations => ({
  ...ANNOTATIONS_EMPTY,
  ...extra,
  groups,
});

describe("mergeOnOpen", () => {
  it("takes the server's where the user has not touched a group, keeps what only the page has", () => {
    const restored = { a: ranked("01"), b: ranked("10") };
    const opened = doc(restored);
    const touched = ranked("21");
    const local = doc({ ...restored, c: touched });
    const server = doc({ a: ranked("012"), c: ranked("12"), d: ranked("3") });
    const merged = mergeOnOpen(opened, local, server);
    expect(merged.groups.a).toBe(server.groups.a); // restored, but the server has it: theirs
    expect(merged.groups.b).toBe(restored.b); // only the offline copy has it: kept
    expect(merged.groups.c).toBe(touched); // the user's since the page opened: ours
    expect(merged.groups.d).toBe(server.groups.d);
  });

  it("keeps a group the user removed, and the user's document fields", () => {
    const opened = doc({ a: ranked("01") });
    const local = doc({}, { annotator: "me" });
    const server = doc({ a: ranked("10") }, { annotator: "them", hackReasons: ["x"] });
    const merged = mergeOnOpen(opened, local, server);
    expect(merged.groups).toEqual({});
    expect(merged.annotator).toBe("me");
    expect(merged.hackReasons).toEqual(["x"]);
  });

  it("returns the page's own document when the server adds nothing", () => {
    const local = doc({ a: ranked("01") });
    expect(mergeOnOpen(local, local, doc({}))).toBe(local);
  });
});

describe("mergeRemote", () => {
  it("keeps ours where we changed a group since the sync, theirs everywhere else", () => {
    const base = doc({ a: ranked("01"), b: ranked("01"), gone: ranked("0") });
    const ours = ranked("10");
    const local = doc({ ...base.groups, a: ours });
    const theirs = doc({ a: ranked("011"), b: ranked("1"), c: ranked("2") });
    const merged = mergeRemote(base, local, theirs);
    expect(merged.groups.a).toBe(ours);
    expect(merged.groups.b).toBe(theirs.groups.b);
    expect(merged.groups.c).toBe(theirs.groups.c);
    expect(Object.hasOwn(merged.groups, "gone")).toBe(false); // removed by them
    expect(changedSince(theirs, merged)).toBe(true);
  });

  it("keeps our removal of a group they did not change", () => {
    const base = doc({ a: ranked("01") });
    const local = doc({});
    const merged = mergeRemote(base, local, doc({ a: base.groups.a!, b: ranked("1") }));
    expect(Object.keys(merged.groups)).toEqual(["b"]);
  });

  it("is theirs when we changed nothing", () => {
    const base = doc({ a: ranked("01") });
    const theirs = doc({ a: ranked("10") }, { annotator: "them" });
    const merged = mergeRemote(base, base, theirs);
    expect(changedSince(theirs, merged)).toBe(false);
    expect(merged.annotator).toBe("them");
  });
});

describe("changedSince and absorbChange", () => {
  it("sees a changed field or group, not an equal document", () => {
    const base = doc({ a: ranked("01") });
    expect(changedSince(base, { ...base })).toBe(false);
    expect(changedSince(base, { ...base, annotator: "x" })).toBe(true);
    expect(changedSince(base, doc({ a: ranked("01") }))).toBe(true);
  });

  it("absorbs what one change brought, so it is not counted as the user's", () => {
    const opened = doc({ x: ranked("0") });
    const previous = doc({ x: opened.groups.x!, y: ranked("1") });
    const next = doc({ y: previous.groups.y!, z: ranked("2") }, { annotator: "restored" });
    const absorbed = absorbChange(opened, previous, next);
    expect(absorbed.groups).toEqual({ z: next.groups.z });
    expect(absorbed.annotator).toBe("restored");
  });
});

const labelled = (
  labels: Record<string, HumanLabel>,
  extra: Partial<GroupAnnotation> = {},
): GroupAnnotation => ({ ...GROUP_ANNOTATION_EMPTY, labels, ...extra });

describe("mergeGroup: one group changed in two tabs", () => {
  it("keeps both tabs' labels of different rollouts, and ours where both labelled one", () => {
    const base = labelled({ r0: "pass" });
    const ours = labelled({ r0: "pass", r1: "fail", r2: "pass" });
    const theirs = labelled({ r0: "fail", r2: "fail", r3: "defer" });
    expect(mergeGroup(base, ours, theirs).labels).toEqual({
      r0: "fail", // only they changed it
      r1: "fail", // only we labelled it
      r2: "pass", // both: ours, the newer edit
      r3: "defer",
    });
  });

  it("merges a group new to both sides against an empty one", () => {
    const merged = mergeGroup(undefined, labelled({ r0: "pass" }), labelled({ r1: "fail" }));
    expect(merged.labels).toEqual({ r0: "pass", r1: "fail" });
  });

  it("merges hack marks rollout by rollout, with their details, and the notes as a whole", () => {
    const base = labelled(
      {},
      { hacks: ["r0"], hackDetails: { r0: { reason: "x", note: "", quote: "" } } },
    );
    const ours = labelled({}, { hacks: [], notes: "ours" }); // we unmarked r0
    const theirs = labelled(
      {},
      {
        hacks: ["r0", "r1"],
        hackDetails: {
          r0: { reason: "x", note: "", quote: "" },
          r1: { reason: "y", note: "n", quote: "" },
        },
      },
    );
    const merged = mergeGroup(base, ours, theirs);
    expect(merged.hacks).toEqual(["r1"]);
    expect(merged.hackDetails).toEqual({ r1: { reason: "y", note: "n", quote: "" } });
    expect(merged.notes).toBe("ours");
  });

  it("is ours itself when theirs adds nothing", () => {
    const base = labelled({ r0: "pass" });
    const ours = labelled({ r0: "fail" }, { ranking: [["r0"]] });
    expect(mergeGroup(base, ours, labelled({ r0: "pass" }))).toBe(ours);
  });

  it("in mergeRemote: another tab's acknowledged label of the same group survives our write", () => {
    const base = doc({ g: labelled({}) });
    const local = doc({ g: labelled({ r0: "pass" }) });
    const theirs = doc({ g: labelled({ r1: "fail" }) });
    expect(mergeRemote(base, local, theirs).groups.g!.labels).toEqual({ r0: "pass", r1: "fail" });
  });

  it("property: each rollout's label is ours if we changed it since the sync, else theirs", () => {
    const label = fc.constantFrom<HumanLabel | undefined>("pass", "fail", "defer", undefined);
    const side = fc.array(label, { minLength: 4, maxLength: 4 });
    const record = (values: (HumanLabel | undefined)[]): Record<string, HumanLabel> =>
      Object.fromEntries(values.flatMap((v, i) => (v === undefined ? [] : [[`r${i}`, v]])));
    fc.assert(
      fc.property(side, side, side, (b, o, t) => {
        const merged = mergeGroup(labelled(record(b)), labelled(record(o)), labelled(record(t)));
        const want = b.map((bv, i) => (o[i] !== bv ? o[i] : t[i]));
        expect(merged.labels).toEqual(record(want));
      }),
    );
  });
});
