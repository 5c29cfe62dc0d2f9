import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  ANNOTATIONS_EMPTY,
  GROUP_ANNOTATION_EMPTY,
  groupFlags,
  reviewQueue,
  type Annotations,
} from "../../../core/index.ts";
import type { GroupSummary } from "../../../io/dataset.ts";
import { prepareCheatSheet } from "./prepareCheatSheet.ts";
import { prepareReview, prepareReviewQueue } from "./prepareReview.ts";
import { reviewCommand } from "./shortcuts.ts";

const summary = (id: string, rewards: number[]): GroupSummary => ({
  id,
  rewards,
  prompt: "",
  partial: false,
  step: null,
});

const SUMMARIES = [
  summary("g0", [1, 0, 1]),
  summary("g1", [1, 1, 1]),
  summary("g2", [0, 0.4, 0.6]),
  summary("g3", [NaN, 0]),
];
const SETTINGS = { passThreshold: 0.5, rewardWeights: null };

const reviewed = (...ids: string[]): Annotations => ({
  ...ANNOTATIONS_EMPTY,
  groups: Object.fromEntries(ids.map((id) => [id, { ...GROUP_ANNOTATION_EMPTY, reviewed: true }])),
});

describe("prepareReviewQueue", () => {
  it("lists every group, the mixed ones, or a seeded sample in file order", () => {
    const groups = new Map();
    expect(prepareReviewQueue(SUMMARIES, groups, SETTINGS, { kind: "all" })).toEqual([
      "g0",
      "g1",
      "g2",
      "g3",
    ]);
    expect(prepareReviewQueue(SUMMARIES, groups, SETTINGS, { kind: "mixed" })).toEqual([
      "g0",
      "g2",
    ]);
    const sample = prepareReviewQueue(SUMMARIES, groups, SETTINGS, {
      kind: "sample",
      size: 2,
      seed: 3,
    });
    expect(sample).toHaveLength(2);
    expect(sample).toEqual([...sample].sort());
    expect(
      prepareReviewQueue(SUMMARIES, groups, SETTINGS, { kind: "sample", size: 2, seed: 3 }),
    ).toEqual(sample);
  });

  it("every mode gives core reviewQueue's queue over groupFlags' mixed groups", () => {
    const rewards = fc.array(fc.constantFrom(0, 0.25, 0.5, 1, NaN), { maxLength: 5 });
    const mode = fc.oneof(
      fc.constant({ kind: "all" as const }),
      fc.constant({ kind: "mixed" as const }),
      fc.record({
        kind: fc.constant("sample" as const),
        size: fc.nat({ max: 6 }),
        seed: fc.nat({ max: 9 }),
      }),
    );
    fc.assert(
      fc.property(
        fc.array(rewards, { maxLength: 12 }),
        fc.constantFrom(0.25, 0.5, 1),
        mode,
        (all, t, m) => {
          const summaries = all.map((r, i) => summary(`g${i}`, r));
          const expected = reviewQueue(
            summaries.map((s) => ({
              id: s.id,
              mixed: groupFlags(
                s.rewards,
                s.rewards.map((r) => r >= t),
              ).mixed,
            })),
            m,
          );
          const settings = { passThreshold: t, rewardWeights: null };
          expect(prepareReviewQueue(summaries, new Map(), settings, m)).toEqual(expected);
        },
      ),
    );
  });

  it("a higher pass threshold changes which groups are mixed", () => {
    expect(
      prepareReviewQueue(
        SUMMARIES,
        new Map(),
        { ...SETTINGS, passThreshold: 0.95 },
        {
          kind: "mixed",
        },
      ),
    ).toEqual(["g0"]);
  });
});

