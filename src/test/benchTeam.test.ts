/**
 * bench/team.ts's pure pieces: the latency percentiles, the simulated annotator's changes and its
 * merge after a 409 (whole document: the studio's three-way merge; one group: the change made
 * again over the server's group), and the read-back check of the acknowledged writes.
 */
import { describe, expect, it } from "vitest";

import {
  changeApply,
  docChange,
  docConflict,
  docSynced,
  docWritten,
  groupConflict,
  type TeamAck,
  type TeamChange,
} from "../../bench/teamClient.ts";
import { canonicalJson, chainProblems, percentile } from "../../bench/teamReport.ts";
import { ANNOTATIONS_EMPTY, type Annotations, type GroupAnnotation } from "../core/index.ts";

const label = (rollout: string, value: "pass" | "fail"): TeamChange => ({
  kind: "label",
  rollout,
  label: value,
});
const annotated = (change: TeamChange, note: string, over: GroupAnnotation | null = null) =>
  changeApply(over, change, note);
const doc = (groups: Record<string, GroupAnnotation>): Annotations => ({
  ...ANNOTATIONS_EMPTY,
  groups,
});

describe("percentile", () => {
  it("is the nearest rank of the sorted values", () => {
    const values = Array.from({ length: 100 }, (_, i) => 100 - i);
    expect([50, 95, 99, 100].map((p) => percentile(values, p))).toEqual([50, 95, 99, 100]);
    expect(percentile([3, 1, 2], 50)).toBe(2);
    expect(percentile([7], 95)).toBe(7);
    expect(percentile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 95)).toBe(10);
    expect(percentile([], 95)).toBeNaN();
  });
});

describe("the simulated annotator's changes", () => {
  it("sets a label, a ranking or a hack mark, keeps the rest, and notes the write", () => {
    const first = annotated(label("r1", "pass"), "ann01 #1");
    const second = changeApply(first, { kind: "hack", rollout: "r2", on: true }, "ann01 #2");
    expect(second.labels).toEqual({ r1: "pass" });
    expect(second.hacks).toEqual(["r2"]);
    expect(second.notes).toBe("ann01 #2");
    const ranked = changeApply(second, { kind: "ranking", tiers: [["r2"], ["r1"]] }, "#3");
    expect(ranked.ranking).toEqual([["r2"], ["r1"]]);
    const again = changeApply(second, { kind: "hack", rollout: "r2", on: true }, "ann01 #2");
    expect(again.hacks).toEqual(["r2"]);
    expect(changeApply(second, { kind: "hack", rollout: "r2", on: false }, "x").hacks).toEqual([]);
  });
});

describe("merge on 409", () => {
  it("whole document: ours for the group changed since the sync, theirs for every other", () => {
    const a0 = annotated(label("a1", "pass"), "ann02 #1");
    let sync = docSynced(doc({ a: a0 }), "v1");
    const mine = annotated(label("b1", "fail"), "ann01 #1");
    sync = docChange(sync, "b", mine);
    const aTheirs = annotated(label("a1", "fail"), "ann02 #2");
    const cTheirs = annotated(label("c1", "pass"), "ann03 #1");
    const bTheirs = annotated(label("b1", "pass"), "ann04 #1");
    const theirs = doc(
      JSON.parse(JSON.stringify({ a: aTheirs, b: bTheirs, c: cTheirs })) as Record<
        string,
        GroupAnnotation
      >,
    );
    sync = docConflict(sync, theirs, "v2");
    expect(sync.version).toBe("v2");
    expect(canonicalJson(sync.local.groups)).toBe(
      canonicalJson({ a: aTheirs, b: mine, c: cTheirs }),
    );
    // A second conflict still keeps ours, and takes what changed meanwhile.
    const aLater = annotated(label("a2", "pass"), "ann02 #3");
    const again = docConflict(sync, doc({ ...theirs.groups, a: aLater }), "v3");
    expect(canonicalJson(again.local.groups)).toBe(
      canonicalJson({ a: aLater, b: mine, c: cTheirs }),
    );
    // Once written, nothing is ours any more: a conflict takes theirs everywhere.
    const written = docWritten(again, "v4");
    const after = docConflict(written, doc({ b: bTheirs }), "v5");
    expect(canonicalJson(after.local.groups)).toBe(canonicalJson({ b: bTheirs }));
  });

  it("one group: the change made again over the server's annotation, at its version", () => {
    const theirs = changeApply(null, { kind: "hack", rollout: "r3", on: true }, "another tab");
    const { annotation, version } = groupConflict(label("r1", "pass"), "ann01 #9", {
      version: "7",
      annotation: JSON.parse(JSON.stringify(theirs)) as unknown,
      submittedAt: null,
    });
    expect(version).toBe("7");
    expect(annotation.hacks).toEqual(["r3"]);
    expect(annotation.labels).toEqual({ r1: "pass" });
    expect(annotation.notes).toBe("ann01 #9");
    const cleared = groupConflict(label("r1", "fail"), "n", { version: "8", annotation: null });
    expect(cleared.annotation.labels).toEqual({ r1: "fail" });
    expect(() => groupConflict(label("r1", "fail"), "n", { version: "9", annotation: 3 })).toThrow(
      /does not validate/,
    );
  });
});

describe("read-back check", () => {
  const g1 = annotated(label("x", "pass"), "#1");
  const g2 = annotated(label("y", "fail"), "#2");
  const g1b = annotated(label("x", "fail"), "#3");
  const acks: TeamAck[] = [
    { chain: "doc", user: "ann01", base: "v2", version: "v3", groupId: "g1", annotation: g1b },
    { chain: "doc", user: "ann01", base: "none", version: "v1", groupId: "g1", annotation: g1 },
    { chain: "doc", user: "ann01", base: "v1", version: "v2", groupId: "g2", annotation: g2 },
  ];

  it("passes when the writes form one line and the store holds each group's last write", () => {
    const stored = { version: "v3", groups: JSON.parse(JSON.stringify({ g1: g1b, g2 })) as never };
    expect(chainProblems("doc", acks, stored)).toEqual([]);
  });

  it("finds a lost update, a stale group, a group never written and a wrong version", () => {
    const fork: TeamAck = { ...acks[2]!, base: "v1", version: "v9" };
    expect(chainProblems("doc", [...acks, fork], { version: "v3", groups: {} })[0]).toMatch(
      /lost update/,
    );
    const problems = chainProblems("doc", acks, { version: "v2", groups: { g1, g2, g3: g2 } });
    expect(problems).toEqual([
      "doc: the last write made version v3, the store holds v2",
      "doc: group g1 is not as its last acknowledged write left it",
      "doc: group g3 is stored, but never written",
    ]);
    expect(chainProblems("doc", acks.slice(0, 2), { version: "v3", groups: {} })[0]).toMatch(
      /one line/,
    );
  });
});
