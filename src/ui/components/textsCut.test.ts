import { describe, expect, it } from "vitest";
import { textsCutNote } from "./textsCut.ts";

describe("textsCutNote", () => {
  it("says how many texts were cut, to how much and for what", () => {
    expect(textsCutNote(1, 200_000, "for the clusters")).toBe(
      "1 text cut to 200,000 characters for the clusters",
    );
    expect(textsCutNote(3, 1000, "before comparing")).toBe(
      "3 texts cut to 1,000 characters before comparing",
    );
  });
  it("says nothing when nothing was cut", () => {
    expect(textsCutNote(0, 200_000, "for the clusters")).toBeNull();
  });
});
