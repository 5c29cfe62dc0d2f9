/**
 * The benchmark matrix's generators (bench/shapes.ts) on small sizes: deterministic, the file
 * equals its manifest, and each shape has the rows and groups it promises.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";

import { fingerprintBytes } from "../../bench/generate.ts";
import {
  HUGE_COMPLETION_CHARS,
  MALFORMED_EVERY,
  matrixArgs,
  SHAPE_NAMES,
  shapeLines,
  writeShapeFile,
  type ShapeName,
  type ShapeOptions,
} from "../../bench/shapes.ts";

const dir = mkdtempSync(join(tmpdir(), "bench-shapes-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const TARGET = 1_500_000;
const OPTIONS: ShapeOptions = { hugeChars: 1_000_000, minGroups: 3_000 };

interface Row {
  readonly line: number;
  readonly bytes: number;
  readonly value: Record<string, unknown> | null;
  /** The group id, read from the text for a malformed line (it is cut after its group_id). */
  readonly groupId: string | null;
}

function readRows(path: string): Row[] {
  const text = readFileSync(path, "utf8");
  expect(text.endsWith("\n")).toBe(true);
  return text
    .slice(0, -1)
    .split("\n")
    .map((l, line) => {
      let value: Record<string, unknown> | null = null;
      try {
        value = JSON.parse(l) as Record<string, unknown>;
      } catch {
        value = null;
      }
      const groupId =
        value === null ? (/"group_id":"([^"]+)"/.exec(l)?.[1] ?? null) : String(value.group_id);
      return { line, bytes: Buffer.byteLength(l) + 1, value, groupId };
    });
}

/** Each group's line numbers, in file order; with `malformed`, also its lines that are not JSON. */
function groupLines(rows: readonly Row[], malformed = false): Map<string, number[]> {
  const groups = new Map<string, number[]>();
  for (const r of rows) {
    if (r.value === null && !malformed) continue;
    const id = r.groupId ?? "";
    const lines = groups.get(id) ?? [];
    lines.push(r.line);
    groups.set(id, lines);
  }
  return groups;
}

const contiguous = (lines: readonly number[]): boolean =>
  lines.every((l, i) => i === 0 || l === lines[i - 1]! + 1);

function write(shape: ShapeName, name: string) {
  return writeShapeFile(shape, TARGET, join(dir, `${shape}-${name}.jsonl`), OPTIONS);
}

