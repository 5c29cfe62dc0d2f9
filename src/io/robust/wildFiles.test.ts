/**
 * Files as they are found in the wild (issue 15, items 3 and 6): JSON documents written on one line
 * load as their indented versions do, with and without a forced format; and no good row is lost to
 * a bad neighbour (a bad first line, a NUL byte, UTF-16 text). Each case was written as the
 * reproduction first, against the loader that lost the rows.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { LoadError, loadBytes, loadText, type LoadResult } from "../index.ts";

const FIXTURES = join(import.meta.dirname, "../__fixtures__");
const SHARED = join(import.meta.dirname, "../../../../shared/data");
const read = (path: string) => readFileSync(path, "utf8");

/** What a load gives, without where each record sat (a compact file puts them all on line 1). */
function content(r: LoadResult) {
  return {
    format: r.format,
    groupKey: r.groupKey,
    records: r.stats.records,
    rollouts: r.stats.rollouts,
    rejected: r.stats.rejected,
    groups: r.groups.map((g) => ({
      id: g.id,
      rollouts: g.rollouts.map((x) => ({
        id: x.id,
        prompt: x.prompt,
        reward: x.reward,
        rewards: x.rewards,
        completion: x.completion,
        messages: x.messages,
        meta: x.meta,
      })),
    })),
    // A compact array names its elements ("[3]"), all on line 1; an indented one by their lines.
    issues: r.issues.map((i) => ({
      member: /^\[\d+\]$/.test(i.member ?? "") ? undefined : i.member,
      field: i.field,
      message: i.message,
    })),
  };
}

const DOCUMENTS = [
  { name: "tau2 Results", path: join(FIXTURES, "tau2/results.json"), format: "tau2" },
  { name: "tau2 malformed", path: join(FIXTURES, "tau2/malformed.json"), format: "tau2" },
  { name: "Inspect .json log", path: join(FIXTURES, "inspect/ctf-log.json"), format: "inspect" },
  { name: "Inspect malformed", path: join(FIXTURES, "inspect/malformed.json"), format: "inspect" },
  { name: "ATIF trajectory", path: join(FIXTURES, "atif/trajectory.json"), format: "atif" },
  {
    name: "tau-bench array (real)",
    path: join(SHARED, "tau-bench/gpt-4o-airline.json"),
    format: "tau-bench",
  },
  {
    name: "SWE-agent .traj (real)",
    path: join(SHARED, "swe-agent/function_calling_simple.traj"),
    format: "swe-agent",
  },
];

describe("a JSON document written on one line loads as its indented version", () => {
  for (const doc of DOCUMENTS) {
    for (const forced of [undefined, doc.format]) {
      it(`${doc.name}${forced === undefined ? "" : ` (--format ${forced})`}`, async () => {
        const text = read(doc.path);
        const compact = JSON.stringify(JSON.parse(text));
        expect(compact).not.toContain("\n");
        const options = forced === undefined ? {} : { format: forced };
        const indented = await loadText("doc.json", text, options);
        const oneLine = await loadText("doc.json", compact, options);
        expect(indented.format).toBe(doc.format);
        expect(oneLine.container).toBe(indented.container);
        expect(content(oneLine)).toEqual(content(indented));
        // With a final newline, as most writers end a file.
        expect(content(await loadText("doc.json", `${compact}\n`, options))).toEqual(
          content(indented),
        );
      });
    }
  }

  it("an indented JSON document is still a document, and a JSONL file is still JSONL", async () => {
    const jsonl = read(join(FIXTURES, "native/basic.jsonl"));
    const r = await loadText("basic.jsonl", jsonl);
    expect(r.container).toBe("jsonl");
    expect(r.format).toBe("native");
  });

  it("a one-line file of ONE JSONL record is JSONL when no document format reads it", async () => {
    const row = read(join(FIXTURES, "native/basic.jsonl")).split("\n")[0]!;
    for (const text of [row, `${row}\n`, `\n${row}\n\n`]) {
      const r = await loadText("one.jsonl", text);
      expect(r.container).toBe("jsonl");
      expect(r.format).toBe("native");
      expect(r.stats.rollouts).toBe(1);
    }
    const forced = await loadText("one.jsonl", row, { format: "native" });
    expect(forced.container).toBe("jsonl");
  });

  it("a one-line file of one value that is a document of a document format is that document", async () => {
    // The compact tau2 Results file is one line and one value: the tau2 document wins over any
    // JSONL format, since no JSONL format's record scores above a document's explode.
    const compact = JSON.stringify(JSON.parse(read(join(FIXTURES, "tau2/results.json"))));
    const r = await loadText("results.json", compact);
    expect(r.container).toBe("json-document");
    expect(r.stats.rollouts).toBeGreaterThan(1);
  });

  it("a truncated pretty-printed document is refused as one, with the JSON error", async () => {
    const text = read(join(FIXTURES, "tau2/results.json"));
    await expect(loadText("cut.json", text.slice(0, text.length / 2))).rejects.toThrow(
      /not one valid JSON document/,
    );
  });
});

const NATIVE_ROWS = [
  { group_id: "g1", id: "a", completion: "four", reward: 1 },
  { group_id: "g1", id: "b", completion: "five", reward: 0 },
  { group_id: "g2", id: "c", completion: "six", reward: 0.5 },
].map((r) => JSON.stringify(r));

