/**
 * Covers: the analysis begun while a file is indexed (./speculate.ts). A group is sent once a
 * later group has started, jobs of about JOB_ROWS rows with the rows' places in the file; its
 * outcome is taken only for the very rows and ids the finished index gives it; once a group sent
 * grows, nothing more is sent.
 */
import { describe, expect, it } from "vitest";
import type { IndexedGroupRows, PackedIndex, RowLocator } from "../../io/index.ts";
import type { AnalyzePool } from "./pool.ts";
import { JOB_ROWS } from "./pool.ts";
import type { AnalyzedGroup } from "./protocol.ts";
import { EarlyAnalysis } from "./speculate.ts";

/** Row r is at byte r * 100, 90 bytes long, on line r + 1. */
const locator: RowLocator = {
  offsetAt: (r) => r * 100,
  lengthAt: () => 90,
  lineAt: (r) => r + 1,
};

/** A pool that keeps each job and answers with the group ids and row counts it was sent. */
function fakePool(): AnalyzePool & { readonly jobs: PackedIndex[] } {
  const jobs: PackedIndex[] = [];
  return {
    jobs,
    analyze(index) {
      jobs.push(index);
      return Promise.resolve(
        index.groupIds.map((groupId, g): AnalyzedGroup => ({
          tally: {
            groupId,
            rewards: [index.starts[g + 1]! - index.starts[g]!],
            prompt: "",
            issues: [],
          },
          streamed: null,
        })),
      );
    },
    close: () => undefined,
  };
}

type Groups = Map<string, { rows: number[]; ids: (string | null)[] }>;

/** The finished index of `groups`, packed as io's packIndex packs it. */
function packed(groups: Groups, rowCount: number): PackedIndex {
  const groupIds = [...groups.keys()];
  const starts = new Uint32Array(groupIds.length + 1);
  const rows: number[] = [];
  const ids: (string | null)[] = [];
  groupIds.forEach((id, g) => {
    starts[g] = rows.length;
    rows.push(...groups.get(id)!.rows);
    ids.push(...groups.get(id)!.ids);
  });
  starts[groupIds.length] = rows.length;
  return {
    format: "native",
    offsets: Float64Array.from({ length: rowCount }, (_, r) => r * 100),
    lengths: new Float64Array(rowCount).fill(90),
    lines: Uint32Array.from({ length: rowCount }, (_, r) => r + 1),
    groupIds,
    starts,
    rows: Uint32Array.from(rows),
    ids: ids.some((i) => i !== null) ? ids : null,
  };
}

/** Appends `count` rows to group `id` (opening it), numbered from `next.row`. */
function addRows(groups: Groups, next: { row: number }, id: string, count: number): void {
  let group = groups.get(id);
  if (group === undefined) groups.set(id, (group = { rows: [], ids: [] }));
  for (let k = 0; k < count; k++) {
    group.rows.push(next.row++);
    group.ids.push(null);
  }
}

const view = (groups: Groups): ReadonlyMap<string, IndexedGroupRows> => groups;

describe("EarlyAnalysis", () => {
  it("sends each group once a later one started, in jobs of about JOB_ROWS rows, and takes them back", async () => {
    const pool = fakePool();
    const early = new EarlyAnalysis(pool);
    const groups: Groups = new Map();
    const next = { row: 0 };
    const total = Math.ceil((JOB_ROWS * 2.5) / 3);
    // Groups of 3 rows, indexed 100 rows per chunk: a group may straddle two chunks.
    for (let g = 0; g < total; g++)
      for (let k = 0; k < 3; k++) {
        addRows(groups, next, `g${g}`, 1);
        if (next.row % 100 === 0) early.onRows(view(groups), locator, "native");
      }
    early.onRows(view(groups), locator, "native");
    expect(early.interleaved).toBe(false);
    // Two full jobs went; the rest waits in the batch, and the newest group is never sent.
    expect(pool.jobs.length).toBe(2);
    const first = pool.jobs[0]!;
    expect(first.format).toBe("native");
    expect(first.starts[first.groupIds.length]).toBeGreaterThanOrEqual(JOB_ROWS);
    expect(first.groupIds.slice(0, 2)).toEqual(["g0", "g1"]);
    expect([...first.offsets.slice(0, 4)]).toEqual([0, 100, 200, 300]);
    expect([...first.lines.slice(0, 4)]).toEqual([1, 2, 3, 4]);
    expect([...first.rows.slice(0, 4)]).toEqual([0, 1, 2, 3]);
    expect(early.sentGroups).toBe(pool.jobs.reduce((n, j) => n + j.groupIds.length, 0));

    // A row settled into group g1 at the end: that group is read again, the others are taken.
    groups.get("g1")!.rows.push(next.row);
    groups.get("g1")!.ids.push("dup");
    const index = packed(groups, next.row + 1);
    expect(early.take(index, 1)).toBeNull();
    expect(early.take(index, index.groupIds.length - 1)).toBeNull();
    const taken = early.take(index, 5);
    expect(taken).not.toBeNull();
    expect((await taken!.job)[taken!.at]!.tally.groupId).toBe("g5");
    // Taken once: the second time it is gone.
    expect(early.take(index, 5)).toBeNull();
  });

  it("stops sending once a group it sent grows (interleaved groups), and takes none that grew", () => {
    const pool = fakePool();
    const early = new EarlyAnalysis(pool);
    const groups: Groups = new Map();
    const next = { row: 0 };
    // Round one: 2,000 groups of one row; round two: a second row for each.
    for (let g = 0; g < 2000; g++) {
      addRows(groups, next, `g${g}`, 1);
      if (next.row % 50 === 0) early.onRows(view(groups), locator, "native");
    }
    const sentBefore = early.sentGroups;
    expect(sentBefore).toBeGreaterThan(0);
    for (let g = 0; g < 2000; g++) {
      addRows(groups, next, `g${g}`, 1);
      if (next.row % 50 === 0) early.onRows(view(groups), locator, "native");
    }
    expect(early.interleaved).toBe(true);
    expect(early.sentGroups).toBe(sentBefore);
    const index = packed(groups, next.row);
    for (let g = 0; g < 2000; g++) expect(early.take(index, g)).toBeNull();
  });

  it("sends each row's own id with its group, and takes a group back only with the same ids", () => {
    const pool = fakePool();
    const early = new EarlyAnalysis(pool);
    const groups: Groups = new Map();
    const next = { row: 0 };
    for (let g = 0; g < 1100; g++) {
      addRows(groups, next, `g${g}`, 1);
      groups.get(`g${g}`)!.ids[0] = g % 2 === 0 ? `own-${g}` : null;
    }
    early.onRows(view(groups), locator, "native");
    const job = pool.jobs[0]!;
    expect(job.ids?.slice(0, 3)).toEqual(["own-0", null, "own-2"]);
    const index = packed(groups, next.row);
    expect(early.take(index, 0)).not.toBeNull();
    groups.get("g2")!.ids[0] = "another";
    expect(early.take(packed(groups, next.row), 2)).toBeNull();
  });
});
