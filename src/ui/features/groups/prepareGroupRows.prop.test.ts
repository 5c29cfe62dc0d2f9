/**
 * Properties of the browser's view models: a row's numbers, flags, spread and prompt preview are
 * what core and the plain formulas give (the rows are prepared in one pass, the spread read
 * lazily); a filter never keeps a row that fails it and never drops one that passes, with the
 * search index built eagerly or lazily; a sort is a permutation, ordered by its column with missing
 * values last and ties in file order.
 */
import { fc, test } from "@fast-check/vitest";
import { describe, expect } from "vitest";
import {
  ANALYSIS_DEFAULTS,
  GROUP_ANNOTATION_EMPTY,
  groupFlags,
  spreadCheck,
  statsFinite,
  statsMean,
  statsStd,
  type RolloutGroup,
} from "../../../core/index.ts";
import type { GroupSummary } from "../../../io/dataset.ts";
import { GROUP_SORT_KEYS, type GroupFilters } from "../../../store/url.ts";
import {
  annotateGroupRows,
  compareSortValues,
  filterGroupRows,
  groupRowsBuilder,
  prepareGroupRowsSliced,
  groupSearchIndex,
  lazySearchIndex,
  prepareGroupRows,
  promptPreview,
  rowPassesFlags,
  sameGroupRow,
  sortGroupRows,
  sortValue,
  type GroupRow,
} from "./prepareGroupRows.ts";
import { testRollout } from "../../../test/rolloutFixtures.ts";

const reward = fc.oneof(
  fc.constantFrom(0, 0.5, 1, NaN),
  fc.double({ min: -2, max: 2, noNaN: true, noDefaultInfinity: true }),
);

const dataset = fc
  .array(
    fc.record({
      rewards: fc.array(reward, { minLength: 0, maxLength: 6 }),
      prompt: fc.string({ maxLength: 12 }),
      partial: fc.boolean(),
      hacks: fc.nat({ max: 2 }),
      reviewed: fc.boolean(),
      notes: fc.constantFrom("", "x"),
    }),
    { maxLength: 40 },
  )
  .map((groups) => {
    // Ids mix numbers and text, so the natural order is exercised.
    const summaries: GroupSummary[] = groups.map((g, i) => ({
      id: i % 3 === 0 ? String(i) : `g${i}`,
      rewards: g.rewards,
      prompt: g.prompt,
      partial: g.partial,
      step: null,
    }));
    const annotations = Object.fromEntries(
      groups.flatMap((g, i) =>
        g.hacks > 0 || g.reviewed || g.notes !== ""
          ? [
              [
                summaries[i]!.id,
                {
                  ...GROUP_ANNOTATION_EMPTY,
                  hacks: Array.from({ length: g.hacks }, (_, k) => `r${k}`),
                  reviewed: g.reviewed,
                  notes: g.notes,
                },
              ],
            ]
          : [],
      ),
    );
    const rows = annotateGroupRows(
      prepareGroupRows(summaries, new Map(), ANALYSIS_DEFAULTS),
      summaries,
      annotations,
      new Map(),
      ANALYSIS_DEFAULTS,
    );
    return { summaries, rows };
  });

const filters: fc.Arbitrary<GroupFilters> = fc.record({
  mixedOnly: fc.boolean(),
  zeroStdOnly: fc.boolean(),
  hacksOnly: fc.boolean(),
  unreviewedOnly: fc.boolean(),
  toolErrorsOnly: fc.boolean(),
  query: fc.oneof(fc.constant(""), fc.string({ maxLength: 3 }), fc.constantFrom("g1", "G", "1")),
  // The generated summaries have no step: the step filter is covered in prepareGroupRows.test.ts.
  steps: fc.constant(null),
});