async function expectGoodRowsKept(
  text: string | Uint8Array,
  badLine: number,
  message?: RegExp,
): Promise<LoadResult> {
  const r =
    typeof text === "string"
      ? await loadText("rows.jsonl", text)
      : await loadBytes("rows.jsonl", text);
  expect(r.container).toBe("jsonl");
  expect(r.format).toBe("native");
  expect(r.stats.rollouts).toBe(3);
  expect(r.stats.rejected).toBe(1);
  expect(r.stats.records).toBe(4);
  expect(r.issues).toHaveLength(1);
  expect(r.issues[0]!.line).toBe(badLine);
  if (message !== undefined) expect(r.issues[0]!.message).toMatch(message);
  return r;
}

describe("a bad first line costs one record, not the file", () => {
  it("a truncated first line", async () => {
    await expectGoodRowsKept([NATIVE_ROWS[0]!.slice(0, 20), ...NATIVE_ROWS].join("\n"), 1);
  });
  it("a garbage first line", async () => {
    await expectGoodRowsKept(["garbage, not JSON", ...NATIVE_ROWS].join("\n"), 1);
    await expectGoodRowsKept(["[1, 2", ...NATIVE_ROWS].join("\n"), 1);
  });
  it("a second BOM on the first line", async () => {
    await expectGoodRowsKept(`\uFEFF\uFEFF${NATIVE_ROWS[0]}\n${NATIVE_ROWS.join("\n")}\n`, 1);
  });
  it("a bad last line is still one record", async () => {
    await expectGoodRowsKept([...NATIVE_ROWS, '{"group_id": "g3", "id'].join("\n"), 4);
  });
  it("a good first line keeps its record however many lines after it are bad", async () => {
    // Found by the followed-file property (indexedFile.prop.test.ts): one good row, then two bad.
    const r = await loadText("rows.jsonl", [NATIVE_ROWS[0]!, "{bad", "{bad"].join("\n"));
    expect(r.container).toBe("jsonl");
    expect(r.stats).toMatchObject({ records: 3, rollouts: 1, rejected: 2 });
    expect(r.issues.map((i) => i.line)).toEqual([2, 3]);
  });
  it("a file whose lines are mostly not JSON is not taken for JSONL", async () => {
    await expect(loadText("notes.txt", "hello\nworld\nthis is prose\n{}\n")).rejects.toThrow(
      /no known format|CSV/i,
    );
  });
});

describe("a NUL byte spoils its own line only", () => {
  const withNul = (line: number, at: number): Uint8Array => {
    const lines = [...NATIVE_ROWS.slice(0, line - 1), "", ...NATIVE_ROWS.slice(line - 1)];
    const bytes = new TextEncoder().encode(lines.join("\n"));
    const start = lines.slice(0, line - 1).join("\n").length + (line > 1 ? 1 : 0);
    const row = new TextEncoder().encode(NATIVE_ROWS[0]);
    const out = new Uint8Array(bytes.length + row.length);
    out.set(bytes.subarray(0, start));
    out.set(row, start);
    out[start + at] = 0;
    out.set(bytes.subarray(start), start + row.length);
    return out;
  };
  for (const line of [1, 2, 4])
    for (const at of [0, 5])
      it(`a NUL at byte ${at} of line ${line}`, async () => {
        await expectGoodRowsKept(withNul(line, at), line, /NUL/);
      });

  it("a real binary file is still refused as binary", async () => {
    const png = new Uint8Array(4096);
    png.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    for (let i = 8; i < png.length; i++) png[i] = (i * 2654435761) >>> 24;
    await expect(loadBytes("image.png", png)).rejects.toThrow(/binary file/);
    await expect(loadBytes("zeros.bin", new Uint8Array(100))).rejects.toThrow(/binary file/);
  });
});

describe("UTF-16 text with a byte-order mark is decoded", () => {
  const text = `${NATIVE_ROWS.join("\r\n")}\r\n`;
  const utf16 = (bigEndian: boolean): Uint8Array => {
    const out = new Uint8Array(2 + text.length * 2);
    out.set(bigEndian ? [0xfe, 0xff] : [0xff, 0xfe]);
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      out[2 + 2 * i + (bigEndian ? 1 : 0)] = c & 0xff;
      out[2 + 2 * i + (bigEndian ? 0 : 1)] = c >> 8;
    }
    return out;
  };
  for (const bigEndian of [false, true])
    it(`UTF-16${bigEndian ? "BE" : "LE"} native JSONL (PowerShell's \`>\`)`, async () => {
      const r = await loadBytes("ps.jsonl", utf16(bigEndian));
      const utf8 = await loadText("ps.jsonl", text);
      expect(content(r)).toEqual(content(utf8));
      expect(r.stats).toEqual(utf8.stats);
    });

  it("UTF-16 without a byte-order mark is named in the message", async () => {
    const bytes = utf16(false).subarray(2);
    await expect(loadBytes("ps.jsonl", bytes)).rejects.toThrow(/UTF-16/);
  });

  it("an error stays a LoadError", async () => {
    await expect(loadBytes("x", new Uint8Array([0xff, 0xfe]))).rejects.toBeInstanceOf(LoadError);
  });
});
