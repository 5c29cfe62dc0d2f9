/**
 * The call-sequence similarity's fast path (integer symbols through the texts' bitset method) must
 * equal the definition (toolCallNgramSet + ngramJaccard) for any sequences and n, and "both"
 * must stay a similarity: in [0, 1], symmetric, 1 on the diagonal, and the text's when no rollout
 * made a call.
 */
import { fc, test } from "@fast-check/vitest";
import { describe, expect } from "vitest";
import { ngramSimilarity } from "./similarity.ts";
import { ngramJaccard } from "./ngrams.ts";
import {
  similarityMatrix,
  toolCallNgramSet,
  toolCallSimilarity,
  toolCallSymbols,
  type SimilarityInput,
} from "./toolCalls.ts";

/** Few distinct calls, so sequences share many n-grams; one contains the gram separator. */
const call = fc.constantFrom("a()", "b()", 'r({"x":"$1"})', "a,b", "", "\u{1F600}");
const sequence = fc.array(call, { maxLength: 8 });
const n = fc.integer({ min: 1, max: 4 });
const input: fc.Arbitrary<SimilarityInput> = fc.record({
  text: fc.string({ unit: fc.constantFrom("a", "b", "A", " "), maxLength: 8 }),
  calls: sequence,
});

describe("call-sequence similarity", () => {
  test.prop([fc.array(sequence, { maxLength: 7 }), n])(
    "equals the definition to the bit",
    (sequences, size) => {
      const k = sequences.length;
      const fast = toolCallSimilarity(sequences, size);
      const sets = sequences.map((s) => toolCallNgramSet(s, size));
      for (let i = 0; i < k; i++)
        for (let j = 0; j < k; j++)
          expect(fast[i * k + j]).toBe(i === j ? 1 : ngramJaccard(sets[i]!, sets[j]!));
    },
  );

  test.prop([fc.array(input, { maxLength: 6 }), n, fc.constantFrom("text", "tools", "both")])(
    "every mode is a similarity: in [0, 1], symmetric, 1 on the diagonal",
    (inputs, size, on) => {
      const k = inputs.length;
      const m = similarityMatrix(inputs, size, on);
      for (let i = 0; i < k; i++) {
        expect(m[i * k + i]).toBe(1);
        for (let j = 0; j < k; j++) {
          expect(m[i * k + j]).toBeGreaterThanOrEqual(0);
          expect(m[i * k + j]).toBeLessThanOrEqual(1);
          expect(m[i * k + j]).toBe(m[j * k + i]);
        }
      }
    },
  );

  test.prop([fc.array(input, { maxLength: 6 }), n])(
    "without tool calls, both is the text similarity exactly",
    (inputs, size) => {
      const noCalls = inputs.map((x) => ({ ...x, calls: [] }));
      expect([...similarityMatrix(noCalls, size, "both")]).toEqual([
        ...ngramSimilarity(
          noCalls.map((x) => x.text),
          size,
        ),
      ]);
    },
  );

  test.prop([
    fc.array(
      fc.record({
        name: fc.constantFrom("get", "refund"),
        id: fc.constantFrom("W1", "W2", "W3", 7),
      }),
      { maxLength: 6 },
    ),
    fc.func(fc.constantFrom("V1", "V2", "V3", "V4")),
  ])("renaming the values one-to-one changes no symbol", (calls, rename) => {
    // A one-to-one renaming: each distinct id gets a distinct new one.
    const ids = [...new Set(calls.map((c) => String(c.id)))];
    const renamed = new Map(ids.map((id, i) => [id, `${String(rename(id))}-${i}`]));
    const messages = (f: (id: string | number) => string | number) =>
      calls.map((c) => ({
        role: "assistant",
        content: "",
        toolCallId: null,
        name: null,
        toolCalls: [{ id: null, name: c.name, arguments: JSON.stringify({ order_id: f(c.id) }) }],
      }));
    expect(toolCallSymbols(messages((id) => renamed.get(String(id))!))).toEqual(
      toolCallSymbols(messages((id) => String(id))),
    );
  });
});
