import { describe, expect, it } from "vitest";
import { datasetFingerprint, type FingerprintInput } from "./fingerprint.ts";

const bytes = (text: string) => new TextEncoder().encode(text);

const base: FingerprintInput = {
  size: 10,
  head: bytes("0123456789"),
  tail: new Uint8Array(),
  dataset: {
    format: "native",
    groupKey: "group_id",
    summaries: [{ id: "g", rewards: [1, 0], prompt: "", partial: false }],
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
          summaries: [{ id: "g", rewards: [0, 1], prompt: "", partial: false }],
        },
      }),
    ).not.toBe(fp);
  });
});
