/**
 * How the CLI reads a rollout file: small files whole (loadBytes), large JSONL files through the
 * same byte index as the studio's worker, streamed from a file-backed Blob and parsed a group at a
 * time, so the file is never decoded whole.
 */
import { openAsBlob, statSync } from "node:fs";
import type { RolloutGroup } from "../core/index.ts";
import {
  datasetWithParsedGroup,
  INDEX_MIN_BYTES,
  indexBlobIfPossible,
  LoadError,
  loadBytes,
  readIndexedGroup,
  type FormatOptions,
  type LoadStats,
  type ParseIssue,
} from "../io/index.ts";
import { readBytes } from "./readBytes.ts";

/** What the CLI needs from a load, whichever path read it. */
export interface CliLoad {
  readonly file: string;
  readonly format: string;
  readonly formatLabel: string;
  readonly groupKey: string;
  readonly groups: readonly RolloutGroup[];
  readonly issues: readonly ParseIssue[];
  readonly stats: LoadStats;
}

/** The size from which JSONL is indexed; ROLLOUT_STUDIO_INDEX_THRESHOLD (bytes) overrides it. */
export function indexThreshold(env: Readonly<Record<string, string | undefined>>): number {
  const raw = env.ROLLOUT_STUDIO_INDEX_THRESHOLD;
  const value = raw === undefined || raw.trim() === "" ? NaN : Number(raw);
  return Number.isFinite(value) && value >= 0 ? value : INDEX_MIN_BYTES;
}

export async function loadForCli(
  path: string,
  name: string,
  format: string | undefined,
  options: FormatOptions | undefined,
  threshold: number,
): Promise<CliLoad> {
  let size: number;
  try {
    size = statSync(path).size;
  } catch {
    // readBytes names the problem (no such file, a directory, permissions).
    return loadBytes(name, readBytes(path, "rollout file"), { format, options });
  }
  if (size >= threshold && options === undefined) {
    const file = new File([await openAsBlob(path)], name);
    const indexed = await indexBlobIfPossible(file, format, {
      isCancelled: () => false,
      onProgress: () => undefined,
      onFirstGroup: () => undefined,
    });
    if (indexed !== null) {
      let dataset = indexed.dataset;
      const groups: RolloutGroup[] = [];
      for (const summary of indexed.dataset.summaries) {
        const { group, issues } = await readIndexedGroup(indexed.state, summary.id);
        if (!dataset.groups.some((g) => g.id === summary.id)) {
          dataset = datasetWithParsedGroup(dataset, group, summary.id, issues);
        }
        if (group !== null) groups.push(group);
      }
      if (groups.length === 0)
        throw new LoadError(
          name,
          `no rollout could be read (${dataset.stats.records} records, every one rejected)`,
        );
      return { ...dataset, groups };
    }
  }
  return loadBytes(name, readBytes(path, "rollout file"), { format, options });
}
