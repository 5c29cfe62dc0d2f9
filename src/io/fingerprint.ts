/**
 * A dataset's fingerprint: what keeps one dataset's annotations apart from another's (annotation
 * issue: "keyed by a fingerprint of the dataset"). It hashes the file's size, its first and last
 * 64 KiB, the format and group key it was read with, and every group's id and rewards, so two runs
 * over the same prompts (same ids, other completions) still differ, while reopening the same file,
 * under any name, finds its annotations again. Cheap for any size: a 1 GB file hashes 128 KiB.
 */
import type { LoadedDataset } from "./dataset.ts";

/** Bytes hashed from each end of the file. */
export const FINGERPRINT_SAMPLE = 64 * 1024;

/** Two FNV-1a 32-bit lanes with different offsets: 64 bits, as 16 hex digits. */
class Fnv64 {
  private a = 0x811c9dc5;
  private b = 0x01000193 ^ 0x9e3779b9;

  bytes(data: Uint8Array): this {
    let { a, b } = this;
    for (let i = 0; i < data.length; i++) {
      a = Math.imul(a ^ data[i]!, 0x01000193);
      b = Math.imul(b ^ data[i]!, 0x01000193) ^ (b >>> 15);
    }
    this.a = a;
    this.b = b;
    return this;
  }

  text(value: string): this {
    return this.bytes(new TextEncoder().encode(`${value}\u0000`));
  }

  hex(): string {
    const h = (x: number): string => (x >>> 0).toString(16).padStart(8, "0");
    return h(this.a) + h(this.b);
  }
}

export interface FingerprintInput {
  readonly size: number;
  /** The file's first FINGERPRINT_SAMPLE bytes (all of it when smaller). */
  readonly head: Uint8Array;
  /** The file's last FINGERPRINT_SAMPLE bytes (empty when the head holds the whole file). */
  readonly tail: Uint8Array;
  readonly dataset: Pick<LoadedDataset, "format" | "groupKey" | "summaries">;
}

/** Groups hashed between two chances to pause (`datasetFingerprintSliced`). */
const GROUPS_PER_STEP = 2048;

/**
 * The fingerprint's hash, a step at a time: yields after every {@link GROUPS_PER_STEP} groups and
 * returns the hex digest. The same bytes as hashing each `${id}:${rewards}\0` in turn, encoded a
 * batch at a time: one TextEncoder call per 1 MB instead of one per group.
 */
function* fingerprintSteps(input: FingerprintInput): Generator<void, string> {
  const hash = new Fnv64()
    .text(String(input.size))
    .bytes(input.head)
    .bytes(input.tail)
    .text(input.dataset.format)
    .text(input.dataset.groupKey);
  const encoder = new TextEncoder();
  let batch: string[] = [];
  let length = 0;
  const flush = (): void => {
    hash.bytes(encoder.encode(batch.join("")));
    batch = [];
    length = 0;
  };
  let n = 0;
  for (const s of input.dataset.summaries) {
    const part = `${s.id}:${s.rewards.join(",")}\u0000`;
    batch.push(part);
    length += part.length;
    if (length >= 1 << 20) flush();
    if (++n % GROUPS_PER_STEP === 0) yield;
  }
  if (batch.length > 0) flush();
  return hash.hex();
}

export function datasetFingerprint(input: FingerprintInput): string {
  const steps = fingerprintSteps(input);
  for (;;) {
    const step = steps.next();
    if (step.done === true) return step.value;
  }
}

/**
 * {@link datasetFingerprint}, the same digest, awaiting `pause()` between steps of a few thousand
 * groups: 100,000 groups take ~190 ms of a browser's main thread, one task without the pauses.
 */
export async function datasetFingerprintSliced(
  input: FingerprintInput,
  pause: () => Promise<void>,
): Promise<string> {
  const steps = fingerprintSteps(input);
  for (;;) {
    const step = steps.next();
    if (step.done === true) return step.value;
    await pause();
  }
}
