/** Covers: a run's fingerprint (its files' fingerprints combined with its groups), issue 14. */
import { describe, expect, it } from "vitest";
import type { LoadedDataset } from "../../io/dataset.ts";
import { fingerprintOf } from "./annotationsSync.ts";

const dataset: LoadedDataset = {
  file: "run",
  container: "jsonl",
  format: "verl",
  formatLabel: "verl",
  groupKey: "(step, input)",
  candidates: [],
  stats: { lines: 2, records: 2, rollouts: 2, rejected: 0, blank: 0 },
  issues: [],
  summaries: [{ id: "1/a", rewards: [1], prompt: "", partial: false, step: 1 }],
  indexed: false,
  groups: [],
};

describe("fingerprintOf a run", () => {
  const a = new File(["first file"], "1.jsonl");
  const b = new File(["second file"], "2.jsonl");

  it("is stable, and one file more, less or in another order is another run", async () => {
    const run = await fingerprintOf([a, b], dataset);
    expect(await fingerprintOf([new File(["first file"], "x"), b], dataset)).toBe(run);
    expect(await fingerprintOf([b, a], dataset)).not.toBe(run);
    expect(await fingerprintOf([a, b, new File(["third"], "3.jsonl")], dataset)).not.toBe(run);
    expect(await fingerprintOf([a], dataset)).not.toBe(run);
  });

  it("is the single file's fingerprint for a run of one file", async () => {
    expect(await fingerprintOf([a], dataset)).toBe(await fingerprintOf(a, dataset));
  });
});
