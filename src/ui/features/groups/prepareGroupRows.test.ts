import { describe, expect, it } from "vitest";
import {
  ANALYSIS_DEFAULTS,
  GROUP_ANNOTATION_EMPTY,
  type ChatMessage,
  type GroupAnnotation,
  type Rollout,
  type RolloutGroup,
} from "../../../core/index.ts";
import type { GroupSummary } from "../../../io/dataset.ts";
import { NO_FILTERS } from "../../../store/url.ts";
import {
  annotatedRowsSelector,
  annotateGroupRows,
  annotationStatus,
  clusterCell,
  compareSortValues,
  filterGroupRows,
  flagGroupRows,
  hacksText,
  groupSearchIndex,
  groupSpread,
  lazySearchIndex,
  nextSelection,
  prepareGroupRows,
  promptPreview,
  sameGroupRow,
  shareRows,
  sortGroupRows,
  statText,
  type GroupRow,
} from "./prepareGroupRows.ts";
import { testRollout } from "../../../test/rolloutFixtures.ts";
import { testJudgeRun } from "../../../test/judgeRunFixtures.ts";

const msg = (role: string, content: string): ChatMessage => ({
  role,
  content,
  toolCalls: [],
  toolCallId: null,
  name: null,
});

function rollout(id: string, reward: number | null, completion: string): Rollout {
  return testRollout({
    id,
    prompt: "Solve  2+2\nplease",
    completion,
    reward,
  });
}

const annotation = (a: Partial<GroupAnnotation>): GroupAnnotation => ({
  ...GROUP_ANNOTATION_EMPTY,
  ...a,
});

const summary = (id: string, rewards: number[], prompt = "", partial = false): GroupSummary => ({
  id,
  rewards,
  prompt,
  partial,
  step: null,
});

describe("promptPreview", () => {
  it("flattens whitespace, shows the last user turn of a chat prompt, and truncates", () => {
    expect(promptPreview("a\n\n b")).toBe("a b");
    expect(
      promptPreview([
        msg("system", "policy"),
        msg("user", "first"),
        msg("assistant", "x"),
        msg("user", "second"),
      ]),
    ).toBe("second");
    expect(promptPreview(null)).toBe("");
    expect(promptPreview("x".repeat(200))).toHaveLength(121);
  });
});

describe("prepareGroupRows", () => {
  const group: RolloutGroup = {
    id: "g",
    rollouts: [rollout("a", 1, "four"), rollout("b", 0, "five"), rollout("c", null, "")],
  };
  it("formats numbers and flags, previews the prompt, and marks parsed groups", () => {
    const [row] = prepareGroupRows(
      [summary("g", [1, 0, NaN])],
      new Map([["g", group]]),
      ANALYSIS_DEFAULTS,
    );
    expect(row).toMatchObject({
      id: "g",
      index: 0,
      prompt: "Solve 2+2 please",
      n: 3,
      passes: 1,
      mean: 0.5,
      std: 0.5,
      mixed: true,
      zeroStd: false,
      partial: false,
      step: null,
      parsed: true,
      hacks: 0,
      annotation: "",
      reviewed: false,
    });
    expect([statText(row!.mean), statText(row!.std)]).toEqual(["0.500", "0.500"]);
    expect(row?.spread.status).toBe("yes");
    expect(row?.spread.title).toContain("Computed over the rewards of 2 rollouts.");
  });

  it("says unscored, not zero std, for a group without any reward", () => {
    const [row] = prepareGroupRows(
      [summary("t", [NaN], "a trajectory", true)],
      new Map(),
      ANALYSIS_DEFAULTS,
    );
    expect(row).toMatchObject({ zeroStd: false, unscored: true, passes: 0, mixed: false });
  });

  it("uses the summary's prompt and flags for groups not parsed yet", () => {
    const [row] = prepareGroupRows(
      [summary("g", [1, 1], "from the index", true)],
      new Map(),
      ANALYSIS_DEFAULTS,
    );
    expect(row).toMatchObject({
      prompt: "from the index",
      parsed: false,
      partial: true,
      step: null,
      zeroStd: true,
      mixed: false,
      std: 0,
    });
    expect(row?.spread.status).toBe("no");
  });

  it("shows – for a group without finite rewards", () => {
    const [row] = prepareGroupRows([summary("g", [NaN])], new Map(), ANALYSIS_DEFAULTS);
    expect(row).toMatchObject({ n: 1, passes: 0 });
    expect([statText(row!.mean), statText(row!.std)]).toEqual(["–", "–"]);
    expect(row?.spread.status).toBe("n/a");
  });

  it("weights parsed groups' reward components when weights are set", () => {
    const weighted: RolloutGroup = {
      id: "w",
      rollouts: [
        { ...rollout("a", 1, "x"), rewards: { fmt: 1, ok: 0 } },
        { ...rollout("b", 0, "y"), rewards: { fmt: 0, ok: 1 } },
      ],
    };
    const settings = { ...ANALYSIS_DEFAULTS, rewardWeights: { fmt: 0, ok: 2 } };
    const [row] = prepareGroupRows([summary("w", [1, 0])], new Map([["w", weighted]]), settings);
    expect(row).toMatchObject({ mean: 1, passes: 1 });
  });
});

