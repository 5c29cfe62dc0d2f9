/**
 * The index pool in Node: worker_threads running nodeIndexThread.ts, the same indexing as the
 * browser's nested workers (indexPool.ts). For the bench and tests; from TypeScript sources (tsx,
 * vitest) each thread loads its entry through tsx.
 */
import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";

import type { ByteSource } from "../io/index.ts";
import { indexPoolSize } from "./browserIndexPool.ts";
import { portIndexPool, type IndexPool, type IndexPort, type IndexReply } from "./indexPool.ts";
import type { NodeFileRef } from "./nodeIndexThread.ts";

function startThread(): Worker {
  const entry = new URL("./nodeIndexThread.ts", import.meta.url).href;
  // worker_threads cannot load TypeScript by itself: tsx's API imports the entry in the thread.
  return new Worker(
    `import("tsx/esm/api").then(({ tsImport }) => tsImport(${JSON.stringify(entry)}, ${JSON.stringify(entry)}))`,
    { eval: true },
  );
}

export interface NodeIndexPoolOptions {
  /** Threads (default: one per core, up to four). */
  readonly size?: number;
  /** A file's path on disk, when it has one: the thread opens it (else the Blob is posted). */
  readonly pathOf?: (file: ByteSource) => string | undefined;
}

export interface NodeIndexPool extends IndexPool {
  /**
   * Settles when every thread has loaded its modules (from TypeScript through tsx: about 0.4 s
   * idle, seconds under load), so a bench can time indexing alone. Jobs posted before wait.
   */
  readonly ready: Promise<void>;
}

export function nodeIndexPool(options: NodeIndexPoolOptions = {}): NodeIndexPool {
  const size = options.size ?? indexPoolSize(availableParallelism());
  const started: Promise<void>[] = [];
  const ports: IndexPort[] = Array.from({ length: size }, () => {
    const thread = startThread();
    started.push(
      new Promise<void>((resolve) => {
        const onReady = (message: { kind?: unknown }): void => {
          if (message.kind !== "ready") return;
          thread.off("message", onReady);
          resolve();
        };
        thread.on("message", onReady);
        // A thread that fails to start fails its jobs instead (portIndexPool).
        thread.once("error", () => resolve());
        thread.once("exit", () => resolve());
      }),
    );
    return {
      post: (request) => thread.postMessage(request),
      listen: (onReply, onError) => {
        thread.on("message", (reply: IndexReply | { kind: "ready" }) => {
          if (reply.kind !== "ready") onReply(reply);
        });
        thread.on("error", (e: Error) => onError(e.message));
      },
      terminate: () => {
        thread.terminate().catch(() => undefined);
      },
    };
  });
  const pool = portIndexPool(ports, (file) => {
    const path = options.pathOf?.(file);
    return path === undefined ? file : ({ path, size: file.size } satisfies NodeFileRef);
  });
  return {
    size: pool.size,
    index: (job, callbacks) => pool.index(job, callbacks),
    close: () => pool.close(),
    ready: Promise.all(started).then(() => undefined),
  };
}
