/**
 * A large run indexed through an index pool (issue 14: "indexing a 100-file run of 2 GB"): its
 * files indexed in worker threads at once (Node's worker_threads here, nested Web Workers in the
 * studio; the same indexThread and indexRunFile) give exactly the load of the same run indexed one
 * file after another in the load worker's thread: the dataset (groups, ids, summaries, issues,
 * stats, order) and every group parsed on demand. The run's format, detected once on its first
 * file, gives what detecting every file on its own gives. Cancelling stops the pool; a thread that
 * fails leaves its file to the load worker, with the same result.
 */
import { fc, test } from "@fast-check/vitest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { verlLine } from "./runFixtures.ts";
import type { RolloutGroup } from "../core/index.ts";
import { indexRunFile, namedSource, type RunFile } from "../io/index.ts";
import {
  inThreadIndexPool,
  indexThread,
  portIndexPool,
  type IndexPool,
  type IndexPort,
  type IndexReply,
  type IndexRequest,
} from "../workers/indexPool.ts";
import { readWorkerGroup, runLoadRun, type RunIndex } from "../workers/loadFile.ts";
import { nodeIndexPool } from "../workers/nodeIndexPool.ts";
import type { LoadReply } from "../workers/protocol.ts";

type RunFiles = { file: File; run: RunFile }[];

const nativeLine = (group: string, id: string | null, reward: unknown): string =>
  JSON.stringify({
    group_id: group,
    ...(id === null ? {} : { id }),
    prompt: `prompt of ${group}`,
    completion: `answer ${id ?? "?"}`,
    reward,
  });

/** One line of a run file: a good or broken row of the file's format, or a stray line. */
const lineOf = (format: "verl" | "native", step: number) =>
  fc
    .oneof(
      { weight: 8, arbitrary: fc.constant(null) },
      { weight: 1, arbitrary: fc.constantFrom("", "not json", '{"input": 3}', "[1, 2]", "{") },
    )
    .chain((stray) =>
      stray !== null
        ? fc.constant(stray)
        : format === "verl"
          ? fc
              .tuple(
                fc.constantFrom("A", "B", "C", "a long prompt ".repeat(5)),
                fc.oneof(fc.constantFrom(0, 1, 0.5), fc.constant("x")),
                fc.nat(50),
              )
              .map(([prompt, score, i]) =>
                typeof score === "number"
                  ? verlLine(step, prompt, score, i)
                  : JSON.stringify({ input: prompt, output: "o", score, step }),
              )
          : fc
              .tuple(
                fc.constantFrom("g1", "g2", "g3"),
                fc.option(fc.constantFrom("r1", "r2", "r3", "r4", "r5"), { nil: null }),
                fc.oneof(fc.constantFrom(0, 1, 2.5, null), fc.constant("bad")),
              )
              .map(([group, id, reward]) => nativeLine(group, id, reward)),
    );

/** A run of 1-6 step files, mostly of one format, sometimes a file of the other. */
const runArb = fc
  .tuple(fc.constantFrom<"verl" | "native">("verl", "native"), fc.integer({ min: 1, max: 6 }))
  .chain(([format, n]) =>
    fc.tuple(
      ...Array.from({ length: n }, (_, k) =>
        fc
          .tuple(
            fc.oneof(
              { weight: 5, arbitrary: fc.constant(format) },
              {
                weight: 1,
                arbitrary: fc.constantFrom<"verl" | "native">("verl", "native"),
              },
            ),
            fc.boolean(),
          )
          .chain(([f, finalNewline]) =>
            fc
              .array(lineOf(f, k + 1), { minLength: 1, maxLength: 14 })
              .map((lines) => `${lines.join("\n")}${finalNewline ? "\n" : ""}`),
          ),
      ),
    ),
  )
  .map((texts): RunFiles =>
    texts.map((text, k) => {
      const file = new File([text], `${k + 1}.jsonl`);
      return {
        file,
        run: {
          path: `run/${k + 1}.jsonl`,
          size: file.size,
          mtimeMs: 0,
          step: k + 1,
          stepSource: "verl-name",
        },
      };
    }),
  );

interface RunLoad {
  readonly replies: LoadReply[];
  readonly index: RunIndex | null;
}

async function loadRun(
  files: RunFiles,
  pool: () => IndexPool | null,
  isCancelled: () => boolean = () => false,
  indexThreshold = 0,
): Promise<RunLoad> {
  const replies: LoadReply[] = [];
  const index = await runLoadRun(
    { kind: "load-run", requestId: 1, name: "run", files, indexThreshold },
    (r) => replies.push(r),
    isCancelled,
    pool,
  );
  return { replies, index };
}

const final = (load: RunLoad): LoadReply =>
  load.replies.filter((r) => r.kind !== "progress").at(-1)!;

/** Every group of a loaded run, parsed on demand (what opening each group shows). */
async function parsedGroups(load: RunLoad): Promise<unknown[]> {
  const done = final(load);
  if (done.kind !== "done" || load.index === null) return [];
  return Promise.all(done.dataset.summaries.map((s) => readWorkerGroup(load.index!, s.id)));
}

/** Each rollout's file, line, id and reward, in order: what a group shows of the rows it holds. */
function rolloutsOf(groups: readonly (RolloutGroup | null)[]): string[] {
  return groups
    .flatMap((g) => g?.rollouts ?? [])
    .map((r) => `${r.source.file}:${r.source.line} ${r.id} ${r.reward}`)
    .sort();
}

