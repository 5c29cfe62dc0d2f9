import { describe, expect, it } from "vitest";
import {
  datasetFingerprint,
  datasetFingerprintSliced,
  type FingerprintInput,
} from "./fingerprint.ts";

const bytes = (text: string) => new TextEncoder().encode(text);

const base: FingerprintInput = {
  size: 10,
  head: bytes("0123456789"),
  tail: new Uint8Array(),
  dataset: {
    format: "native",
    groupKey: "group_id",
    summaries: [{ id: "g", rewards: [1, 0], prompt: "", partial: false, step: null }],
  },
};

describe("datasetFingerprint", () => {
  it("is stable and 16 hex digits", () => {
    expect(datasetFingerprint(base)).toMatch(/^[0-9a-f]{16}$/);
    expect(datasetFingerprint(base)).toBe(datasetFingerprint({ ...base }));
  });

  it("changes with the bytes, the size, the reading and the rewards", () => {
    const fp = datasetFingerprint(base);
    expect(datasetFingerprint({ ...base, head: bytes("0123456788") })).not.toBe(fp);
    expect(datasetFingerprint({ ...base, size: 11 })).not.toBe(fp);
    expect(datasetFingerprint({ ...base, tail: bytes("x") })).not.toBe(fp);
    expect(
      datasetFingerprint({ ...base, dataset: { ...base.dataset, groupKey: "prompt" } }),
    ).not.toBe(fp);
    expect(
      datasetFingerprint({
        ...base,
        dataset: {
          ...base.dataset,
          summaries: [{ id: "g", rewards: [0, 1], prompt: "", partial: false, step: null }],
        },
      }),
    ).not.toBe(fp);
  });

  it("keeps its value for the same data, so saved annotations are found again", () => {
    // Pinned: a change here would orphan every annotation set saved under the old fingerprint.
    const summaries = Array.from({ length: 3000 }, (_, i) => ({
      id: `grp-${i}-${i % 7 === 0 ? "中文😀" : "x"}`,
      rewards: [i % 3, 0.5, i % 5 === 0 ? NaN : -1],
      prompt: "",
      partial: false,
      step: null,
    }));
    expect(
      datasetFingerprint({
        size: 123456,
        head: bytes("head"),
        tail: bytes("tail"),
        dataset: { format: "native", groupKey: "group_id", summaries },
      }),
    ).toBe("140eb1b373da8a7b");
  });

  it("hashes past the 1 MB batch the same as one group at a time (pinned from that version)", () => {
    const summaries = Array.from({ length: 40000 }, (_, i) => ({
      id: `group-with-a-long-identifier-${i}-${i % 7 === 0 ? "中文😀" : "x"}`,
      rewards: [i % 3, 0.25],
      prompt: "",
      partial: false,
      step: null,
    }));
    expect(
      datasetFingerprint({
        size: 9,
        head: new Uint8Array([1, 2]),
        tail: new Uint8Array(),
        dataset: { format: "trl", groupKey: "prompt", summaries },
      }),
    ).toBe("64d4bc97ccfe369b");
  });

  it("gives the same digest a step at a time, pausing between steps of groups", async () => {
    const summaries = Array.from({ length: 10000 }, (_, i) => ({
      id: `g-${i}`,
      rewards: [i % 2],
      prompt: "",
      partial: false,
      step: null,
    }));
    const input: FingerprintInput = { ...base, dataset: { ...base.dataset, summaries } };
    let pauses = 0;
    const sliced = await datasetFingerprintSliced(input, () => {
      pauses++;
      return Promise.resolve();
    });
    expect(sliced).toBe(datasetFingerprint(input));
    expect(pauses).toBe(4);
    expect(await datasetFingerprintSliced(base, () => Promise.resolve())).toBe(
      datasetFingerprint(base),
    );
  });
});