describe("prepareGroupRows", () => {
  const anyReward = fc.oneof(reward, fc.constantFrom(Infinity, -Infinity, -0, 1e300));

  test.prop([fc.array(anyReward, { maxLength: 8 }), fc.constantFrom(0, 0.5, 1, NaN), fc.boolean()])(
    "a row's numbers are core's: groupFlags, statsMean, statsStd and spreadCheck",
    (rewards, passThreshold, titleFirst) => {
      const settings = { ...ANALYSIS_DEFAULTS, passThreshold };
      const [row] = prepareGroupRows(
        [{ id: "g", rewards, prompt: "p", partial: false, step: null }],
        new Map(),
        settings,
      );
      const flags = groupFlags(
        rewards,
        rewards.map((r) => r >= passThreshold),
      );
      const finite = statsFinite(rewards);
      expect(row!.n).toBe(rewards.length);
      expect(row!.passes).toBe(flags.passes);
      expect(row!.mixed).toBe(flags.mixed);
      expect(row!.zeroStd).toBe(flags.zeroStd);
      expect(row!.unscored).toBe(flags.unscored);
      expect(row!.mean).toBe(statsMean(finite));
      expect(row!.std).toBe(finite.length === 0 ? NaN : statsStd(finite, "population"));
      // The spread as it was built eagerly before, read in either order (each part is kept).
      const report = spreadCheck(finite, 1);
      const status = report.n < 2 ? "n/a" : report.ok ? "yes" : "no";
      const title = `${report.text}\nComputed over the rewards of ${finite.length} rollout${finite.length === 1 ? "" : "s"}.`;
      if (titleFirst) expect(row!.spread.title).toBe(title);
      expect(row!.spread.status).toBe(status);
      expect(row!.spread.title).toBe(title);
    },
  );

  const whitespace = fc.constantFrom(
    " ",
    "  ",
    "\n",
    "\t",
    "\r\n",
    "\u00a0",
    "\u2028",
    "\ufeff",
    "\u3000",
  );
  const text = fc
    .array(fc.oneof(fc.string({ maxLength: 6 }), whitespace), { maxLength: 50 })
    .map((parts) => parts.join(""));

  test.prop([text])("a prompt preview is the text on one line, cut at 120 characters", (t) => {
    const flat = t.replace(/\s+/g, " ").trim();
    expect(promptPreview(t)).toBe(flat.length > 120 ? `${flat.slice(0, 120)}…` : flat);
  });
});

describe("filterGroupRows", () => {
  test.prop([dataset, filters])(
    "a lazy search index keeps the same rows, and is asked for only with a query",
    (d, f) => {
      const eager = groupSearchIndex(d.summaries, new Map(), "final-assistant");
      const lazy = lazySearchIndex(d.summaries, new Map(), "final-assistant");
      let asked = 0;
      const kept = filterGroupRows(d.rows, f, () => {
        asked++;
        return lazy();
      });
      expect(kept).toEqual(filterGroupRows(d.rows, f, eager));
      expect(asked).toBe(f.query.trim() === "" ? 0 : 1);
      expect(lazy()).toEqual(eager);
    },
  );

  test.prop([dataset, filters])("keeps exactly the rows that pass every filter", (d, f) => {
    const haystacks = groupSearchIndex(d.summaries, new Map(), "final-assistant");
    const kept = filterGroupRows(d.rows, f, haystacks);
    const query = f.query.trim().toLowerCase();
    const passes = (r: (typeof d.rows)[number]) =>
      rowPassesFlags(r, f) &&
      `${r.id}\n${d.summaries[r.index]!.prompt}`.toLowerCase().includes(query);
    expect(kept.every(passes)).toBe(true);
    expect(kept).toEqual(d.rows.filter(passes));
    if (f.mixedOnly) expect(kept.every((r) => r.mixed)).toBe(true);
    if (f.zeroStdOnly) expect(kept.every((r) => r.zeroStd)).toBe(true);
    if (f.hacksOnly) expect(kept.every((r) => r.hacks > 0)).toBe(true);
    if (f.unreviewedOnly) expect(kept.every((r) => !r.reviewed)).toBe(true);
  });
});

describe("sortGroupRows", () => {
  const sort = fc.record({ key: fc.constantFrom(...GROUP_SORT_KEYS), desc: fc.boolean() });

  test.prop([dataset, sort])(
    "is a permutation in column order, missing last, ties by file",
    (d, s) => {
      const shuffled = [...d.rows].reverse();
      const sorted = sortGroupRows(shuffled, s);
      expect([...sorted].sort((a, b) => a.index - b.index)).toEqual(d.rows);
      const missing = (v: number | string) =>
        v === "" || (typeof v === "number" && Number.isNaN(v));
      for (let i = 1; i < sorted.length; i++) {
        const a = sortValue(sorted[i - 1]!, s.key);
        const b = sortValue(sorted[i]!, s.key);
        if (missing(a)) {
          expect(missing(b)).toBe(true);
          expect(sorted[i - 1]!.index).toBeLessThan(sorted[i]!.index);
          continue;
        }
        if (missing(b)) continue;
        const c = compareSortValues(a, b) * (s.desc ? -1 : 1);
        expect(c).toBeLessThanOrEqual(0);
        if (c === 0) expect(sorted[i - 1]!.index).toBeLessThan(sorted[i]!.index);
      }
    },
  );

  test.prop([dataset])("without a sort, restores file order", (d) => {
    expect(sortGroupRows([...d.rows].reverse(), null)).toEqual(d.rows);
  });
});