/** `pool`, counting the files its threads indexed (so a pool that never ran cannot pass). */
function counted(pool: IndexPool): { pool: IndexPool; indexed: () => number } {
  let n = 0;
  return {
    pool: {
      size: pool.size,
      index: async (job, callbacks) => {
        const result = await pool.index(job, callbacks);
        if (result.kind === "indexed") n++;
        return result;
      },
      close: () => pool.close(),
    },
    indexed: () => n,
  };
}

/** Per-file detection, as before a run's format was detected once: no hint. */
function perFileDetection(): IndexPool {
  return {
    size: 1,
    index: (job, callbacks) =>
      indexRunFile(namedSource(job.file, job.path), job.format, null, new Map(), callbacks),
    close: () => undefined,
  };
}

/** An index thread in this thread, over structured clones (what crossing threads does). */
function clonePort(fail = false): IndexPort {
  let onReply: (reply: IndexReply) => void = () => undefined;
  let onError: (message: string) => void = () => undefined;
  const handle = indexThread(
    (file) => file as File,
    (reply, transfer) => onReply(structuredClone(reply, { transfer })),
  );
  return {
    post: (request: IndexRequest) => {
      if (fail) setTimeout(() => onError("it crashed"), 0);
      else setTimeout(() => handle(structuredClone(request)), 0);
    },
    listen: (reply, error) => {
      onReply = reply;
      onError = error;
    },
    terminate: () => undefined,
  };
}

describe("a run indexed through an index pool", () => {
  let threads: IndexPool;
  beforeAll(() => {
    threads = nodeIndexPool({ size: 2 });
  });
  afterAll(() => threads.close());

  test.prop([runArb], { numRuns: 30 })(
    "in two worker threads = one file after another in the load worker, dataset and groups",
    async (files) => {
      const sequential = await loadRun(files, () => null);
      const pool = counted(threads);
      const pooled = await loadRun(files, () => pool.pool);
      expect(final(pooled)).toEqual(final(sequential));
      if (sequential.index !== null) expect(pool.indexed()).toBeGreaterThan(0);
      // Once every group is parsed, the rows are those of the run read whole, ids and lines too.
      const whole = final(
        await loadRun(
          files,
          () => null,
          () => false,
          Infinity,
        ),
      );
      if (whole.kind === "done" && final(pooled).kind === "done") {
        const groups = (await parsedGroups(pooled)) as { group: RolloutGroup | null }[];
        expect(rolloutsOf(groups.map((g) => g.group))).toEqual(rolloutsOf(whole.dataset.groups));
      }
      expect(pooled.index === null).toBe(sequential.index === null);
      expect(await parsedGroups(pooled)).toEqual(await parsedGroups(sequential));
      // Progress only grows, and ends at the run's size.
      const bytes = pooled.replies.flatMap((r) => (r.kind === "progress" ? [r.bytes] : []));
      expect(bytes).toEqual([...bytes].sort((a, b) => a - b));
      if (final(pooled).kind === "done")
        expect(bytes.at(-1)).toBe(files.reduce((n, f) => n + f.file.size, 0));
    },
  );

  test.prop([runArb], { numRuns: 60 })(
    "the run's format detected on its first file = every file detected on its own",
    async (files) => {
      const once = await loadRun(files, () => null);
      const each = await loadRun(files, perFileDetection);
      expect(final(once)).toEqual(final(each));
      expect(await parsedGroups(once)).toEqual(await parsedGroups(each));
    },
  );

  it("a thread that fails leaves its file to the load worker: the same load", async () => {
    const files = fc.sample(
      runArb.filter((f) => f.length >= 3),
      { numRuns: 1, seed: 7 },
    )[0]!;
    const sequential = await loadRun(files, () => null);
    const pool = portIndexPool([clonePort(true), clonePort()]);
    const pooled = await loadRun(files, () => pool);
    expect(final(pooled)).toEqual(final(sequential));
    expect(await parsedGroups(pooled)).toEqual(await parsedGroups(sequential));
  });

  it("a cancelled run stops with a cancelled reply, and the pool indexes the next run", async () => {
    const lines = Array.from({ length: 4000 }, (_, i) => verlLine(1, `p${i >> 3}`, i % 2, i));
    const text = `${lines.join("\n")}\n`;
    const files: RunFiles = Array.from({ length: 6 }, (_, k) => {
      const file = new File([text], `${k + 1}.jsonl`);
      return {
        file,
        run: {
          path: `${k + 1}.jsonl`,
          size: file.size,
          mtimeMs: 0,
          step: 1,
          stepSource: "verl-name",
        },
      };
    });
    let cancel = false;
    const pool = portIndexPool([clonePort(), clonePort()]);
    const cancelled = loadRun(
      files,
      () => pool,
      () => cancel,
    );
    setTimeout(() => (cancel = true), 5);
    const load = await cancelled;
    expect(final(load)).toEqual({ kind: "cancelled", requestId: 1 });
    expect(load.index).toBeNull();
    const again = await loadRun(files.slice(0, 2), () => pool);
    expect(final(again).kind).toBe("done");
    expect(final(again)).toEqual(
      final(await loadRun(files.slice(0, 2), () => inThreadIndexPool())),
    );
  });
});
