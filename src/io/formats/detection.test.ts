/**
 * Covers: issue 15's detection acceptance. Every fixture in src/io/__fixtures__ and every real file
 * in ../shared/data (tau-bench, Inspect, SWE-agent, OpenHands, verifiers, NeMo Gym) is detected as the format written
 * below, from its content alone (the name it is loaded under says nothing of its folder); a file
 * that is no rollout file (a run's config, a report) is in no format; a file that fits two formats
 * equally well is reported as ambiguous and never guessed. The table is explicit, and complete: a
 * new fixture without a row fails, so a wrong detection cannot hide.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { basename, join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { AmbiguousFormatError, FORMATS, LoadError, loadBytes, loadText } from "../index.ts";

const FIXTURES = join(import.meta.dirname, "../__fixtures__");
const DATA = join(import.meta.dirname, "../../../../shared/data");

/** What detection must say: a format id, or no format (the message says why). */
type Expected = string | { readonly none: RegExp };

const NOT_ROLLOUTS = { none: /is in no known format/ };
const NEEDS_MAPPING = { none: /is in no known format/ };

/** Every fixture, by its path under src/io/__fixtures__. */
const FIXTURE_TABLE: Readonly<Record<string, Expected>> = {
  "atif/compact.json": "atif",
  "atif/trajectory.json": "atif",
  "atif/jobs/2025-10-11__10-30-00/config.json": NOT_ROLLOUTS,
  "atif/jobs/2025-10-11__10-30-00/result.json": NOT_ROLLOUTS,
  "atif/jobs/2025-10-11__10-30-00/fix-bug__Kk20pQr/agent/trajectory.json": "atif",
  "atif/jobs/2025-10-11__10-30-00/fix-bug__Kk20pQr/config.json": NOT_ROLLOUTS,
  "atif/jobs/2025-10-11__10-30-00/fix-bug__Kk20pQr/result.json": NOT_ROLLOUTS,
  "atif/jobs/2025-10-11__10-30-00/hello-world__Ab3dE9x/agent/trajectory.json": "atif",
  "atif/jobs/2025-10-11__10-30-00/hello-world__Ab3dE9x/config.json": NOT_ROLLOUTS,
  "atif/jobs/2025-10-11__10-30-00/hello-world__Ab3dE9x/result.json": NOT_ROLLOUTS,
  "atif/jobs/2025-10-11__10-30-00/hello-world__Zq81LmP/agent/trajectory.json": "atif",
  "atif/jobs/2025-10-11__10-30-00/hello-world__Zq81LmP/config.json": NOT_ROLLOUTS,
  "atif/jobs/2025-10-11__10-30-00/hello-world__Zq81LmP/result.json": NOT_ROLLOUTS,
  "atropos/groups.jsonl": "atropos",
  "atropos/malformed.jsonl": "atropos",
  "benchmax/group-rollouts.jsonl": "benchmax",
  "benchmax/malformed.jsonl": "benchmax",
  "inspect/ctf-log.json": "inspect",
  "inspect/malformed.json": "inspect",
  "mapped/malformed.csv": NEEDS_MAPPING,
  "mapped/nested.jsonl": NEEDS_MAPPING,
  "mapped/table.csv": NEEDS_MAPPING,
  "native/basic.jsonl": "native",
  "native/bom-no-final-newline.jsonl": "native",
  "native/malformed.jsonl": "native",
  "nemo-gym/malformed.jsonl": "nemo-gym",
  "nemo-gym/no-task-index.jsonl": "nemo-gym",
  "nemo-gym/rollouts.jsonl": "nemo-gym",
  "openai/array.json": "openai",
  "openai/malformed.jsonl": "openai",
  "openai/tools.jsonl": "openai",
  "openhands/malformed.jsonl": "openhands",
  "openhands/output.jsonl": "openhands",
  // Detected as SWE-agent; every record of it is then rejected (a history message without a role).
  "swe-agent/bad/no-role.traj": "swe-agent",
  "swe-agent/example__calc-7.traj": "swe-agent",
  "swe-agent/marshmallow-code__marshmallow-1867.traj": "swe-agent",
  "swe-agent/mini-swe-agent.traj.json": "swe-agent",
  "tau2/malformed.json": "tau2",
  "tau2/results.json": "tau2",
  "trl/codecs/codec-brotli.parquet": "trl",
  "trl/codecs/codec-gzip.parquet": "trl",
  "trl/codecs/codec-lz4.parquet": "trl",
  "trl/codecs/codec-lz4_raw.parquet": "trl",
  "trl/codecs/codec-snappy.parquet": "trl",
  "trl/codecs/codec-uncompressed.parquet": "trl",
  "trl/codecs/codec-zstd.parquet": "trl",
  "trl/codecs/gzip-row-groups.parquet": "trl",
  "trl/codecs/zstd.parquet": "trl",
  "trl/completions-csv.csv": "trl",
  "trl/completions-jsonl.jsonl": "trl",
  "trl/completions_00040.parquet": "trl",
  "trl/malformed.jsonl": "trl",
  "trl/v016-steps.jsonl": "trl",
  "verifiers/legacy-id.jsonl": "verifiers",
  "verifiers/malformed.jsonl": "verifiers",
  "verifiers/results.jsonl": "verifiers",
  "verl/malformed.jsonl": "verl",
  "verl/step12.jsonl": "verl",
  "verl/validation.jsonl": "verl",
  "whileai/legacy.jsonl": "whileai",
  "whileai/malformed.jsonl": "whileai",
  "whileai/row-v1.jsonl": "whileai",
};

