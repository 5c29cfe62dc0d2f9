/**
 * `rollout-studio judge` end to end, in-process through main(): the offline heuristic grader on the
 * demo, LLM runs against the local stub through the real client (a judge error exits 3 and is
 * listed), the annotations file read back by the studio's parser with the input's content kept,
 * rubric runs with skipped tasks reported, usage errors; and the API key in no output and no file.
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { generateDemo } from "../../scripts/generate-demo.ts";
import { ANNOTATIONS_EMPTY, type Annotations } from "../core/index.ts";
import { annotationsParse, annotationsToJson } from "../io/index.ts";
import {
  startJudgeStub,
  stubCompletion,
  type JudgeStub,
  type StubRequest,
} from "../test/judgeStub.ts";
import { COMMANDS } from "./commands/index.ts";
import { EXIT, main } from "./main.ts";

const KEY = "sk-cli-CANARYx8y7z6w5v4u3";

let dir: string;
let demo: string;
let small: string;

// main() imports a command's module when the command first runs; load it here, outside the first
// test's timeout.
beforeAll(async () => {
  await COMMANDS.judge!.load();
}, 30_000);
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "rollout-studio-judge-"));
  demo = join(dir, "demo.jsonl");
  writeFileSync(demo, generateDemo());
  small = join(dir, "small.jsonl");
  const rows = [
    ["mixed", 0, 1],
    ["mixed", 1, 0],
    ["mixed", 2, 1],
    ["allpass", 0, 1],
    ["allpass", 1, 1],
    ["broken", 0, 1],
    ["broken", 1, 0],
    ["fails", 0, 0],
    ["fails", 1, 0],
  ].map(([g, i, r]) =>
    JSON.stringify({
      group_id: g,
      id: `${g}/${i}`,
      prompt: `task ${g}`,
      completion: `answer ${i}`,
      reward: r,
    }),
  );
  writeFileSync(small, `${rows.join("\n")}\n`);
});

const stubs: JudgeStub[] = [];
afterEach(async () => {
  await Promise.all(stubs.splice(0).map((s) => s.close()));
});

async function run(args: string[], env: Record<string, string | undefined> = {}) {
  let stdout = "";
  let stderr = "";
  const code = await main(args, {
    stdout: (t) => (stdout += t),
    stderr: (t) => (stderr += t),
    cwd: dir,
    env: { OPENAI_API_KEY: KEY, ...env },
  });
  return { code, stdout, stderr };
}

function readOut(name: string): Annotations {
  const parsed = annotationsParse(name, readFileSync(join(dir, name), "utf8"));
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
  return parsed.value;
}

const userText = (r: StubRequest): string =>
  (r.body as { messages: { role: string; content: string }[] }).messages[1]!.content;

/** A judge that ranks the passes best-first by index, except in the group named "broken". */
function groupGrader(r: StubRequest) {
  const text = userText(r);
  if (text.includes("task broken")) return stubCompletion("I cannot decide.");
  const passes = [...text.matchAll(/<attempt index="(\d+)" result="PASS">/g)].map((m) =>
    Number(m[1]),
  );
  return stubCompletion(JSON.stringify({ tiers: passes.map((p) => [p]), hacks: [] }));
}

