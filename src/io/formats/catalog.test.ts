import { describe, expect, it } from "vitest";
import { FORMAT_CATALOG } from "./catalog.ts";
import { FORMATS } from "./registry.ts";

describe("the format catalog", () => {
  it("lists every registered format, in the registry's order, as the parsers name them", () => {
    expect(FORMAT_CATALOG.map((f) => [f.id, f.label, [...f.containers]])).toEqual(
      FORMATS.map((f) => [f.id, f.label, [...f.containers]]),
    );
  });
});
