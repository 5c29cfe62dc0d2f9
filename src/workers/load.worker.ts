/// <reference lib="webworker" />
/**
 * The load worker: reads the chosen file off the main thread with the same loaders as the CLI, and
 * keeps an indexed file's index to parse its groups on demand. A thin switch over the protocol.
 */

import {
  readWorkerGroup,
  remoteCacheEmpty,
  runLoad,
  runLoadRemote,
  runLoadRun,
  type RemoteCache,
  type WorkerIndex,
} from "./loadFile.ts";
import { packedSummariesTransfer, packSummaries } from "../io/packedSummaries.ts";
import { browserIndexPool } from "./browserIndexPool.ts";
import type { IndexPool } from "./indexPool.ts";
import type { LoadReply, LoadRequest } from "./protocol.ts";

declare const self: DedicatedWorkerGlobalScope;

const cancelled = new Set<number>();
let indexed: WorkerIndex | null = null;
/**
 * The nested index workers a large run is indexed with, started at the first such run (undefined:
 * not tried yet; null: none could start, so runs are indexed in this worker).
 */
let indexPool: IndexPool | null | undefined;
/** A remote run's files as last read, so a change reads only what changed. */
const remoteCache: RemoteCache = remoteCacheEmpty();

/** From this many groups a "done" reply's summaries travel packed (io's packedSummaries.ts). */
const PACK_FROM = 2000;

function post(reply: LoadReply): void {
  if (reply.kind === "done" && reply.dataset.summaries.length >= PACK_FROM) {
    const packed = packSummaries(reply.dataset.summaries);
    self.postMessage(
      { ...reply, dataset: { ...reply.dataset, summaries: [] }, packedSummaries: packed },
      packedSummariesTransfer(packed),
    );
    return;
  }
  self.postMessage(reply);
}

async function handle(request: LoadRequest): Promise<void> {
  switch (request.kind) {
    case "cancel":
      cancelled.add(request.requestId);
      return;
    case "load": {
      indexed = null;
      const state = await runLoad(request, post, () => cancelled.has(request.requestId));
      cancelled.delete(request.requestId);
      indexed = state;
      return;
    }
    case "load-remote": {
      const state = await runLoadRemote(
        request,
        post,
        () => cancelled.has(request.requestId),
        remoteCache,
      );
      cancelled.delete(request.requestId);
      // A failed re-read keeps the index the dataset on screen was read with.
      if (state !== null || request.files.length !== 1) indexed = state;
      return;
    }
    case "load-run": {
      indexed = null;
      indexed = await runLoadRun(
        request,
        post,
        () => cancelled.has(request.requestId),
        () => (indexPool === undefined ? (indexPool = browserIndexPool()) : indexPool),
      );
      cancelled.delete(request.requestId);
      return;
    }
    case "group": {
      if (indexed === null) {
        post({
          kind: "group",
          requestId: request.requestId,
          groupId: request.groupId,
          group: null,
          issues: [],
        });
        return;
      }
      const { group, issues } = await readWorkerGroup(indexed, request.groupId);
      post({
        kind: "group",
        requestId: request.requestId,
        groupId: request.groupId,
        group,
        issues,
      });
      return;
    }
  }
}

self.onmessage = (event: MessageEvent<LoadRequest>) => {
  const request = event.data;
  handle(request).catch((e: unknown) => {
    post({
      kind: "error",
      requestId: request.requestId,
      message: `the loader failed: ${e instanceof Error ? e.message : String(e)}`,
    });
  });
};
