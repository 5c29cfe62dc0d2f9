import { fc, test } from "@fast-check/vitest";
import { expect } from "vitest";
import { countLines, splitJsonlBytes } from "./bytes.ts";

const pieces = fc.array(
  fc.constantFrom("\n", "\r\n", "\r", " ", "\t", "{}", '{"a":1}', "x", "\uFEFF", "é"),
  { maxLength: 40 },
);

test.prop([pieces, fc.boolean()])(
  "splitJsonlBytes counts the lines countLines counts, and every line is a record or blank",
  (parts, bom) => {
    const bytes = new TextEncoder().encode((bom ? "\uFEFF" : "") + parts.join(""));
    const split = splitJsonlBytes(bytes);
    expect(split.lines).toBe(countLines(bytes));
    expect(split.records.length + split.blank).toBe(split.lines);
  },
);