describe("rollout-studio judge", () => {
  it("--heuristic grades the demo offline and writes a run the studio's parser reads", async () => {
    const { code, stdout, stderr } = await run([
      "judge",
      demo,
      "--mode",
      "gar",
      "--heuristic",
      "--out",
      "h.json",
    ]);
    expect(stdout).toBe("");
    expect(code).toBe(EXIT.ok);
    expect(stderr).toContain("judge: heuristic grader (offline) over");
    expect(stderr).toMatch(/heuristic grader spread check: \d+ grader scores over \d+ group\(s\)/);
    const doc = readOut("h.json");
    expect(doc.judgeRuns).toHaveLength(1);
    const info = doc.judgeRuns[0]!.info;
    expect(info).toMatchObject({
      mode: "gar",
      source: "heuristic",
      model: "heuristic",
      baseUrl: "",
    });
    expect(Object.keys(doc.judgeRuns[0]!.groups).length).toBeGreaterThan(5);
    expect(Object.values(doc.judgeRuns[0]!.groups).some((g) => g.hacks.length > 0)).toBe(true);
  });

  it("an LLM gar run against the stub: progress, a judge error listed (exit 3), the input kept, no key anywhere", async () => {
    const s = await startJudgeStub(groupGrader);
    stubs.push(s);
    const input: Annotations = {
      ...ANNOTATIONS_EMPTY,
      annotator: "ann",
      groups: {
        mixed: {
          ranking: [["mixed/2"], ["mixed/0"]],
          hacks: [],
          labels: {},
          notes: "kept",
          reviewed: false,
          hackDetails: {},
          rolloutNotes: {},
          pairwise: null,
        },
      },
    };
    writeFileSync(join(dir, "in.json"), annotationsToJson(input));
    const args = [
      "judge",
      small,
      "--base-url",
      s.baseURL,
      "--model",
      "stub-model",
      "--mode",
      "gar",
    ];
    const flags = [
      "--scope",
      "all",
      "--annotations",
      "in.json",
      "--concurrency",
      "2",
      "--timeout",
      "5",
    ];
    const first = await run([
      ...args,
      ...flags,
      "--price-in",
      "1",
      "--price-out",
      "2",
      "--out",
      "out.json",
    ]);
    expect(first.code).toBe(EXIT.issues);
    expect(first.stderr).toContain("judge: gar over 3 group(s), 3 request(s), model stub-model at");
    expect(first.stderr).toMatch(/judge: 3 of 3 requests, 1 failed, \d+ tokens, \$0\.\d{4}/);
    expect(first.stderr).toContain("judge: skipped group fails: no passes to rank");
    expect(first.stderr).toContain(
      "judge: judge error in group broken (kept its rewards): malformed_reply: no JSON object in the reply",
    );
    expect(first.stderr).toContain("spread check: 4 grader scores over 2 group(s), std 0.250");
    expect(s.sawKey(KEY)).toBe(true);
    const doc = readOut("out.json");
    expect(doc.annotator).toBe("ann");
    expect(doc.groups.mixed!.notes).toBe("kept");
    const runs = doc.judgeRuns;
    expect(runs).toHaveLength(1);
    expect(runs[0]!.groups.mixed!.tiers).toEqual([["mixed/0"], ["mixed/2"]]);
    expect(runs[0]!.groups.broken!.error?.kind).toBe("malformed_reply");
    // A second run appends to the first.
    writeFileSync(join(dir, "in2.json"), readFileSync(join(dir, "out.json")));
    const second = await run([
      ...args,
      "--annotations",
      "in2.json",
      "--sample",
      "1",
      "--seed",
      "3",
      "--out",
      "out2.json",
    ]);
    expect(second.code).toBeLessThanOrEqual(EXIT.issues);
    const both = readOut("out2.json").judgeRuns;
    expect(both).toHaveLength(2);
    expect(new Set(both.map((r) => r.info.id)).size).toBe(2);
    expect(Object.keys(both[1]!.groups)).toHaveLength(1);
    for (const text of [
      first.stdout,
      first.stderr,
      second.stderr,
      readFileSync(join(dir, "out.json"), "utf8"),
      readFileSync(join(dir, "out2.json"), "utf8"),
    ])
      expect(text).not.toContain("CANARY");
  });
});

describe("rollout-studio judge: rubric and pairwise runs, and its flags", () => {
  it("rubric runs score the passes of tasks with a rubric and report the others; pairwise reports flips", async () => {
    const s = await startJudgeStub((r) =>
      userText(r).includes("Solution criteria")
        ? stubCompletion('{"solution": 0.9, "behavior": 0.5}')
        : stubCompletion('{"winner": "A"}'),
    );
    stubs.push(s);
    const input: Annotations = {
      ...ANNOTATIONS_EMPTY,
      rubrics: {
        mixed: {
          versions: [
            { version: 1, savedAt: "t", author: "human", solution: ["right"], behavior: ["brief"] },
          ],
          labelVersions: {},
        },
      },
    };
    writeFileSync(join(dir, "rubrics.json"), annotationsToJson(input));
    const base = [
      "judge",
      small,
      "--base-url",
      s.baseURL,
      "--model",
      "m",
      "--annotations",
      "rubrics.json",
    ];
    const rubric = await run([...base, "--mode", "rubric", "--out", "r.json"]);
    expect(rubric.code).toBe(EXIT.ok);
    expect(rubric.stderr).toContain("judge: skipped group broken: the task has no rubric");
    const r = readOut("r.json").judgeRuns[0]!;
    expect(r.groups.mixed).toMatchObject({
      rubricVersion: 1,
      scores: { "mixed/0": { solution: 0.9, behavior: 0.5 } },
    });
    const pairwise = await run([...base, "--mode", "pairwise", "--both-orders", "--out", "p.json"]);
    expect(pairwise.code).toBe(EXIT.ok);
    expect(pairwise.stderr).toContain("judge: position flips 4 of 4 pairs (100%)");
  });

  it("says what is wrong with the flags", async () => {
    expect((await run(["judge", small, "--out", "x.json"])).stderr).toContain(
      "--mode must be one of gar, pairwise, rubric, cluster",
    );
    expect(
      (await run(["judge", small, "--mode", "pairwise", "--heuristic", "--out", "x.json"])).code,
    ).toBe(EXIT.usage);
    const noUrl = await run(["judge", small, "--mode", "gar", "--out", "x.json"]);
    expect(noUrl.code).toBe(EXIT.usage);
    expect(noUrl.stderr).toContain("--base-url URL and --model M are required");
    const bad = await run([
      "judge",
      small,
      "--mode",
      "gar",
      "--base-url",
      "ftp://x",
      "--model",
      "m",
      "--out",
      "x.json",
    ]);
    expect(bad.stderr).toContain("judge settings: baseURL: invalid value");
    expect(bad.stderr).not.toContain("CANARY");
    expect((await run(["judge", "--help"])).stdout).toContain("OPENAI_API_KEY");
  });
});
