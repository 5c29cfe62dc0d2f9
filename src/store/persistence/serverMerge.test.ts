import { describe, expect, it } from "vitest";
import { ANNOTATIONS_EMPTY, GROUP_ANNOTATION_EMPTY, type Annotations } from "../../core/index.ts";
import { absorbChange, changedSince, mergeOnOpen, mergeRemote } from "./serverMerge.ts";

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
