/**
 * Covers: `analyze` of one large JSONL file a group at a time (issue 16, point 4). Its output is
 * the output of loading every group first (the path `--messages` takes), under the settings whose
 * advantages need the whole dataset too, with annotations, rejected rows (by the index, and by the
 * full parser once a group is read), duplicate ids and groups spread through the file; and annotations naming ids the file does not hold are refused the same. In worker threads, the
 * groups analysed while the file is still indexed (files of several 1 MB chunks, contiguous or
 * interleaved, with a row a duplicate id's settling moves into a group at the end) give the same.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { COMMANDS } from "./commands/index.ts";
import { EXIT } from "./main.ts";
import { runCli } from "../test/cliRun.ts";

/** Index every file (the streamed path), whatever its size. */
const INDEXED = { ROLLOUT_STUDIO_INDEX_THRESHOLD: "0" };

let dir = "";
let data = "";
let annotations = "";
let foreign = "";

beforeAll(async () => {
  await COMMANDS.analyze!.load();
  dir = mkdtempSync(join(tmpdir(), "rollout-studio-analyze-stream-"));
  const lines: string[] = [];
  // 12 groups of 1-6 rollouts, their rows interleaved through the file, with reward components.
  for (let round = 0; round < 6; round++)
    for (let g = 0; g < 12; g++) {
      if (round >= 1 + (g % 6)) continue;
      const reward = (g * 7 + round * 3) % 4 === 0 ? 1 : round % 3 === 0 ? 0.5 : 0;
      lines.push(
        JSON.stringify({
          id: `g${g}-r${round}`,
          group_id: `g${g}`,
          prompt: `Problem ${g}: what is ${g} + ${round}?`,
          completion: `The answer is ${g + round}. ${"reasoning ".repeat(round + (g % 3))}`,
          reward,
          rewards: { correct: reward, format: (g + round) % 2 },
        }),
      );
    }
  // A malformed line, a row without a group, and a duplicate id.
  lines.splice(5, 0, '{"id": "cut", "group_id": "g1", "comp');
  lines.splice(9, 0, JSON.stringify({ id: "lonely", completion: "x", reward: 1 }));
  lines.push(JSON.stringify({ id: "g0-r0", group_id: "g0", completion: "again", reward: 0 }));
  // Rows the index accepts and the full parser rejects (found when their group is read).
  lines.push(JSON.stringify({ id: "typed", group_id: "g3", completion: 123, reward: 1 }));
  lines.push(JSON.stringify({ id: "alone", group_id: "g99", completion: ["x"], reward: 1 }));
  data = join(dir, "rollouts.jsonl");
  writeFileSync(data, lines.join("\n") + "\n");
  annotations = join(dir, "annotations.json");
  writeFileSync(
    annotations,
    JSON.stringify({
      version: 1,
      groups: {
        g5: { ranking: [["g5-r0"], ["g5-r2", "g5-r1"]], hacks: ["g5-r3"] },
        g11: { hacks: ["g11-r4"], labels: { "g11-r0": "pass" } },
      },
    }),
  );
  foreign = join(dir, "foreign.json");
  writeFileSync(
    foreign,
    JSON.stringify({ version: 1, groups: { nope: { hacks: ["x"] }, g2: { hacks: ["g2-r9"] } } }),
  );
}, 30_000);

/** The --json document without the transcripts --messages adds. */
function withoutTranscripts(stdout: string): unknown {
  const doc = JSON.parse(stdout) as { groups: { rollouts: { transcript?: unknown }[] }[] };
  for (const g of doc.groups) for (const r of g.rollouts) delete r.transcript;
  return doc;
}

describe("analyze streams a large JSONL file", () => {
  it.each([
    [[]],
    [["--scale", "batch"]],
    [["--aggregation", "normalize_then_sum", "--weight", "format=0.5"]],
    [["--estimator", "rloo", "--annotations", "ANNOTATIONS"]],
    [["--annotations", "ANNOTATIONS", "--scale", "batch", "--std", "population"]],
  ])("gives what loading every group gives, %j", async (flags) => {
    const args = [
      "analyze",
      data,
      "--json",
      ...flags.map((f) => (f === "ANNOTATIONS" ? annotations : f)),
    ];
    const streamed = await runCli(args, dir, INDEXED);
    const loaded = await runCli([...args, "--messages"], dir, INDEXED);
    expect(streamed.code).toBe(EXIT.issues);
    expect(loaded.code).toBe(streamed.code);
    expect(streamed.stderr).toBe(loaded.stderr);
    expect(withoutTranscripts(streamed.stdout)).toEqual(withoutTranscripts(loaded.stdout));
    // And the readable summary names the same counts as a whole-file read.
    const text = await runCli(
      ["analyze", data, ...flags.map((f) => (f === "ANNOTATIONS" ? annotations : f))],
      dir,
      INDEXED,
    );
    const whole = await runCli(
      ["analyze", data, ...flags.map((f) => (f === "ANNOTATIONS" ? annotations : f))],
      dir,
      {},
    );
    expect(text.stdout).toBe(whole.stdout);
  });

  it.each([
    [["--annotations", "ANNOTATIONS"]],
    [["--scale", "batch", "--annotations", "ANNOTATIONS"]],
  ])(
    "gives the same in worker threads, group ranges analysed apart and handed back in order, %j",
    async (flags) => {
      const args = [
        "analyze",
        data,
        "--json",
        ...flags.map((f) => (f === "ANNOTATIONS" ? annotations : f)),
      ];
      const one = await runCli(args, dir, INDEXED);
      const threads = await runCli(args, dir, { ...INDEXED, ROLLOUT_STUDIO_ANALYZE_THREADS: "2" });
      expect(threads.code).toBe(one.code);
      expect(threads.stderr).toBe(one.stderr);
      expect(JSON.parse(threads.stdout)).toEqual(JSON.parse(one.stdout));
    },
    60_000,
  );

  it("refuses annotations for another dataset, naming each unknown id, as a whole load does", async () => {
    const streamed = await runCli(["analyze", data, "--annotations", foreign], dir, INDEXED);
    const whole = await runCli(["analyze", data, "--annotations", foreign], dir, {});
    expect(streamed.code).toBe(EXIT.failed);
    expect(whole.code).toBe(streamed.code);
    expect(streamed.stderr).toBe(whole.stderr);
    expect(streamed.stderr).toMatch(/group "nope" is not in the data/);
    expect(streamed.stderr).toMatch(/"g2-r9", which is not in group "g2"/);
  });
});