/** The real files, by their path under ../shared/data. */
const REAL_TABLE: Readonly<Record<string, Expected>> = {
  "inspect/log_streaming.eval": "inspect",
  "nemo-gym/resources_servers_blackjack.example_rollouts.jsonl": "nemo-gym",
  "nemo-gym/resources_servers_workplace_assistant.example_rollouts.jsonl": "nemo-gym",
  "openhands/multi_swe_bench_output.jsonl": "openhands",
  "swe-agent/function_calling_simple.traj": "swe-agent",
  "tau-bench/gpt-4o-airline.json": "tau-bench",
  "verifiers/wiki-search-gpt-4.1-mini.metadata.json": NOT_ROLLOUTS,
  "verifiers/wiki-search-gpt-4.1-mini.results.jsonl": "verifiers",
  "verifiers/wordle-gpt-5-mini.metadata.json": NOT_ROLLOUTS,
  "verifiers/wordle-gpt-5-mini.results.jsonl": "verifiers",
};
const REAL_FOLDERS = ["inspect", "nemo-gym", "openhands", "swe-agent", "tau-bench", "verifiers"];

/** Data files under a folder: not the expected/options goldens, READMEs, scripts or licences. */
function dataFiles(root: string, under = root): string[] {
  return readdirSync(under).flatMap((name) => {
    const path = join(under, name);
    if (statSync(path).isDirectory()) return dataFiles(root, path);
    if (/\.(expected|options)\.json$|\.(md|py)$|^LICENSE$/.test(name)) return [];
    return [relative(root, path).split("\\").join("/")];
  });
}

const byLabel = new Map(FORMATS.map((f) => [f.label, f.id]));

/**
 * The format detection picks for these bytes: the loaded format; or, when every record is then
 * rejected, the format named in "no rollout could be read as <label>"; "ambiguous" on a tie; else
 * the LoadError's message (no format).
 */
async function detect(
  name: string,
  bytes: Uint8Array,
): Promise<{ format: string } | { ambiguous: string[] } | { none: string }> {
  try {
    return { format: (await loadBytes(name, bytes)).format };
  } catch (e) {
    if (e instanceof AmbiguousFormatError) return { ambiguous: e.candidates.map((c) => c.id) };
    if (!(e instanceof LoadError)) throw e;
    const label = /no rollout could be read as (.+?) \(\d+ record/.exec(e.message)?.[1];
    const id = label === undefined ? undefined : byLabel.get(label);
    return id === undefined ? { none: e.message } : { format: id };
  }
}

function expectDetected(
  got: Awaited<ReturnType<typeof detect>>,
  want: Expected,
  file: string,
): void {
  if (typeof want === "string") expect(got, file).toEqual({ format: want });
  else {
    expect(got, file).toEqual({ none: expect.any(String) as string });
    expect((got as { none: string }).none, file).toMatch(want.none);
  }
}

describe("the detection matrix", () => {
  it("has a row for every fixture and every real file of the formats covered here", () => {
    expect(dataFiles(FIXTURES).sort()).toEqual(Object.keys(FIXTURE_TABLE).sort());
    expect(REAL_FOLDERS.flatMap((f) => dataFiles(DATA, join(DATA, f))).sort()).toEqual(
      Object.keys(REAL_TABLE).sort(),
    );
  });

  for (const [table, root] of [
    [FIXTURE_TABLE, FIXTURES],
    [REAL_TABLE, DATA],
  ] as const)
    for (const [file, want] of Object.entries(table))
      it(`${file} → ${typeof want === "string" ? want : "no format"}`, async () => {
        // Loaded under its base name only: its folder (the format's name) cannot help.
        expectDetected(await detect(basename(file), readFileSync(join(root, file))), want, file);
      });
});

describe("a file that fits two formats equally is asked about, never guessed", () => {
  it("a JSONL line that is both a benchmax rollout and a whileai row", async () => {
    const line = {
      schema_version: "1",
      scenario_id: "s",
      prompt: "hi",
      steps: [],
      final_text: "hello",
      rollout_id: "r1",
      example_args: { id: "s" },
      messages: [{ role: "user", content: "hi" }],
    };
    const got = await detect("both.jsonl", new TextEncoder().encode(JSON.stringify(line)));
    expect(got).toEqual({ ambiguous: ["benchmax", "whileai"] });
  });

  it("lines of two formats in one file (verl and OpenHands, equally specific)", async () => {
    const lines = [
      { input: "1+1?", output: "2", score: 1, step: 3, gts: "2" },
      { instance_id: "a__b-1", history: [], instruction: "fix it" },
    ];
    const text = lines.map((l) => JSON.stringify(l)).join("\n");
    const got = await detect("mixed.jsonl", new TextEncoder().encode(text));
    expect(got).toEqual({ ambiguous: ["verl", "openhands"] });
  });

  it("a document that is both a tau2 Results file and an Inspect log", async () => {
    const document = {
      version: 2,
      eval: { task: "t" },
      samples: [{ id: 1, epoch: 1, messages: [{ role: "user", content: "q" }] }],
      info: {},
      tasks: [{ id: "1" }],
      simulations: [
        {
          task_id: "1",
          termination_reason: "user_stop",
          messages: [{ role: "user", content: "q" }],
        },
      ],
    };
    const text = JSON.stringify(document, null, 2);
    await expect(loadText("both.json", text)).rejects.toThrow(AmbiguousFormatError);
    await expect(loadText("both.json", text)).rejects.toThrow(
      /matches several formats equally well \(tau2, inspect\); choose one/,
    );
    // Choosing one loads it as that format.
    expect((await loadText("both.json", text, { format: "tau2" })).format).toBe("tau2");
    expect((await loadText("both.json", text, { format: "inspect" })).format).toBe("inspect");
  });
});
