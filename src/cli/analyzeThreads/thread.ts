/**
 * One analyze thread of the CLI (worker_threads): it opens the file itself and reads, parses and
 * analyses the groups of each job it is sent (their part of the index, packed), exactly as the
 * main thread would (core's analyzeGroupForStream, io's readIndexedGroup), sending back only the
 * analyses and tallies: no rollout text crosses threads.
 */
import { parentPort } from "node:worker_threads";

import {
  analyzeGroupForStream,
  type AnalysisSettings,
  type ResolvedAnnotation,
} from "../../core/index.ts";
import {
  parsedGroupTally,
  readIndexedGroup,
  unpackIndex,
  type ByteSource,
} from "../../io/index.ts";
import { nodeFileSource } from "../../io/stream/nodeFileSource.ts";
import type {
  AnalyzedGroup,
  AnalyzeThreadJob,
  AnalyzeThreadReply,
  AnalyzeThreadRequest,
} from "./protocol.ts";

interface Context {
  readonly file: ByteSource;
  readonly settings: AnalysisSettings;
  readonly annotations: ReadonlyMap<string, ResolvedAnnotation>;
}

async function run(context: Context, job: AnalyzeThreadJob): Promise<AnalyzedGroup[]> {
  const state = unpackIndex(job.index, context.file);
  const out: AnalyzedGroup[] = [];
  for (let k = 0; k < job.index.groupIds.length; k++) {
    const id = job.index.groupIds[k]!;
    const { group, issues } = await readIndexedGroup(state, id);
    const annotation = context.annotations.get(id);
    out.push({
      tally: parsedGroupTally({ groupId: id, group, issues }),
      streamed:
        group === null
          ? null
          : analyzeGroupForStream(group, context.settings, annotation, k < job.full),
    });
  }
  return out;
}

const port = parentPort;
if (port !== null) {
  const post = (reply: AnalyzeThreadReply): void => port.postMessage(reply);
  let context: Promise<Context> | null = null;
  // Jobs run one after another, in the order they came.
  let queue = Promise.resolve();
  port.on("message", (request: AnalyzeThreadRequest) => {
    if (request.kind === "setup") {
      context = nodeFileSource(request.path, request.name, request.size).then((file) => ({
        file,
        settings: request.settings,
        annotations: new Map(request.annotations),
      }));
      return;
    }
    const ready = context;
    queue = queue.then(async () => {
      try {
        if (ready === null) throw new Error("a job came before the setup");
        post({ kind: "done", job: request.job, groups: await run(await ready, request) });
      } catch (e) {
        post({
          kind: "error",
          job: request.job,
          message: e instanceof Error ? e.message : String(e),
        });
      }
    });
  });
  post({ kind: "ready" });
}
