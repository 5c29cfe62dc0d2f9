/**
 * What indexing a large JSONL file keeps (indexedFile.ts): where its rows are, its groups' rows,
 * the state a group is parsed through on demand, and the progress a followed file resumes from.
 */
import type { FirstClaims } from "../byteIndex/firstClaims.ts";
import type { RolloutGroup } from "../../core/index.ts";
import type { FormatCandidate } from "../formats/load.ts";
import type { FormatSpec } from "../formats/spec.ts";
import type { FormatIndexSpec, IndexedRowKey } from "../byteIndex/formatIndex.ts";
import type { JsonlIndexer } from "../byteIndex/jsonlIndexer.ts";
import type { ParseIssue } from "../issues.ts";
import type { ByteSource } from "./byteSource.ts";

/** The index's unit of reading: 1 MB (a chunk of the file, a slice of rows, a look for text). */
export const CHUNK = 1 << 20;

/** Where an indexed file's rows are: what parsing a group on demand needs of the index. */
export interface RowLocator {
  offsetAt(row: number): number;
  lengthAt(row: number): number;
  lineAt(row: number): number;
}

/** One indexed group's rows, in file order, and each row's own id (null: defaulted). */
export interface IndexedGroupRows {
  readonly rows: ArrayLike<number>;
  /** Null when no row of the group has an id of its own. */
  readonly ids: ArrayLike<string | null> | null;
}

/** An indexed file's groups by id (a Map while indexing; packed typed arrays after a transfer). */
export interface IndexedGroups {
  get(groupId: string): IndexedGroupRows | undefined;
}

export interface GroupRows {
  readonly rows: number[];
  readonly rewards: number[];
  /** Each row's own id; null where it is defaulted (`<group>/<index in group>`). */
  readonly ids: (string | null)[];
  prompt: string;
}

export interface IndexCallbacks {
  readonly onProgress: (bytes: number, rows: number, groups: number) => void;
  readonly onFirstGroup: (group: RolloutGroup) => void;
  readonly isCancelled: () => boolean;
  /**
   * After each chunk's rows are indexed: the groups so far in order of their first row (entries
   * are only added; a group's rows only grow) and where each row is, read as `format`. Nothing is
   * final: duplicate ids are settled at the end, which may move a row into a group. The CLI starts
   * analysing the groups that look complete from here (src/cli/analyzeThreads/speculate.ts).
   */
  readonly onRows?: (
    groups: ReadonlyMap<string, IndexedGroupRows>,
    rows: RowLocator,
    format: string,
  ) => void;
}

/**
 * What indexing a file keeps between reads of it (a followed file, issue 14): the row handling's
 * state, so bytes appended later are indexed from where the last read stopped.
 */
export interface IndexProgress {
  readonly indexer: JsonlIndexer;
  readonly index: FormatIndexSpec;
  readonly candidates: readonly FormatCandidate[];
  /**
   * Each id's first claimant (a row), and for ids claimed again, every claimant in file order.
   * Null while no row has an id of its own: defaulted ids cannot collide, so none is kept.
   */
  ids: FirstClaims | null;
  readonly claims: Map<string, number[]>;
  /** Rows skipped as duplicates: what they would add to their group if they own their id after all. */
  readonly duplicates: Map<number, IndexedRowKey & { readonly id: string }>;
  readonly issues: ParseIssue[];
  /** Groups in order of their first row, before duplicates are settled. */
  readonly groups: Map<string, GroupRows>;
  handled: number;
  bytes: number;
}

/** What the worker keeps to parse groups later. */
export interface IndexedState {
  file: ByteSource;
  readonly spec: FormatSpec;
  readonly indexer: RowLocator;
  groups: IndexedGroups;
  /** Set when more bytes can be indexed (a followed file read up to a line's end). */
  progress?: IndexProgress;
}
