import { fc, test } from "@fast-check/vitest";
import { describe, expect } from "vitest";

import { flatPreview } from "./dataset.ts";

/** The preview as first written: flatten the whole text, then cut. */
function reference(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > 160 ? `${flat.slice(0, 160)}…` : flat;
}

const spaces = fc.constantFrom(" ", "  ", "\n", "\t", "\r\n", "\u00a0", "\u2028", " \n \t ");
const words = fc.string({ unit: "grapheme", minLength: 1, maxLength: 12 });
/** Texts of words and whitespace runs, some long, some led or ended by long whitespace. */
const texts = fc
  .tuple(
    fc.array(fc.oneof(words, spaces), { maxLength: 400 }),
    fc.nat({ max: 2000 }),
    fc.nat({ max: 2000 }),
  )
  .map(([parts, lead, tail]) => " ".repeat(lead) + parts.join("") + "\n".repeat(tail));

describe("flatPreview", () => {
  test.prop([texts])("equals flattening the whole text, then cutting", (text) => {
    expect(flatPreview(text)).toBe(reference(text));
  });
  test.prop([fc.string({ unit: "binary", maxLength: 1200 })])("on any string", (text) => {
    expect(flatPreview(text)).toBe(reference(text));
  });
});
