/**
 * A run's header file: what the tool that wrote the rollouts says of the run (model, environment,
 * sampling, averages), shown above the data. Today one kind: verifiers' `metadata.json`, written
 * beside `results.jsonl` by `vf-eval` (formats/verifiers.ts reads its fields). Read by content: a
 * JSON document that is such a header, whatever its name. A single file cannot see its neighbour
 * in the studio; a run (a folder, several files chosen, `view DIR`) and the CLI can.
 */
import { bomLength, decodeRecord } from "../containers/bytes.ts";
import { parseJsonLenient } from "../containers/pythonJson.ts";
import type { LoadedDataset, RunHeader } from "../dataset.ts";
import { verifiersRunHeader } from "../formats/verifiers.ts";

/** The header a file's bytes hold, or null when they are none. */
export function runHeaderFromBytes(file: string, bytes: Uint8Array): RunHeader | null {
  const decoded = decodeRecord(bytes.subarray(bomLength(bytes)));
  if (!decoded.ok) return null;
  const parsed = parseJsonLenient(decoded.text);
  if (!parsed.ok) return null;
  const header = verifiersRunHeader(parsed.value);
  return header === null ? null : { file, ...header };
}

/**
 * The file names a header may have beside one data file of a format, nearest first: verifiers'
 * `metadata.json` in the same folder, or `<name>.metadata.json` beside `<name>.results.jsonl`
 * (a renamed copy). Empty for formats without one.
 */
export function runHeaderNamesBeside(fileName: string, format: string): string[] {
  if (format !== "verifiers") return [];
  const stem = /^(.*?)(\.results)?\.jsonl$/i.exec(fileName)?.[1];
  return stem === undefined || stem === "results"
    ? ["metadata.json"]
    : [`${stem}.metadata.json`, "metadata.json"];
}

/** The dataset with the run's header (the first one found), or as it is without one. */
export function withRunHeader<T extends LoadedDataset>(
  dataset: T,
  headers: readonly RunHeader[],
): T {
  const header = headers[0];
  return header === undefined ? dataset : { ...dataset, header };
}

export { runHeaderDetails } from "./runInfo.ts";