describe("prepareReview", () => {
  const queue = ["g0", "g2", "g5", "g7"];

  it("gives the open group's place, the reviewed count and its neighbours", () => {
    const v = prepareReview(queue, "g2", reviewed("g0", "g7", "g9"));
    expect(v).toEqual({
      index: 2,
      total: 4,
      positionText: "2 of 4",
      reviewed: 2,
      previous: "g0",
      next: "g5",
      nextUnreviewed: "g5",
    });
  });

  it("outside the queue: no place, Next is the first group", () => {
    const v = prepareReview(queue, "gX", ANNOTATIONS_EMPTY);
    expect(v.positionText).toBe("– of 4");
    const many = Array.from({ length: 12_345 }, (_, i) => `g${i}`);
    expect(prepareReview(many, "g1233", ANNOTATIONS_EMPTY).positionText).toBe("1,234 of 12,345");
    expect(v.index).toBeNull();
    expect(v.previous).toBeNull();
    expect(v.next).toBe("g0");
    expect(prepareReview(queue, null, ANNOTATIONS_EMPTY).next).toBe("g0");
  });

  it("counts the reviewed groups of the queue, and only those", () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.constantFrom("g0", "g1", "g2", "g3", "g4", "constructor"), {
          maxLength: 6,
        }),
        fc.dictionary(fc.constantFrom("g1", "g3", "g5", "constructor", "__proto__"), fc.boolean()),
        (ids, marks) => {
          const annotations: Annotations = {
            ...ANNOTATIONS_EMPTY,
            groups: Object.fromEntries(
              Object.entries(marks).map(([id, r]) => [
                id,
                { ...GROUP_ANNOTATION_EMPTY, reviewed: r },
              ]),
            ),
          };
          const expected = ids.filter((id) => Object.hasOwn(marks, id) && marks[id] === true);
          expect(prepareReview(ids, null, annotations).reviewed).toBe(expected.length);
          // The same queue again (its set of ids is kept) after an annotation change.
          expect(prepareReview(ids, null, ANNOTATIONS_EMPTY).reviewed).toBe(0);
          expect(prepareReview(ids, null, annotations).reviewed).toBe(expected.length);
        },
      ),
    );
  });

  it("the next unreviewed group wraps around and skips reviewed ones", () => {
    expect(prepareReview(queue, "g5", reviewed("g7")).nextUnreviewed).toBe("g0");
    expect(prepareReview(queue, "g5", reviewed("g7", "g0", "g2")).nextUnreviewed).toBeNull();
  });

  it("walking Next from outside visits the whole queue in order", () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.string({ minLength: 1 }), { maxLength: 30 }), (ids) => {
        const seen: string[] = [];
        let at: string | null = null;
        for (;;) {
          const next: string | null = prepareReview(ids, at, ANNOTATIONS_EMPTY).next;
          if (next === null) break;
          seen.push(next);
          at = next;
        }
        expect(seen).toEqual(ids);
        if (at !== null)
          expect(prepareReview(ids, at, ANNOTATIONS_EMPTY).positionText).toBe(
            `${ids.length.toLocaleString("en-US")} of ${ids.length.toLocaleString("en-US")}`,
          );
      }),
    );
  });
});

describe("review shortcuts", () => {
  const key = (
    k: string,
    mods: Partial<Record<"ctrlKey" | "metaKey" | "altKey" | "shiftKey", boolean>> = {},
  ) => ({
    key: k,
    ctrlKey: false,
    metaKey: false,
    altKey: false,
    shiftKey: false,
    ...mods,
  });
  it("maps keys to commands", () => {
    expect(reviewCommand(key("]"))).toBe("next");
    expect(reviewCommand(key("["))).toBe("previous");
    expect(reviewCommand(key("m"))).toBe("mark-next");
    expect(reviewCommand(key("?", { shiftKey: true }))).toBe("help");
    expect(reviewCommand(key("z", { ctrlKey: true }))).toBe("undo");
    expect(reviewCommand(key("z", { metaKey: true }))).toBe("undo");
    expect(reviewCommand(key("Z", { ctrlKey: true, shiftKey: true }))).toBe("redo");
    expect(reviewCommand(key("y", { ctrlKey: true }))).toBe("redo");
    expect(reviewCommand(key("z"))).toBeNull();
    expect(reviewCommand(key("m", { ctrlKey: true }))).toBeNull();
    expect(reviewCommand(key("]", { altKey: true }))).toBeNull();
  });
});

describe("prepareCheatSheet", () => {
  it("names keys readably and leaves empty lists out", () => {
    expect(
      prepareCheatSheet([
        { title: "One", shortcuts: [{ keys: ["ArrowDown", "j", " "], action: "down" }] },
        { title: "Empty", shortcuts: [] },
      ]),
    ).toEqual([{ title: "One", rows: [{ keys: ["↓", "j", "Space"], action: "down" }] }]);
  });
});
