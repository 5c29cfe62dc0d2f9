/** Covers: which characters the transcript shows as markers, and that nothing is lost in the cut. */
import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import { hasInvisible, invisibleLabel, invisibleSegments, type TextSegment } from "./invisibles.ts";

const joined = (segments: readonly TextSegment[]): string =>
  segments.map((s) => (s.kind === "text" ? s.text : s.char)).join("");

const shown = (segments: readonly TextSegment[]): string =>
  segments.map((s) => (s.kind === "text" ? s.text : invisibleLabel(s))).join("");

describe("invisibleSegments", () => {
  it("shows a bidi override as a marker, so a file name reads as written", () => {
    const segments = invisibleSegments("invoice\u202Etxt.exe");
    expect(shown(segments)).toBe("invoice⟨U+202E⟩txt.exe");
    expect(segments[1]).toMatchObject({
      kind: "mark",
      code: "U+202E",
      name: "bidirectional control: reorders the text after it (invisible; shown here)",
    });
  });
  it("marks zero-width, isolate, mark and BOM characters", () => {
    expect(shown(invisibleSegments("a\u200Bb\u2066c\u2069d\u200Fe\uFEFFf\u00ADg"))).toBe(
      "a⟨U+200B⟩b⟨U+2066⟩c⟨U+2069⟩d⟨U+200F⟩e⟨U+FEFF⟩f⟨U+00AD⟩g",
    );
  });
  it("marks combining invisibles on their own, not merged with a neighbour", () => {
    expect(shown(invisibleSegments("a\u034Fb\u17B4c\u17B5"))).toBe("a⟨U+034F⟩b⟨U+17B4⟩c⟨U+17B5⟩");
  });
  it("reveals what tag characters hide", () => {
    const segments = invisibleSegments("ok\u{E0041}\u{E0042}");
    expect(shown(segments)).toBe("ok⟨U+E0041⟩⟨U+E0042⟩");
    expect(segments[1]).toMatchObject({ name: expect.stringContaining('"A"') as string });
  });
  it("leaves a joiner inside an emoji sequence alone, and marks one between letters", () => {
    for (const emoji of ["👩‍💻", "👨‍👩‍👧", "❤️‍🔥", "👩🏽‍🚀"])
      expect(invisibleSegments(`x ${emoji} y`)).toEqual([{ kind: "text", text: `x ${emoji} y` }]);
    expect(shown(invisibleSegments("a\u200Db"))).toBe("a⟨U+200D⟩b");
    expect(shown(invisibleSegments("\u200D😀"))).toBe("⟨U+200D⟩😀");
  });
  it("keeps ordinary text, newlines, tabs and right-to-left script as they are", () => {
    for (const text of ["", "plain", "line\nbreak\ttab", "שלום עולם", "مرحبا", "é😀"])
      expect(hasInvisible(text)).toBe(false);
  });
  test.prop([fc.string({ unit: "binary", maxLength: 40 })], { numRuns: 500 })(
    "joining the segments gives the text back; no marker is left inside a text run",
    (text) => {
      const segments = invisibleSegments(text);
      expect(joined(segments)).toBe(text);
      for (const s of segments)
        if (s.kind === "text") {
          expect(s.text).not.toBe("");
          expect(/[\u202A-\u202E\u2066-\u2069\u200B\uFEFF]/u.test(s.text)).toBe(false);
        }
    },
  );
});
