/// <reference lib="webworker" />
/**
 * An index worker: started by the load worker (browserIndexPool.ts) to index whole files of a large
 * run, several at once; each file's index goes back as transferable typed arrays.
 */
import { indexThread, type IndexRequest } from "./indexPool.ts";

declare const self: DedicatedWorkerGlobalScope;

const handle = indexThread(
  (file) => file as File,
  (reply, transfer) => self.postMessage(reply, transfer),
);

self.onmessage = (event: MessageEvent<IndexRequest>) => handle(event.data);