describe("groupSpread (methods.md 2.5)", () => {
  const passes: RolloutGroup = {
    id: "g",
    rollouts: [rollout("a", 1, ""), rollout("b", 1, ""), rollout("c", 1, ""), rollout("d", 0, "")],
  };
  const s = ANALYSIS_DEFAULTS;

  it("checks the rewards of an unranked group (the spec's vectors)", () => {
    expect(groupSpread([0.93, 0.93, 0.94, 0.93, 0.92, 0.93], undefined, undefined, s).status).toBe(
      "no",
    );
    expect(groupSpread([1, 0.75, 0.5, 1, 0.5, 0.875], undefined, undefined, s).status).toBe("yes");
    const one = groupSpread([0.9], undefined, undefined, s);
    expect(one.status).toBe("n/a");
    expect(one.title).toContain("at least two");
  });

  it("checks the GAR factors of the ranked non-hack passes of a ranked group", () => {
    // refund-22 of the seed: three passes, c is a hack, the ranking [a, b] gives factors 1 and 0.5.
    const ranked = annotation({ ranking: [["a"], ["b"], ["c"]], hacks: ["c"] });
    const cell = groupSpread([1, 1, 1, 0], ranked, passes, s);
    expect(cell.status).toBe("yes");
    expect(cell.title).toContain("std 0.250");
    expect(cell.title).toContain("GAR factors of 2 ranked non-hack passes (min factor 0.5)");
    // A tie gives equal factors: no spread, although the rewards' spread would say yes.
    expect(groupSpread([1, 1, 1, 0], annotation({ ranking: [["a", "b"]] }), passes, s).status).toBe(
      "no",
    );
  });

  it("ignores ranked failures when the group is parsed, and says when it could not check", () => {
    const withFailure = annotation({ ranking: [["a"], ["d"]] });
    expect(groupSpread([1, 1, 1, 0], withFailure, passes, s).status).toBe("n/a");
    const unparsed = groupSpread([1, 1, 1, 0], withFailure, undefined, s);
    expect(unparsed.status).toBe("yes");
    expect(unparsed.title).toContain("not parsed");
  });

  it("reports a GAR error instead of throwing", () => {
    const cell = groupSpread([1, 1], annotation({ ranking: [["a"], ["b"]] }), undefined, {
      ...s,
      minFactor: 0,
    });
    expect(cell).toEqual({ status: "n/a", title: expect.stringContaining("min_factor") as string });
  });
});