describe.each(SHAPE_NAMES)("shape %s", (shape) => {
  const a = write(shape, "a");
  const b = write(shape, "b");
  const rows = readRows(a.path);
  const groups = groupLines(rows);
  const valid = rows.filter((r) => r.value !== null);

  it("is deterministic, and the manifest is the file", () => {
    expect(b.fingerprint).toBe(a.fingerprint);
    const bytes = readFileSync(a.path);
    expect(fingerprintBytes(bytes)).toBe(a.fingerprint);
    expect(bytes.length).toBe(a.bytes);
    expect(rows.length).toBe(a.lines);
    expect(valid.length).toBe(a.rows);
    expect(rows.length - valid.length).toBe(a.malformed);
    expect(groups.size).toBe(a.groups);
    expect(String(valid[0]!.value!.group_id)).toBe(a.firstGroupId);
    const largest = valid.reduce((m, r) => (r.bytes > m.bytes ? r : m));
    expect(largest.bytes).toBe(a.largestRowBytes);
    expect(String(largest.value!.group_id)).toBe(a.largestGroupId);
  });

  it("is native JSONL: id, group_id, reward, and a completion or messages", () => {
    for (const { value } of valid) {
      expect(typeof value!.id).toBe("string");
      expect(String(value!.id).startsWith(`${String(value!.group_id)}/`)).toBe(true);
      expect([0, 1]).toContain(value!.reward);
      expect(typeof value!.completion === "string" || Array.isArray(value!.messages)).toBe(true);
    }
    expect(new Set(valid.map((r) => r.value!.id)).size).toBe(valid.length);
  });

  it("has the shape's rows and groups", () => {
    const sizes = [...groups.values()].map((l) => l.length);
    const rowBytes = valid.map((r) => r.bytes);
    switch (shape) {
      case "small": {
        expect(a.malformed).toBe(Math.floor(a.lines / MALFORMED_EVERY));
        rows.forEach((r) => expect(r.value === null).toBe((r.line + 1) % MALFORMED_EVERY === 0));
        expect(Math.min(...rowBytes)).toBeGreaterThanOrEqual(1024);
        expect(Math.max(...rowBytes)).toBeLessThanOrEqual(2048);
        const mean = rowBytes.reduce((s, x) => s + x, 0) / rowBytes.length;
        expect(mean).toBeGreaterThan(1600);
        expect(mean).toBeLessThan(1800);
        // Groups of 8 lines; a group with a malformed line keeps 7 rows.
        expect(sizes.every((n) => n === 8 || n === 7)).toBe(true);
        expect(sizes.filter((n) => n === 7).length).toBe(a.malformed);
        const withMalformed = [...groupLines(rows, true).values()];
        expect(withMalformed.every((l) => l.length === 8 && contiguous(l))).toBe(true);
        break;
      }
      case "agent": {
        expect(Math.min(...rowBytes)).toBeGreaterThanOrEqual(20_000);
        expect(Math.max(...rowBytes)).toBeLessThanOrEqual(60_000);
        expect(Math.min(...sizes)).toBeGreaterThanOrEqual(4);
        expect(Math.max(...sizes)).toBeLessThanOrEqual(16);
        expect([...groups.values()].every(contiguous)).toBe(true);
        for (const { value } of valid) {
          const messages = value!.messages as { role: string; tool_calls?: unknown[] }[];
          expect(messages.some((m) => m.role === "tool")).toBe(true);
          expect(messages.some((m) => (m.tool_calls?.length ?? 0) > 0)).toBe(true);
        }
        break;
      }
      case "huge": {
        const huge = valid.filter((r) => r.bytes > 2048);
        expect(huge).toHaveLength(1);
        expect((huge[0]!.value!.completion as string).length).toBe(OPTIONS.hugeChars);
        // At a tenth of the small rows, among groups of 8 small rows.
        const at = huge[0]!.line / rows.length;
        expect(at).toBeGreaterThan(0.05);
        expect(at).toBeLessThan(0.2);
        expect(sizes.every((n) => n === 8)).toBe(true);
        expect([...groups.values()].every(contiguous)).toBe(true);
        break;
      }
      case "large-groups": {
        expect(Math.min(...sizes)).toBeGreaterThanOrEqual(64);
        expect(Math.max(...sizes)).toBeLessThanOrEqual(512);
        expect(Math.min(...rowBytes)).toBeGreaterThanOrEqual(1400);
        expect(Math.max(...rowBytes)).toBeLessThanOrEqual(4000);
        expect([...groups.values()].every(contiguous)).toBe(true);
        break;
      }
      case "interleaved": {
        expect(sizes.every((n) => n === 8)).toBe(true);
        // Every group has a row in the first eighth of the file and one in the last eighth.
        const n = rows.length;
        for (const lines of groups.values()) {
          expect(lines[0]!).toBeLessThan(n / 8);
          expect(lines.at(-1)!).toBeGreaterThanOrEqual((7 * n) / 8);
        }
        expect(a.bytes).toBeGreaterThan(TARGET * 0.95);
        expect(a.bytes).toBeLessThan(TARGET * 1.05);
        break;
      }
      case "many-groups": {
        expect(groups.size).toBeGreaterThanOrEqual(OPTIONS.minGroups!);
        expect(Math.min(...sizes)).toBeGreaterThanOrEqual(2);
        expect(Math.max(...sizes)).toBeLessThanOrEqual(6);
        expect(Math.min(...rowBytes)).toBeGreaterThanOrEqual(80);
        expect(Math.max(...rowBytes)).toBeLessThanOrEqual(151);
        expect([...groups.values()].every(contiguous)).toBe(true);
        break;
      }
    }
  });
});

describe("the shapes' defaults", () => {
  it("the huge shape's completion is 50 MB", () => {
    let huge: string | null = null;
    for (const l of shapeLines("huge", 1_000_000)) if (l.bytes > 1e6) huge = l.text;
    expect(huge).not.toBeNull();
    const row = JSON.parse(huge!) as { completion: string };
    expect(row.completion.length).toBe(HUGE_COMPLETION_CHARS);
    expect(HUGE_COMPLETION_CHARS).toBe(50_000_000);
  });

  it("the many-groups shape has at least 100,000 groups even when small", () => {
    const groups = new Set<string>();
    for (const l of shapeLines("many-groups", 1_000)) groups.add(l.groupId);
    expect(groups.size).toBe(100_000);
  });

  it("a smaller file of a contiguous shape is a prefix of a larger one", () => {
    const small = [...shapeLines("agent", 300_000)].map((l) => l.text);
    const large = [...shapeLines("agent", 900_000)].map((l) => l.text);
    expect(large.slice(0, small.length)).toEqual(small);
    expect(large.length).toBeGreaterThan(small.length);
  });
});

describe("the matrix's arguments", () => {
  it("default to every shape at 50, 500 and 1000 MB", () => {
    expect(matrixArgs([])).toEqual({ sizes: [50, 500, 1000], shapes: [...SHAPE_NAMES] });
  });

  it("take sizes and shapes, and refuse what they do not know", () => {
    expect(matrixArgs(["--sizes=50", "--shapes=huge,small"])).toEqual({
      sizes: [50],
      shapes: ["huge", "small"],
    });
    expect(() => matrixArgs(["--sizes=50,big"])).toThrow(/--sizes/);
    expect(() => matrixArgs(["--shapes=small,tiny"])).toThrow(/unknown tiny/);
  });
});