describe("groupRowsBuilder", () => {
  const sameRows = (a: readonly GroupRow[], b: readonly GroupRow[]): boolean =>
    a.length === b.length && a.every((row, i) => sameGroupRow(row, b[i]!));

  test.prop([
    fc.array(fc.array(reward, { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 12 }),
    fc.boolean(),
    // A sequence of parsed-group sets: each step parses, re-parses or drops some groups.
    fc.array(fc.array(fc.tuple(fc.nat(15), fc.constantFrom(0, 1, 0.5)), { maxLength: 5 }), {
      maxLength: 6,
    }),
    fc.constantFrom(null, { correct: 2 }),
  ])(
    "gives prepareGroupRows' rows after every change of the parsed groups or the settings",
    (rewardsOf, duplicateIds, steps, rewardWeights) => {
      const summaries: GroupSummary[] = rewardsOf.map((rewards, i) => ({
        // Duplicate ids (a run's steps can repeat a prompt's group id) take the plain path.
        id: duplicateIds ? `g${i % 3}` : `g${i}`,
        rewards,
        prompt: `prompt ${i}`,
        partial: false,
        step: null,
      }));
      const build = groupRowsBuilder();
      let groups = new Map<string, RolloutGroup>();
      const settings = { ...ANALYSIS_DEFAULTS, rewardWeights };
      expect(
        sameRows(build(summaries, groups, settings), prepareGroupRows(summaries, groups, settings)),
      ).toBe(true);
      for (const step of steps) {
        groups = new Map(groups);
        for (const [at, r] of step) {
          const id = `g${at}`;
          if (r === 0.5) groups.delete(id);
          else
            groups.set(id, {
              id,
              rollouts: [testRollout({ id: `${id}/0`, reward: r, rewards: { correct: r } })],
            });
        }
        const want = prepareGroupRows(summaries, groups, settings);
        expect(sameRows(build(summaries, groups, settings), want)).toBe(true);
      }
      // Other settings: every row again.
      const other = { ...settings, passThreshold: 0.25 };
      expect(
        sameRows(build(summaries, groups, other), prepareGroupRows(summaries, groups, other)),
      ).toBe(true);
    },
  );
});

describe("prepareGroupRowsSliced", () => {
  test.prop(
    [
      fc.integer({ min: 0, max: 9000 }),
      fc.array(fc.array(reward, { maxLength: 4 }), { minLength: 1, maxLength: 20 }),
      fc.constantFrom(null, { correct: 2 }),
    ],
    { numRuns: 20 },
  )(
    "gives prepareGroupRows' rows, pausing between slices, and stops when cancelled",
    async (count, rewardsOf, rewardWeights) => {
      const summaries: GroupSummary[] = Array.from({ length: count }, (_, i) => ({
        id: `g${i}`,
        rewards: rewardsOf[i % rewardsOf.length]!,
        prompt: `a  prompt\n${i}`,
        partial: false,
        step: null,
      }));
      const settings = { ...ANALYSIS_DEFAULTS, rewardWeights };
      let pauses = 0;
      const sliced = await prepareGroupRowsSliced(
        summaries,
        new Map(),
        settings,
        () => {
          pauses++;
          return Promise.resolve();
        },
        () => false,
      );
      const whole = prepareGroupRows(summaries, new Map(), settings);
      expect(sliced).not.toBeNull();
      expect(sliced!.length).toBe(whole.length);
      expect(sliced!.every((row, i) => sameGroupRow(row, whole[i]!))).toBe(true);
      expect(pauses).toBe(Math.max(0, Math.ceil(count / 4000) - 1));
      // Cancelled at the first pause: no rows (a single slice has no pause, so it completes).
      const cancelled = await prepareGroupRowsSliced(
        summaries,
        new Map(),
        settings,
        () => Promise.resolve(),
        () => true,
      );
      if (count > 4000) expect(cancelled).toBeNull();
      else expect(cancelled).toHaveLength(count);
    },
  );
});