describe("annotationStatus", () => {
  it("names what the annotation holds and weighs ranked over labelled over notes", () => {
    expect(annotationStatus(undefined, 4)).toEqual({ text: "", weight: 0 });
    const full = annotationStatus(
      annotation({ ranking: [["a"]], labels: { a: "pass", b: "fail" }, notes: " why " }),
      4,
    );
    expect(full.text).toBe("ranked · labelled 2/4 · notes");
    const labelled = annotationStatus(annotation({ labels: { a: "pass" } }), 4);
    const notes = annotationStatus(annotation({ notes: "x" }), 4);
    expect(labelled.text).toBe("labelled 1/4");
    expect(full.weight).toBeGreaterThan(labelled.weight);
    expect(labelled.weight).toBeGreaterThan(notes.weight);
    expect(annotationStatus(annotation({ notes: "  " }), 4).text).toBe("");
  });
});

describe("annotateGroupRows", () => {
  const summaries = [summary("a", [1, 0]), summary("b", [1, 1])];
  const rows = prepareGroupRows(summaries, new Map(), ANALYSIS_DEFAULTS);
  it("rebuilds only the annotated rows and keeps the others' identity", () => {
    const out = annotateGroupRows(
      rows,
      summaries,
      { b: annotation({ hacks: ["b/0", "b/1"], reviewed: true, notes: "odd" }) },
      new Map(),
      ANALYSIS_DEFAULTS,
    );
    expect(out[0]).toBe(rows[0]);
    expect(out[1]).toMatchObject({ id: "b", hacks: 2, reviewed: true, annotation: "notes" });
  });
  it("ignores inherited keys of the annotation record", () => {
    const out = annotateGroupRows(
      prepareGroupRows([summary("toString", [1])], new Map(), ANALYSIS_DEFAULTS),
      [summary("toString", [1])],
      { other: annotation({ notes: "n" }) },
      new Map(),
      ANALYSIS_DEFAULTS,
    );
    expect(out[0]?.annotation).toBe("");
  });
});

describe("sameGroupRow, shareRows and annotatedRowsSelector", () => {
  const summaries = [summary("a", [1, 0, 1]), summary("b", [1, 1]), summary("c", [0, 0])];
  const rows = prepareGroupRows(summaries, new Map(), ANALYSIS_DEFAULTS);

  it("tells rows apart by any field, the spread by its status and text", () => {
    const row = rows[0]!;
    expect(sameGroupRow(row, { ...row })).toBe(true);
    // The spread of a row without a ranking is read through getters (built when read): copy it by
    // name.
    const spread = { status: row.spread.status, title: row.spread.title };
    expect(sameGroupRow(row, { ...row, spread })).toBe(true);
    for (const key of Object.keys(row) as (keyof GroupRow)[]) {
      const value = row[key];
      const other =
        key === "spread"
          ? { status: row.spread.status, title: `${row.spread.title}!` }
          : typeof value === "number"
            ? value + 1
            : typeof value === "boolean"
              ? !value
              : `${value as string}!`;
      expect(sameGroupRow(row, { ...row, [key]: other }), key).toBe(false);
    }
    const empty = prepareGroupRows([summary("e", [])], new Map(), ANALYSIS_DEFAULTS)[0]!;
    expect(Number.isNaN(empty.mean)).toBe(true);
    expect(sameGroupRow(empty, { ...empty })).toBe(true);
  });

  it("keeps the previous array when every row is equal, and the equal rows otherwise", () => {
    const copies = rows.map((r) => ({ ...r }));
    expect(shareRows(rows, copies)).toBe(rows);
    const changed = [copies[0]!, { ...copies[1]!, reviewed: true }, copies[2]!];
    const shared = shareRows(rows, changed);
    expect(shared).not.toBe(rows);
    expect(shared[0]).toBe(rows[0]);
    expect(shared[1]).toBe(changed[1]);
    expect(shared[2]).toBe(rows[2]);
    expect(shareRows(rows, copies.slice(1))).toEqual(copies.slice(1));
  });

  it("gives the same rows for the same annotations, and for a change no row shows", () => {
    const select = annotatedRowsSelector(rows, summaries, new Map(), ANALYSIS_DEFAULTS);
    const ranked = { a: annotation({ ranking: [["a/0"], ["a/2"]] }) };
    const first = select(ranked);
    expect(select(ranked)).toBe(first);
    expect(first[0]).toMatchObject({ id: "a", annotation: "ranked" });
    // The two passes swap places: no row changes (the spread is over the same tier shape).
    expect(select({ a: annotation({ ranking: [["a/2"], ["a/0"]] }) })).toBe(first);
    const labelled = select({
      a: annotation({ ranking: [["a/2"], ["a/0"]], labels: { "a/1": "fail" } }),
    });
    expect(labelled).not.toBe(first);
    expect(labelled[0]).toMatchObject({ id: "a", annotation: "ranked · labelled 1/3" });
    expect(labelled[1]).toBe(first[1]);
    expect(labelled[2]).toBe(first[2]);
  });
});

