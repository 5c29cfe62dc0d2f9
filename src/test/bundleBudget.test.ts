import { describe, expect, it } from "vitest";
import { initialChunks, gzipSize, type ChunkInfo } from "../../scripts/bundleBudget.ts";

const chunk = (fileName: string, imports: string[] = [], isEntry = false): ChunkInfo => ({
  fileName,
  code: `/* ${fileName} */`,
  isEntry,
  imports,
});

describe("bundle budget", () => {
  it("counts the entry and its static imports, transitively, never lazy chunks", () => {
    const chunks = [
      chunk("index.js", ["react.js", "store.js"], true),
      chunk("react.js"),
      chunk("store.js", ["react.js", "core.js"]),
      chunk("core.js"),
      chunk("recharts.js", ["react.js"]),
      chunk("markdown.js"),
    ];
    expect(
      initialChunks(chunks)
        .map((c) => c.fileName)
        .sort(),
    ).toEqual(["core.js", "index.js", "react.js", "store.js"]);
  });

  it("measures gzip size", () => {
    const text = "a".repeat(10_000);
    expect(gzipSize(text)).toBeGreaterThan(0);
    expect(gzipSize(text)).toBeLessThan(200);
  });
});
