/**
 * A run loaded by the worker (runLoadRun): indexed file by file from the threshold, it gives the
 * same dataset as the run read whole, and each group parsed on demand (readWorkerGroup, under its
 * run id: `<step>/` prefixed for formats without a step) equals the whole run's group.
 */
import { describe, expect, it } from "vitest";
import { verlLine } from "./runFixtures.ts";
import type { RunFile } from "../io/index.ts";
import { readWorkerGroup, runLoadRun, type RunIndex } from "../workers/loadFile.ts";
import type { LoadReply } from "../workers/protocol.ts";

const runFile = (path: string, size: number, step: number): RunFile => ({
  path,
  size,
  mtimeMs: 0,
  step,
  stepSource: "step-name",
});

function files(kind: "verl" | "native") {
  return [1, 2, 3].map((step) => {
    const lines =
      kind === "verl"
        ? [0, 1, 2, 3, 4, 5].map((i) => verlLine(step, i < 3 ? "A" : "B", i % 2, i))
        : [0, 1, 2, 3, 4, 5].map((i) =>
            JSON.stringify({
              group_id: `g${i % 2}`,
              prompt: "p",
              completion: `c${step}${i}`,
              reward: i % 3,
            }),
          );
    const file = new File([`${lines.join("\n")}\n`], `step_${step}.jsonl`);
    return { file, run: runFile(`run/step_${step}.jsonl`, file.size, step) };
  });
}

async function load(kind: "verl" | "native", indexThreshold: number) {
  const replies: LoadReply[] = [];
  const index = await runLoadRun(
    { kind: "load-run", requestId: 1, name: "run", files: files(kind), indexThreshold },
    (r) => replies.push(r),
    () => false,
  );
  const done = replies.find((r) => r.kind === "done");
  if (done?.kind !== "done") throw new Error(JSON.stringify(replies.at(-1)));
  return { dataset: done.dataset, index };
}

describe("runLoadRun", () => {
  it.each(["verl", "native"] as const)(
    "a %s run indexed file by file = the run read whole, group by group",
    async (kind) => {
      const whole = await load(kind, Infinity);
      const indexed = await load(kind, 0);
      expect(whole.index).toBeNull();
      expect(indexed.index).not.toBeNull();
      expect(indexed.dataset.indexed).toBe(true);
      expect(indexed.dataset.summaries).toEqual(whole.dataset.summaries);
      expect(indexed.dataset.stats).toEqual(whole.dataset.stats);
      const byId = new Map(whole.dataset.groups.map((g) => [g.id, g]));
      expect(byId.size).toBe(6);
      for (const s of whole.dataset.summaries) {
        const read = await readWorkerGroup(indexed.index as RunIndex, s.id);
        expect(read.issues).toEqual([]);
        expect(read.group).toEqual(byId.get(s.id));
      }
      expect((await readWorkerGroup(indexed.index!, "no such group")).group).toBeNull();
    },
  );
});