describe("search and filters", () => {
  const group: RolloutGroup = {
    id: "g2",
    rollouts: [rollout("x", 1, "The REFUND was issued"), rollout("y", 0, "declined")],
  };
  const summaries = [
    summary("g1", [1, 0], "Cancel my order"),
    summary("g2", [1, 0], "Where is my parcel"),
    summary("g3", [0, 0], "Refund please"),
  ];
  const groups = new Map([["g2", group]]);
  const rows = annotateGroupRows(
    prepareGroupRows(summaries, groups, ANALYSIS_DEFAULTS),
    summaries,
    { g1: annotation({ hacks: ["r"], reviewed: true }) },
    groups,
    ANALYSIS_DEFAULTS,
  );
  const haystacks = groupSearchIndex(summaries, groups, "final-assistant");
  const ids = (f: Partial<typeof NO_FILTERS>) =>
    filterGroupRows(rows, { ...NO_FILTERS, ...f }, haystacks).map((r) => r.id);

  it("searches ids, prompts and parsed completions, case-insensitively and trimmed", () => {
    expect(ids({ query: "refund" })).toEqual(["g2", "g3"]);
    expect(ids({ query: " ISSUED " })).toEqual(["g2"]);
    expect(ids({ query: "G1" })).toEqual(["g1"]);
    expect(ids({ query: "declined" })).toEqual(["g2"]);
    expect(ids({ query: "   " })).toEqual(["g1", "g2", "g3"]);
  });

  it("keeps mixed, zero-std, hacked or unreviewed groups, and combines filters", () => {
    expect(ids({ mixedOnly: true })).toEqual(["g1", "g2"]);
    expect(ids({ zeroStdOnly: true })).toEqual(["g3"]);
    expect(ids({ hacksOnly: true })).toEqual(["g1"]);
    expect(ids({ unreviewedOnly: true })).toEqual(["g2", "g3"]);
    expect(ids({ mixedOnly: true, unreviewedOnly: true, query: "parcel" })).toEqual(["g2"]);
  });

  it("builds a lazy index on the first search only, once, and finds the same groups", () => {
    const lazy = lazySearchIndex(summaries, groups, "final-assistant");
    let asked = 0;
    const counted = () => {
      asked++;
      return lazy();
    };
    const lazyIds = (f: Partial<typeof NO_FILTERS>) =>
      filterGroupRows(rows, { ...NO_FILTERS, ...f }, counted).map((r) => r.id);
    expect(lazyIds({ mixedOnly: true })).toEqual(ids({ mixedOnly: true }));
    expect(lazyIds({ query: "  " })).toEqual(ids({ query: "  " }));
    expect(asked).toBe(0);
    for (const query of ["refund", " ISSUED ", "declined", "G1"])
      expect(lazyIds({ query })).toEqual(ids({ query }));
    expect(asked).toBe(4);
    expect(lazy()).toBe(lazy());
    expect(lazy()).toEqual(haystacks);
  });

  it("searches ids and prompts without an index", () => {
    expect(filterGroupRows(rows, { ...NO_FILTERS, query: "cancel" }).map((r) => r.id)).toEqual([
      "g1",
    ]);
  });
});

