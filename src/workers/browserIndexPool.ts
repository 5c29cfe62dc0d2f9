/**
 * The load worker's index pool in the browser: dedicated Workers nested in the load worker, one
 * per core up to four (the main thread and the load worker mostly wait while they index).
 */
import { portIndexPool, type IndexPool, type IndexPort, type IndexReply } from "./indexPool.ts";

/** Most index workers a run uses, whatever the core count (each holds a file's index at a time). */
export const MAX_INDEX_WORKERS = 4;

/** How many files to index at once on a machine with `cores` logical cores: 1 means in-thread. */
export function indexPoolSize(cores: number | undefined): number {
  return Math.max(1, Math.min(MAX_INDEX_WORKERS, Math.floor(cores ?? 1)));
}

/** A pool of nested index workers, or null where none can start (the caller indexes in-thread). */
export function browserIndexPool(): IndexPool | null {
  if (typeof Worker === "undefined") return null;
  const size = indexPoolSize(typeof navigator === "undefined" ? 1 : navigator.hardwareConcurrency);
  if (size < 2) return null;
  const ports: IndexPort[] = [];
  try {
    for (let k = 0; k < size; k++) {
      const worker = new Worker(new URL("./index.worker.ts", import.meta.url), { type: "module" });
      ports.push({
        post: (request) => worker.postMessage(request),
        listen: (onReply, onError) => {
          worker.onmessage = (event: MessageEvent<IndexReply>) => onReply(event.data);
          worker.onerror = (event) => {
            event.preventDefault();
            onError(event.message || "the index worker did not start");
          };
        },
        terminate: () => worker.terminate(),
      });
    }
  } catch {
    for (const port of ports) port.terminate();
    return null;
  }
  return portIndexPool(ports);
}
