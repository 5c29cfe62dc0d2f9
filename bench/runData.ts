/**
 * The generated run folders the run benchmarks read (bench/runs.ts), written once into bench/.data
 * (never committed) and reused while their manifest (generator, sizes, fingerprints) matches.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fingerprintBytes, generateVerlStepJsonl } from "./generate.ts";

export const DATA_DIR = join(import.meta.dirname, ".data");

export interface RunFolder {
  readonly dir: string;
  readonly files: number;
  readonly bytes: number;
  readonly rows: number;
  readonly groups: number;
  /** FNV-1a of the files' fingerprints, in step order. */
  readonly fingerprint: string;
}

const GENERATOR = "generateVerlStepJsonl/2";

/**
 * A verl dump of `files` step files (`1.jsonl` ... `{files}.jsonl`), `totalBytes` in all, in the
 * small-row shape (about 1.7 KB rows, groups of 8; seed `seed`).
 */
export function verlRunFolder(files: number, totalBytes: number, seed: number): RunFolder {
  const name = `verl-run-${files}x${Math.round(totalBytes / files / 1e6)}MB-s${seed}`;
  const dir = join(DATA_DIR, name);
  const manifestPath = join(dir, "..", `${name}.manifest.json`);
  if (existsSync(manifestPath)) {
    const manifest = JSON.parse(readFileSync(manifestPath, "utf8")) as RunFolder & {
      generator: string;
    };
    if (manifest.generator === GENERATOR && manifest.dir === dir) return manifest;
  }
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  let bytes = 0;
  let rows = 0;
  let groups = 0;
  const prints: string[] = [];
  for (let step = 1; step <= files; step++) {
    const file = generateVerlStepJsonl({ step, targetBytes: totalBytes / files, seed });
    writeFileSync(join(dir, `${step}.jsonl`), file.bytes);
    bytes += file.bytes.length;
    rows += file.rows;
    groups += file.groups;
    prints.push(fingerprintBytes(file.bytes));
  }
  const fingerprint = fingerprintBytes(new TextEncoder().encode(prints.join("")));
  const folder: RunFolder = { dir, files, bytes, rows, groups, fingerprint };
  writeFileSync(manifestPath, JSON.stringify({ generator: GENERATOR, ...folder }));
  return folder;
}
