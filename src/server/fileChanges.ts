/**
 * What changed between two scans of a run's files, for the `files` server-sent event. Pure. A
 * file is known by its size, its modification time and its first bytes (HEAD_BYTES): a file that
 * is longer and starts as it did has grown (a dump being written), one that is shorter has
 * shrunk, and one that changed otherwise (other first bytes, or the same size with a new time)
 * was rewritten, so the studio reads it again from the start.
 */

/** How many leading bytes tell a grown file from a rewritten one. */
export const HEAD_BYTES = 4096;

export interface FileSnapshot {
  readonly id: string;
  readonly size: number;
  readonly mtimeMs: number;
  /** The file's first min(size, HEAD_BYTES) bytes. */
  readonly head: Uint8Array;
}

export type FileChangeKind = "added" | "grown" | "shrunk" | "rewritten" | "removed";

export interface FileChange {
  readonly id: string;
  readonly kind: FileChangeKind;
  /** The new size and time (the last known ones for `removed`). */
  readonly size: number;
  readonly mtimeMs: number;
}

function startsWith(bytes: Uint8Array, prefix: Uint8Array): boolean {
  if (prefix.length > bytes.length) return false;
  for (let i = 0; i < prefix.length; i++) if (bytes[i] !== prefix[i]) return false;
  return true;
}

/** One file's change, or null when it is the same. */
export function fileChangeKind(before: FileSnapshot, after: FileSnapshot): FileChangeKind | null {
  if (after.size < before.size) return "shrunk";
  if (after.size > before.size) return startsWith(after.head, before.head) ? "grown" : "rewritten";
  const sameHead = after.head.length === before.head.length && startsWith(after.head, before.head);
  return after.mtimeMs === before.mtimeMs && sameHead ? null : "rewritten";
}

/**
 * The changes from one scan to the next, by id: removed files first (in the old order), then the
 * new scan's files in its order.
 */
export function fileChanges(
  before: ReadonlyMap<string, FileSnapshot>,
  after: ReadonlyMap<string, FileSnapshot>,
): FileChange[] {
  const changes: FileChange[] = [];
  for (const [id, b] of before)
    if (!after.has(id)) changes.push({ id, kind: "removed", size: b.size, mtimeMs: b.mtimeMs });
  for (const [id, a] of after) {
    const b = before.get(id);
    const kind = b === undefined ? "added" : fileChangeKind(b, a);
    if (kind !== null) changes.push({ id, kind, size: a.size, mtimeMs: a.mtimeMs });
  }
  return changes;
}