/**
 * A file of several index chunks (1 MB): 1,200 groups of 4 rows of ~700 bytes, contiguous or in 4
 * rounds through the file. Group g10's first row is accepted by the index and rejected by the full
 * parser, so the row reusing its id in group g900 (skipped as a duplicate while indexing) owns it
 * once duplicates are settled at the end: g900 gains a row after it was sent.
 */
function chunkedFile(interleaved: boolean): string {
  const rows: string[][] = Array.from({ length: 1200 }, (_, g) =>
    Array.from({ length: 4 }, (_, r) =>
      JSON.stringify({
        id: `g${g}-r${r}`,
        group_id: `g${g}`,
        prompt: `Problem ${g}`,
        completion:
          g === 10 && r === 0
            ? 123
            : `Answer ${(g * 7 + r) % 13}: ${"step ".repeat(100 + ((g + r) % 40))}`,
        reward: (g + r) % 3 === 0 ? 1 : 0,
      }),
    ),
  );
  rows[900]!.splice(
    2,
    0,
    JSON.stringify({ id: "g10-r0", group_id: "g900", completion: "owner", reward: 1 }),
  );
  const lines = interleaved
    ? [0, 1, 2, 3, 4].flatMap((r) => rows.map((g) => g[r]).filter((l) => l !== undefined))
    : rows.flat();
  const path = join(dir, interleaved ? "interleaved.jsonl" : "contiguous.jsonl");
  writeFileSync(path, lines.join("\n") + "\n");
  return path;
}

describe("analyze in threads that start with the index", () => {
  it.each([[false], [true]])(
    "gives what one thread gives (interleaved %j)",
    async (interleaved) => {
      const path = chunkedFile(interleaved);
      const args = ["analyze", path, "--json"];
      const one = await runCli(args, dir, INDEXED);
      const threads = await runCli(args, dir, { ...INDEXED, ROLLOUT_STUDIO_ANALYZE_THREADS: "2" });
      expect(one.code).toBe(EXIT.issues);
      expect(threads.code).toBe(one.code);
      expect(threads.stderr).toBe(one.stderr);
      expect(JSON.parse(threads.stdout)).toEqual(JSON.parse(one.stdout));
      const doc = JSON.parse(one.stdout) as { groups: { id: string; rollouts: unknown[] }[] };
      expect(doc.groups.find((g) => g.id === "g900")?.rollouts.length).toBe(5);
    },
    60_000,
  );
  it.each([
    [false, false],
    [true, false],
    [false, true],
  ])(
    "prints the summary a whole load prints, keeping only the table's groups (interleaved %j, GAR past the table %j)",
    async (interleaved, annotated) => {
      const path = chunkedFile(interleaved);
      const args = ["analyze", path];
      if (annotated) {
        // GAR on a group past the table's 60: its note must still be printed.
        const file = join(dir, "chunked-annotations.json");
        const ranking = [0, 1, 2, 3].map((r) => [`g100-r${r}`]);
        writeFileSync(file, JSON.stringify({ version: 1, groups: { g100: { ranking } } }));
        args.push("--annotations", file);
      }
      const whole = await runCli(args, dir, {});
      const one = await runCli(args, dir, INDEXED);
      const threads = await runCli(args, dir, { ...INDEXED, ROLLOUT_STUDIO_ANALYZE_THREADS: "2" });
      expect(whole.stdout).toMatch(/\(60 of \d+ groups shown; use --json for all\)/);
      if (annotated) expect(whole.stdout).toContain("GAR from annotations: 1 group(s) applied");
      expect(whole.stdout).toContain(annotated ? "where GAR applies" : "advantages");
      // Interleaved, g10's first row (rejected when its group is read) places it in the index's
      // order but not in a whole load's, which orders groups by their first row kept.
      if (!interleaved) expect(one.stdout).toBe(whole.stdout);
      expect(threads.stdout).toBe(one.stdout);
      expect(threads.stderr).toBe(one.stderr);
      expect(threads.code).toBe(one.code);
    },
    60_000,
  );
});