describe("sortGroupRows", () => {
  const rows = prepareGroupRows(
    [summary("g10", [1, 0]), summary("g2", [NaN]), summary("g1", [1, 1]), summary("G3", [0, 0.5])],
    new Map(),
    ANALYSIS_DEFAULTS,
  );
  const ids = (r: readonly GroupRow[]) => r.map((x) => x.id);

  it("keeps file order without a sort", () => {
    expect(ids(sortGroupRows([...rows].reverse(), null))).toEqual(["g10", "g2", "g1", "G3"]);
  });

  it("sorts text in natural, case-insensitive order", () => {
    expect(ids(sortGroupRows(rows, { key: "id", desc: false }))).toEqual(["g1", "g2", "G3", "g10"]);
    expect(ids(sortGroupRows(rows, { key: "id", desc: true }))).toEqual(["g10", "G3", "g2", "g1"]);
  });

  it("puts NaN last in both directions and breaks ties by file order", () => {
    expect(ids(sortGroupRows(rows, { key: "mean", desc: false }))).toEqual([
      "G3",
      "g10",
      "g1",
      "g2",
    ]);
    expect(ids(sortGroupRows(rows, { key: "mean", desc: true }))).toEqual([
      "g1",
      "g10",
      "G3",
      "g2",
    ]);
    // n: 2, 1, 2, 2: the three 2s keep file order.
    expect(ids(sortGroupRows(rows, { key: "n", desc: true }))).toEqual(["g10", "g1", "G3", "g2"]);
  });

  it("sorts spread yes after no, with n/a last", () => {
    expect(ids(sortGroupRows(rows, { key: "spread", desc: false }))).toEqual([
      "g1",
      "g10",
      "G3",
      "g2",
    ]);
  });

  it("compares numbers before text", () => {
    expect(compareSortValues(1, "a")).toBe(-1);
    expect(compareSortValues("a", 1)).toBe(1);
    expect(compareSortValues(2, 10)).toBe(-1);
    expect(compareSortValues("x2", "x10")).toBeLessThan(0);
  });
});

describe("clusterCell", () => {
  it("shows – unparsed, … pending, the count when done, ! on error", () => {
    expect(clusterCell(false, undefined).text).toBe("–");
    expect(clusterCell(true, undefined).text).toBe("…");
    expect(clusterCell(true, { status: "pending" }).text).toBe("…");
    expect(clusterCell(true, { status: "done", result: { nClusters: 3 } })).toEqual({
      text: "3",
      title: "3 n-gram clusters",
    });
    expect(clusterCell(true, { status: "error", message: "bad n" })).toEqual({
      text: "!",
      title: "clustering failed: bad n",
    });
  });
});

describe("nextSelection", () => {
  const ids = ["a", "b", "c"];
  it("moves one row with the arrows and j/k, clamped, and jumps with Home/End", () => {
    expect(nextSelection(ids, "a", "ArrowDown")).toBe("b");
    expect(nextSelection(ids, "b", "j")).toBe("c");
    expect(nextSelection(ids, "c", "ArrowDown")).toBe("c");
    expect(nextSelection(ids, "b", "ArrowUp")).toBe("a");
    expect(nextSelection(ids, "a", "k")).toBe("a");
    expect(nextSelection(ids, "b", "Home")).toBe("a");
    expect(nextSelection(ids, "a", "End")).toBe("c");
  });
  it("starts from the ends when nothing listed is selected; ignores other keys", () => {
    expect(nextSelection(ids, null, "ArrowDown")).toBe("a");
    expect(nextSelection(ids, "zzz", "ArrowUp")).toBe("c");
    expect(nextSelection(ids, "a", "x")).toBeNull();
    expect(nextSelection([], "a", "ArrowDown")).toBeNull();
  });
});

