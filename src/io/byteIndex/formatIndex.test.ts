/**
 * The index path must agree with the full parser: for every row the full loader accepts, the index
 * gives the same group, id and reward; every row the index rejects, the full loader rejects too.
 * Also: merging parsed groups into an indexed dataset, one at a time and all at once (the same).
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fc, test as propTest } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import { rolloutReward } from "../../core/index.ts";
import { datasetFromLoad, datasetWithParsedGroup, datasetWithParsedGroups } from "../dataset.ts";
import { loadBytes } from "../formats/load.ts";
import { formatIndexFor, NATIVE_INDEX } from "./formatIndex.ts";
import { indexJsonl } from "./jsonlIndexer.ts";

const NATIVE = join(import.meta.dirname, "../__fixtures__/native");
const VERL = join(import.meta.dirname, "../__fixtures__/verl");

describe("the verl index agrees with the verl parser", () => {
  it.each(readdirSync(VERL).filter((f) => f.endsWith(".jsonl")))("%s", async (name) => {
    const bytes = new Uint8Array(readFileSync(join(VERL, name)));
    const full = await loadBytes(name, bytes, { format: "verl" });
    const spec = formatIndexFor("verl")!;
    const indexer = indexJsonl([bytes], { keys: spec.keys });
    const byLine = new Map<number, { groupId: string; reward: number } | null>();
    for (let r = 0; r < indexer.rowCount; r++) {
      const read = indexer.statusAt(r) === "ok" ? spec.read(indexer.row(r).values) : null;
      byLine.set(indexer.lineAt(r), read?.ok ? read.key : null);
    }
    expect(full.groups.length).toBeGreaterThan(0);
    for (const group of full.groups)
      for (const rollout of group.rollouts) {
        const key = byLine.get(rollout.source.line);
        expect(key, `line ${rollout.source.line}`).toBeTruthy();
        expect(key!.groupId).toBe(group.id);
        expect(key!.reward).toBe(rollout.reward);
      }
    const accepted = new Set(full.groups.flatMap((g) => g.rollouts.map((r) => r.source.line)));
    for (const [line, key] of byLine)
      if (key === null) expect(accepted.has(line), `line ${line}`).toBe(false);
  });
});

describe("NATIVE_INDEX agrees with the native parser", () => {
  it.each(readdirSync(NATIVE).filter((f) => f.endsWith(".jsonl")))("%s", async (name) => {
    const bytes = new Uint8Array(readFileSync(join(NATIVE, name)));
    const full = await loadBytes(name, bytes);
    const indexer = indexJsonl([bytes], { keys: NATIVE_INDEX.keys });
    const byLine = new Map<number, { groupId: string; id: string | null; reward: number } | null>();
    for (let r = 0; r < indexer.rowCount; r++) {
      const read = indexer.statusAt(r) === "ok" ? NATIVE_INDEX.read(indexer.row(r).values) : null;
      byLine.set(indexer.lineAt(r), read?.ok ? read.key : null);
    }
    for (const group of full.groups) {
      for (const rollout of group.rollouts) {
        const key = byLine.get(rollout.source.line);
        expect(key, `line ${rollout.source.line}`).toBeTruthy();
        expect(key!.groupId).toBe(group.id);
        if (key!.id !== null) expect(key!.id).toBe(rollout.id);
        const reward = rolloutReward(rollout, null);
        if (Number.isNaN(reward)) expect(key!.reward).toBeNaN();
        else expect(key!.reward).toBe(reward);
      }
    }
    const accepted = new Set(full.groups.flatMap((g) => g.rollouts.map((r) => r.source.line)));
    for (const [line, key] of byLine)
      if (key === null) expect(accepted.has(line), `line ${line}`).toBe(false);
  });

  it("groups an empty prompt, a step change and a prompt seen again as the parser does", async () => {
    const rows = [
      { input: "", output: "a", score: 1 },
      { input: "", output: "b", score: 0 },
      { input: "p", output: "c", score: 1, step: 2 },
      { input: "p", output: "d", score: 1, step: 3 },
      { input: "", output: "e", score: 0 },
    ];
    const bytes = new TextEncoder().encode(rows.map((r) => JSON.stringify(r)).join("\n"));
    const full = await loadBytes("rows.jsonl", bytes, { format: "verl" });
    const spec = formatIndexFor("verl")!;
    const keys = rows.map((r) => {
      const read = spec.read([r.input, r.score, r.step]);
      return read.ok ? read.key.groupId : null;
    });
    const byLine = new Map(
      full.groups.flatMap((g) => g.rollouts.map((r) => [r.source.line, g.id] as const)),
    );
    expect(keys).toEqual(rows.map((_, i) => byLine.get(i + 1)));
    expect(new Set(keys).size).toBe(3);
  });

  it("only formats whose group comes from top-level values are indexed", () => {
    expect(formatIndexFor("native")).toBe(NATIVE_INDEX);
    expect(formatIndexFor("verl")).toBeDefined();
    expect(formatIndexFor("trl")).toBeUndefined();
    expect(formatIndexFor("__proto__")).toBeUndefined();
  });
});

describe("datasetWithParsedGroup", () => {
  it("rebuilds the summary and keeps the counts adding up", async () => {
    const text =
      '{"group_id":"g","completion":"a","reward":1}\n{"group_id":"g","completion":"b","reward":0}\n';
    const dataset = datasetFromLoad(await loadBytes("f.jsonl", new TextEncoder().encode(text)));
    const group = dataset.groups[0]!;
    const shrunk = datasetWithParsedGroup(
      dataset,
      { ...group, rollouts: group.rollouts.slice(0, 1) },
      "g",
      [{ file: "f.jsonl", line: 2, message: "rejected by the full parser" }],
    );
    expect(shrunk.summaries[0]!.rewards).toEqual([1]);
    expect(shrunk.stats).toMatchObject({ records: 2, rollouts: 1, rejected: 1 });
    expect(shrunk.stats.rollouts + shrunk.stats.rejected).toBe(shrunk.stats.records);
    expect(shrunk.issues).toHaveLength(1);
  });
});

describe("datasetWithParsedGroups", () => {
  const rows = (groups: number, k: number): string =>
    Array.from({ length: groups * k }, (_, i) =>
      JSON.stringify({ group_id: `g${Math.floor(i / k)}`, completion: `c${i}`, reward: i % 2 }),
    ).join("\n");

  propTest.prop([
    fc.integer({ min: 1, max: 6 }),
    fc.integer({ min: 1, max: 4 }),
    fc.array(fc.tuple(fc.nat(5), fc.integer({ min: -1, max: 3 }), fc.nat(3), fc.nat(9)), {
      maxLength: 6,
    }),
  ])("equals datasetWithParsedGroup applied group by group", async (groups, k, picks) => {
    const dataset = datasetFromLoad(
      await loadBytes("f.jsonl", new TextEncoder().encode(`${rows(groups, k)}\n`)),
    );
    // Distinct ids; a kept count of -1 is a group the full parser rejected whole (null).
    const seen = new Set<string>();
    const parsed = picks
      .map(([g, keep, issueCount, line]) => {
        const id = `g${g}`;
        const source = dataset.groups.find((x) => x.id === id);
        return {
          groupId: id,
          group:
            keep < 0 || source === undefined
              ? null
              : { ...source, rollouts: source.rollouts.slice(0, keep + 1) },
          issues: Array.from({ length: issueCount }, (_, i) => ({
            file: "f.jsonl",
            line: (line + i) % 5,
            message: `${id} ${i}`,
          })),
        };
      })
      .filter((p) => !seen.has(p.groupId) && seen.add(p.groupId));
    let sequential = dataset;
    for (const p of parsed)
      sequential = datasetWithParsedGroup(sequential, p.group, p.groupId, p.issues);
    expect(datasetWithParsedGroups(dataset, parsed)).toEqual(sequential);
  });
});

describe("partialBelow", () => {
  it("is the common size when most groups share it, else 0", async () => {
    const { partialBelow } = await import("../dataset.ts");
    expect(partialBelow([8, 8, 8, 5])).toBe(8);
    expect(partialBelow([4, 5, 6, 7, 8])).toBe(0);
    expect(partialBelow([])).toBe(0);
  });
});
