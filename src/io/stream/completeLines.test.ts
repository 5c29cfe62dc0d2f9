import { describe, expect, it } from "vitest";
import { completeLinesSize, sourcePrefix } from "./completeLines.ts";
import { readFileBytes } from "./readBlob.ts";

const named = (text: string, name = "steps/10.jsonl") => Object.assign(new Blob([text]), { name });

describe("completeLinesSize", () => {
  it("holds back a half-written last line, and nothing once it is complete", async () => {
    const whole = '{"a":1}\n{"a":2}\n';
    expect(await completeLinesSize(named(whole))).toEqual({ size: whole.length, heldBack: 0 });
    const half = `${whole}{"a":3,"b"`;
    expect(await completeLinesSize(named(half))).toEqual({ size: whole.length, heldBack: 10 });
    const unterminated = `${whole}{"a":3}`;
    expect(await completeLinesSize(named(unterminated))).toEqual({
      size: unterminated.length,
      heldBack: 0,
    });
  });

  it("finds the line start further back than the first megabyte read", async () => {
    const head = '{"a":1}\n';
    const long = `{"text":"${"x".repeat(3 << 20)}`;
    expect(await completeLinesSize(named(head + long))).toEqual({
      size: head.length,
      heldBack: long.length,
    });
    expect(await completeLinesSize(named(long))).toEqual({ size: 0, heldBack: long.length });
  });

  it("leaves other containers alone", async () => {
    expect(await completeLinesSize(named('{"a":', "results.json"))).toEqual({
      size: 5,
      heldBack: 0,
    });
  });
});

describe("sourcePrefix", () => {
  it("streams and slices only the first bytes", async () => {
    const source = named('{"a":1}\n{"a":2}\n{"a"');
    const cut = sourcePrefix(source, 16);
    expect(
      new TextDecoder().decode(
        await readFileBytes(
          cut,
          () => undefined,
          () => false,
        ),
      ),
    ).toBe('{"a":1}\n{"a":2}\n');
    expect(new TextDecoder().decode(await cut.slice(8, 100).arrayBuffer())).toBe('{"a":2}\n');
  });
});