describe("tool errors (issue 13 finding 4)", () => {
  it("counts a parsed group's tool errors, null before it is parsed; the filter keeps the groups with any", () => {
    const failing = testRollout({
      id: "a/0",
      groupId: "a",
      messages: [msg("tool", '{"error": "gateway (502)"}'), msg("tool", "Error: no seats")],
    });
    const fine = testRollout({ id: "b/0", groupId: "b", messages: [msg("tool", '{"ok": true}')] });
    const groups = new Map([
      ["a", { id: "a", rollouts: [failing] }],
      ["b", { id: "b", rollouts: [fine] }],
    ]);
    const rows = prepareGroupRows(
      [summary("a", [1]), summary("b", [1]), summary("c", [1])],
      groups,
      ANALYSIS_DEFAULTS,
    );
    expect(rows.map((r) => r.toolErrors)).toEqual([2, 0, null]);
    const kept = filterGroupRows(rows, { ...NO_FILTERS, toolErrorsOnly: true });
    expect(kept.map((r) => r.id)).toEqual(["a"]);
    expect(sortGroupRows(rows, { key: "toolErrors", desc: true }).map((r) => r.id)).toEqual([
      "a",
      "b",
      "c",
    ]);
  });
});

describe("the Hacks column: a person's marks, a judge run's flags apart", () => {
  it("counts the latest gar run's flags per group, marked heuristic or judge", () => {
    const rows = prepareGroupRows(
      [summary("a", [1, 1, 0]), summary("b", [1, 0]), summary("c", [0, 1])],
      new Map(),
      ANALYSIS_DEFAULTS,
    );
    expect(flagGroupRows(rows, [])).toBe(rows);
    const older = testJudgeRun(
      { id: "gar-1", mode: "gar", source: "llm", model: "m" },
      {
        a: { hacks: ["a/0"] },
        b: { hacks: ["b/0"] },
      },
    );
    const spread = testJudgeRun({ id: "gar-2", mode: "gar" }, { a: { hacks: ["a/0", "a/1"] } });
    const flagged = flagGroupRows(rows, [older, spread]);
    expect(flagged.map((r) => [r.flagged, r.flaggedBy])).toEqual([
      [2, "heuristic"],
      [1, "judge"],
      [0, null],
    ]);
    expect(flagged[2]).toBe(rows[2]);
    expect(flagged.map(hacksText)).toEqual(["2 (heuristic)", "1 (judge)", ""]);
    expect(hacksText({ hacks: 1, flagged: 2, flaggedBy: "heuristic" })).toBe("1 · 2 (heuristic)");
    expect(hacksText({ hacks: 3, flagged: 0, flaggedBy: null })).toBe("3");
    // The hacks filter keeps a group a run flagged.
    expect(filterGroupRows(flagged, { ...NO_FILTERS, hacksOnly: true }).map((r) => r.id)).toEqual([
      "a",
      "b",
    ]);
  });
});

describe("the step (issue 14)", () => {
  const stepped = (id: string, step: number | null): GroupSummary => ({
    ...summary(id, [1, 0]),
    step,
  });
  const rows = prepareGroupRows(
    [stepped("10/a", 10), stepped("2/b", 2), stepped("40/c", 40), stepped("x", null)],
    new Map(),
    ANALYSIS_DEFAULTS,
  );

  it("filters to one step or a range, both ends included; a group without a step never matches", () => {
    const ids = (from: number, to: number) =>
      filterGroupRows(rows, { ...NO_FILTERS, steps: { from, to } }).map((r) => r.id);
    expect(ids(10, 10)).toEqual(["10/a"]);
    expect(ids(2, 10)).toEqual(["10/a", "2/b"]);
    expect(ids(41, 50)).toEqual([]);
    expect(filterGroupRows(rows, NO_FILTERS)).toHaveLength(4);
  });

  it("sorts by step numerically, groups without a step last", () => {
    expect(sortGroupRows(rows, { key: "step", desc: false }).map((r) => r.id)).toEqual([
      "2/b",
      "10/a",
      "40/c",
      "x",
    ]);
    expect(sortGroupRows(rows, { key: "step", desc: true }).map((r) => r.id)).toEqual([
      "40/c",
      "10/a",
      "2/b",
      "x",
    ]);
  });
});
