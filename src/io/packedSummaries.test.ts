import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";

import type { GroupSummary } from "./dataset.ts";
import {
  PACKED_SUMMARY_FIELDS,
  packedSummariesTransfer,
  packSummaries,
  unpackSummaries,
  unpackSummariesSliced,
} from "./packedSummaries.ts";

const summary: fc.Arbitrary<GroupSummary> = fc.record({
  id: fc.string({ unit: "grapheme", maxLength: 12 }),
  rewards: fc.array(fc.oneof(fc.double(), fc.constantFrom(NaN, -0, Infinity, -Infinity, 0, 1)), {
    maxLength: 9,
  }),
  prompt: fc.oneof(fc.constant(""), fc.string({ unit: "binary", maxLength: 40 })),
  partial: fc.boolean(),
  step: fc.oneof(fc.constant(null), fc.integer({ min: -5, max: 1e9 })),
});

describe("packSummaries", () => {
  test.prop([fc.array(summary, { maxLength: 60 })])(
    "unpacks to the summaries packed, in order (NaN and -0 rewards, no step, empty prompts)",
    (summaries) => {
      const back = unpackSummaries(packSummaries(summaries));
      expect(back).toHaveLength(summaries.length);
      back.forEach((s, i) => {
        const want = summaries[i]!;
        expect(s.id).toBe(want.id);
        expect(s.prompt).toBe(want.prompt);
        expect(s.partial).toBe(want.partial);
        expect(s.step).toBe(want.step);
        expect(s.rewards).toHaveLength(want.rewards.length);
        // Object.is: NaN equals NaN, and -0 stays -0.
        s.rewards.forEach((r, k) => expect(Object.is(r, want.rewards[k])).toBe(true));
        expect(Object.keys(s).sort()).toEqual(Object.keys(want).sort());
      });
    },
  );

  test.prop([fc.array(summary, { maxLength: 60 }), fc.integer({ min: 1, max: 70 })])(
    "unpacks in slices to what it unpacks at once, pausing between two slices only",
    async (summaries, slice) => {
      const packed = packSummaries(summaries);
      let pauses = 0;
      const sliced = await unpackSummariesSliced(
        packed,
        () => {
          pauses++;
          return Promise.resolve();
        },
        slice,
      );
      expect(sliced).toEqual(unpackSummaries(packed));
      expect(pauses).toBe(Math.max(0, Math.ceil(summaries.length / slice) - 1));
    },
  );

  it("packs every field of a summary, and survives a structured clone with its buffers moved", () => {
    expect([...PACKED_SUMMARY_FIELDS].sort()).toEqual(
      ["id", "partial", "prompt", "rewards", "step"].sort(),
    );
    const summaries: GroupSummary[] = [
      { id: "a/1", rewards: [1, 0], prompt: "Solve", partial: false, step: 10 },
      { id: "中文😀", rewards: [], prompt: "", partial: true, step: null },
    ];
    const packed = packSummaries(summaries);
    const moved = structuredClone(packed, { transfer: packedSummariesTransfer(packed) });
    expect(packed.rewards.byteLength).toBe(0);
    expect(unpackSummaries(moved)).toEqual(summaries);
  });
});
