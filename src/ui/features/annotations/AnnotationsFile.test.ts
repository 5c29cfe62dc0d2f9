import { describe, expect, it } from "vitest";
import { annotationsFileName } from "./AnnotationsFile.tsx";

describe("annotationsFileName", () => {
  it("names the export after the data file", () => {
    expect(annotationsFileName("support-groups.jsonl")).toBe("support-groups.annotations.json");
    expect(annotationsFileName("/tmp/x/run.eval")).toBe("run.annotations.json");
    expect(annotationsFileName("noext")).toBe("noext.annotations.json");
    expect(annotationsFileName(".jsonl")).toBe("rollouts.annotations.json");
  });
});
