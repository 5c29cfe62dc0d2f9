/**
 * Covers: issue 15 item 5, the honest messages. A file whose document holds no record at all (an
 * Inspect log without samples, as a cancelled or failed run leaves it; a tau2 Results file without
 * simulations; an empty JSON array) says what it holds, never "0 record(s), every one rejected",
 * since nothing was rejected. A file whose records were all rejected still says so.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { strToU8, unzipSync, zipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { emptyMessage, formatById, LoadError, loadBytes, loadText } from "../index.ts";

const EVAL = join(import.meta.dirname, "../../../../shared/data/inspect/log_streaming.eval");

/** The real .eval's members without its samples, the header's status and error replaced. */
function evalWithoutSamples(header: Record<string, unknown> | null): Uint8Array {
  const members = unzipSync(readFileSync(EVAL));
  const kept: Record<string, Uint8Array> = {};
  for (const [name, data] of Object.entries(members))
    if (!name.startsWith("samples/") && (header !== null || name !== "header.json"))
      kept[name] = data;
  if (header !== null) {
    const real = JSON.parse(
      new TextDecoder().decode(members["header.json"] ?? new Uint8Array()),
    ) as Record<string, unknown>;
    kept["header.json"] = strToU8(JSON.stringify({ ...real, ...header }));
  }
  return zipSync(kept);
}

/** The message a load fails with (it must fail with a LoadError). */
async function failure(load: Promise<unknown>): Promise<string> {
  try {
    await load;
  } catch (e) {
    expect(e).toBeInstanceOf(LoadError);
    return (e as Error).message;
  }
  throw new Error("the load was expected to fail");
}

/** An indented `.json` EvalLog, as Inspect writes it (one-line documents are container sniffing's). */
const jsonLog = (extra: Record<string, unknown>): string =>
  JSON.stringify(
    {
      version: 2,
      eval: { task: "popularity", model: "openai/gpt-4o", run_id: "r1" },
      plan: {},
      ...extra,
    },
    null,
    2,
  );

describe("an Inspect log with no samples says so", () => {
  it("a cancelled .eval names its status and its error", async () => {
    const zip = evalWithoutSamples({
      status: "cancelled",
      error: { message: "KeyboardInterrupt", traceback: "…" },
    });
    const message = await failure(loadBytes("cancelled.eval", zip));
    expect(message).toBe(
      'cancelled.eval: no samples in this log: the run was cancelled (status "cancelled") before any sample was written; its error: KeyboardInterrupt',
    );
    expect(message).not.toMatch(/rejected/);
  });

  it("an .eval that failed names the error", async () => {
    const zip = evalWithoutSamples({
      status: "error",
      error: { message: "RateLimitError: 429 Too Many Requests", traceback: "" },
    });
    expect(await failure(loadBytes("failed.eval", zip))).toMatch(
      /^failed\.eval: no samples in this log: the run ended in an error \(status "error"\).*; its error: RateLimitError: 429 Too Many Requests$/,
    );
  });

  it("an .eval with only its start journal (no header yet, no sample) may have been cancelled", async () => {
    const message = await failure(loadBytes("running.eval", evalWithoutSamples(null)));
    expect(message).toBe("running.eval: no samples in this log; it may have been cancelled");
  });

  it("a .json log with an empty samples list, or none, says so", async () => {
    expect(
      await failure(
        loadText(
          "cancelled.json",
          jsonLog({ status: "cancelled", samples: [], error: { message: "cancelled by user" } }),
        ),
      ),
    ).toBe(
      'cancelled.json: no samples in this log: the run was cancelled (status "cancelled") before any sample was written; its error: cancelled by user',
    );
    expect(await failure(loadText("started.json", jsonLog({ status: "started" })))).toBe(
      'started.json: no samples in this log; it may have been cancelled, or it is still running (status "started")',
    );
    expect(await failure(loadText("unknown.json", jsonLog({})))).toBe(
      "unknown.json: no samples in this log; it may have been cancelled",
    );
  });

  it("a log whose samples are all bad still says they were rejected", async () => {
    const message = await failure(
      loadText("bad.json", jsonLog({ status: "success", samples: [{ id: 1 }, "x"] })),
    );
    expect(message).toMatch(
      /^bad\.json: no rollout could be read as Inspect AI eval log \(2 record/,
    );
    expect(message).toMatch(/every one rejected/);
  });
});

describe("other documents that hold no record say what they hold", () => {
  it("a tau2 Results file without simulations", async () => {
    const results = {
      timestamp: "2025-06-01T00:00:00",
      info: { num_trials: 3, agent_info: { implementation: "llm_agent" } },
      tasks: [{ id: "t1" }, { id: "t2" }],
      simulations: [],
    };
    const message = await failure(loadText("results.json", JSON.stringify(results, null, 2)));
    expect(message).toBe(
      "results.json: no simulations in this tau2 results file (2 task(s) listed, none run to the end); the run may have been stopped before its first simulation was saved",
    );
  });

  it("an empty JSON array, whatever its layout", async () => {
    for (const text of ["[]", "[\n]\n", "  [ ]  "])
      expect(await failure(loadText("empty.json", text))).toBe(
        "empty.json: holds an empty JSON array ([]): there are no records in it to load",
      );
    // A forced format does not change what the file holds.
    expect(await failure(loadText("empty.json", "[]", { format: "openai" }))).toMatch(
      /empty JSON array/,
    );
  });

  it("a format without its own wording says its document or archive holds no records", () => {
    const atif = formatById("atif")!;
    expect(atif.describeEmpty).toBeUndefined();
    expect(emptyMessage(atif, { document: {} })).toBe(
      `the ${atif.label} document holds no records: there is nothing to load`,
    );
    expect(emptyMessage(atif, { members: [], read: () => null })).toBe(
      `the ${atif.label} archive holds no records: there is nothing to load`,
    );
  });
});
