/**
 * `analyze` begins analysing a file's groups while it is still being indexed (issue 16, point 4:
 * the index was a third of a 500 MB run, the threads idle meanwhile). Nothing is final until the
 * index is: so a group is sent once a later group has started (in a file of contiguous groups, it
 * is then complete), with a copy of the rows it was read from, and its outcome is taken at the end
 * only when the finished index gives it exactly those rows and ids (see analyzeIndexInPool).
 * Otherwise (a group that grew later, a row a duplicate id's settling moved) it is analysed again.
 * Once a group already sent grows, the file's groups are interleaved: nothing more is sent.
 */
import type { IndexedGroupRows, PackedIndex, RowLocator } from "../../io/index.ts";
import type { AnalyzedGroup } from "./protocol.ts";
import {
  JOB_ROWS,
  MAX_JOB_GROUPS,
  type AnalyzePool,
  type EarlyOutcomes,
  type JobPlace,
} from "./pool.ts";

/** How many of the groups sent last are watched for growth. */
const WATCHED = 32;

interface Sent {
  /** The rows (the index's numbers) and their own ids (null: none has one) it was read from. */
  readonly rows: readonly number[];
  readonly ids: readonly (string | null)[] | null;
  readonly job: Promise<readonly AnalyzedGroup[]>;
  /** Its place in the job. */
  readonly at: number;
}

interface Pending {
  readonly id: string;
  readonly rows: readonly number[];
  readonly ids: readonly (string | null)[] | null;
}

export class EarlyAnalysis implements EarlyOutcomes {
  private readonly pool: AnalyzePool;
  private groups: ReadonlyMap<string, IndexedGroupRows> | null = null;
  private entries: Iterator<[string, IndexedGroupRows]> | null = null;
  /** How many of the groups' entries were seen; the newest is not sent (it may still grow). */
  private seen = 0;
  private newest: readonly [string, IndexedGroupRows] | null = null;
  private batch: Pending[] = [];
  private batchRows = 0;
  private readonly sent = new Map<string, Sent>();
  /** Sent groups already taken (and dropped from `sent`). */
  private taken = 0;
  private readonly watched: { readonly group: IndexedGroupRows; readonly rows: number }[] = [];
  private stopped = false;

  /** How many of the first groups come back with their analysis (analyzeIndexInPool's `keep`). */
  private readonly keep: number;

  constructor(pool: AnalyzePool, keep: number = Infinity) {
    this.pool = pool;
    this.keep = keep;
  }

  /** Whether it stopped sending groups (the file's groups are not contiguous). */
  get interleaved(): boolean {
    return this.stopped;
  }

  /** How many groups were sent. */
  get sentGroups(): number {
    return this.sent.size + this.taken;
  }

  /** io's IndexCallbacks.onRows: sends the groups a later group follows, a job at a time. */
  readonly onRows = (
    groups: ReadonlyMap<string, IndexedGroupRows>,
    locator: RowLocator,
    format: string,
  ): void => {
    if (this.stopped) return;
    if (this.groups !== groups) {
      // One map grows through an index; another one means this is not that index.
      this.stopped = this.groups !== null;
      if (this.stopped) return;
      this.groups = groups;
      this.entries = groups.entries();
    }
    for (const w of this.watched)
      if (w.group.rows.length !== w.rows) {
        this.stopped = true;
        return;
      }
    // The map's iterator sees entries added since; it is never run past the last one (it would end).
    while (this.seen < groups.size) {
      const next = this.entries!.next();
      this.seen++;
      if (next.done === true) {
        this.stopped = true;
        return;
      }
      if (this.newest !== null) this.add(this.newest, locator, format);
      this.newest = next.value;
    }
  };

  private add(
    [id, group]: readonly [string, IndexedGroupRows],
    locator: RowLocator,
    format: string,
  ): void {
    // A plain array: a typed array per group is an ArrayBuffer per group for the collector.
    const rows = Array.from(group.rows);
    let ids: (string | null)[] | null = null;
    if (group.ids !== null)
      for (let k = 0; k < group.ids.length; k++)
        if (group.ids[k] !== null) {
          ids = Array.from(group.ids);
          break;
        }
    this.batch.push({ id, rows, ids });
    this.batchRows += rows.length;
    this.watched.push({ group, rows: rows.length });
    if (this.watched.length > WATCHED) this.watched.shift();
    if (this.batchRows >= JOB_ROWS || this.batch.length >= MAX_JOB_GROUPS)
      this.flush(locator, format);
  }

  /** Sends the batch as one job: a packed index of its groups, rows numbered from 0. */
  private flush(locator: RowLocator, format: string): void {
    const batch = this.batch;
    const total = this.batchRows;
    this.batch = [];
    this.batchRows = 0;
    const offsets = new Float64Array(total);
    const lengths = new Float64Array(total);
    const lines = new Uint32Array(total);
    const starts = new Uint32Array(batch.length + 1);
    const owned = batch.some((p) => p.ids !== null);
    const ids: (string | null)[] | null = owned ? [] : null;
    let r = 0;
    batch.forEach((p, k) => {
      starts[k] = r;
      p.rows.forEach((row, j) => {
        offsets[r] = locator.offsetAt(row);
        lengths[r] = locator.lengthAt(row);
        lines[r] = locator.lineAt(row);
        ids?.push(p.ids?.[j] ?? null);
        r++;
      });
    });
    starts[batch.length] = r;
    const index: PackedIndex = {
      format,
      offsets,
      lengths,
      lines,
      groupIds: batch.map((p) => p.id),
      starts,
      rows: Uint32Array.from({ length: total }, (_, k) => k),
      ids,
    };
    // Groups are sent in the index's order, so the first ones sent are the first `keep`.
    const sentBefore = this.sentGroups;
    const job = this.pool.analyze(
      index,
      Math.max(0, Math.min(batch.length, this.keep - sentBefore)),
    );
    batch.forEach((p, at) => this.sent.set(p.id, { rows: p.rows, ids: p.ids, job, at }));
  }

  /** Where group g's outcome is, if it was sent with the rows and ids the index gives it; once. */
  take(index: PackedIndex, g: number): JobPlace | null {
    const id = index.groupIds[g]!;
    const sent = this.sent.get(id);
    if (sent === undefined) return null;
    const start = index.starts[g]!;
    if (index.starts[g + 1]! - start !== sent.rows.length) return null;
    for (let k = 0; k < sent.rows.length; k++) {
      if (index.rows[start + k] !== sent.rows[k]) return null;
      if ((index.ids?.[start + k] ?? null) !== (sent.ids?.[k] ?? null)) return null;
    }
    // Taken once: what was kept to check it goes now, not when the whole analysis ends.
    this.sent.delete(id);
    this.taken++;
    return { job: sent.job, at: sent.at };
  }
}
