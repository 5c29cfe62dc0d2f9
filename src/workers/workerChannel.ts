/**
 * One typed request/reply channel to a worker, shared by the load, compute and verifier clients:
 * request ids, replies routed to their request's listener until its last one, transfer lists, a
 * crashed worker failing what it held (the next request starts a new one), a spare started ahead
 * of need, and `null` where no Worker can start (jsdom, a browser that refuses them), so the
 * caller runs its main-thread fallback.
 *
 * Requests and replies carry a `requestId`; replies are told apart by their `kind` tag, never by
 * the shape of what they hold.
 */

/** What every message of a channel carries. */
export interface Routed {
  readonly requestId: number;
}

/** Why a request ended without its last reply. */
export type StopReason = "crashed" | "terminated";

/** The replies of one request in flight. */
export interface ChannelListener<Reply> {
  /** A reply to the request; return true when it is the last one (the listener is then dropped). */
  reply(reply: Reply): boolean;
  /**
   * The worker stopped before the last reply: it crashed (`detail` is the error event's message),
   * or the client terminated it (a fresh worker for the next load, a cancelled verifier run;
   * `detail` is what `terminate` was given).
   */
  stopped(reason: StopReason, detail: string): void;
}

export class WorkerChannel<Request extends Routed, Reply extends Routed> {
  private worker: Worker | null = null;
  private spare: Worker | null = null;
  private failed = false;
  private nextId = 1;
  private readonly listeners = new Map<number, ChannelListener<Reply>>();
  private readonly start: () => Worker;

  /**
   * @param start starts the worker. Each client writes its own `new Worker(new URL("./x.worker.ts",
   *   import.meta.url), { type: "module" })`, the form the bundler finds.
   */
  constructor(start: () => Worker) {
    this.start = start;
  }

  /** False once no worker can start: the caller runs its work on the main thread. */
  get available(): boolean {
    return !this.failed && typeof Worker !== "undefined";
  }

  /** Requests sent and not yet answered in full. */
  get pending(): number {
    return this.listeners.size;
  }

  /** Whether a worker is running (not counting the spare). */
  get running(): boolean {
    return this.worker !== null;
  }

  /** A new request id, unique on this channel (fallback runs use them too). */
  nextRequestId(): number {
    return this.nextId++;
  }

  /** The running worker, started (or taken from the spare) if there is none; null without Workers. */
  current(): Worker | null {
    if (this.worker !== null) return this.worker;
    return (this.worker = this.spare !== null ? this.takeSpare() : this.startWorker());
  }

  /**
   * A worker that has done nothing yet: the running one is terminated (its requests are told
   * "terminated"), then the spare or a new one takes its place. Null without Workers.
   */
  fresh(): Worker | null {
    this.terminate();
    return this.current();
  }

  /** Start a spare worker ahead of the next `current` or `fresh`, when there is none. */
  prestart(): void {
    if (this.spare !== null || !this.available) return;
    this.spare = this.startWorker();
  }

  /**
   * Send a request to the running worker (started if needed). Its replies go to `listener` until
   * it returns true. Returns false, sending nothing, when no worker can start.
   */
  send(
    request: Request,
    listener: ChannelListener<Reply>,
    transfer: readonly Transferable[] = [],
  ): boolean {
    const w = this.current();
    if (w === null) return false;
    this.listeners.set(request.requestId, listener);
    w.postMessage(request, [...transfer]);
    return true;
  }

  /** Stop routing a request's replies (its caller has given up on it). */
  forget(requestId: number): void {
    this.listeners.delete(requestId);
  }

  /** Terminate the running worker; every request in flight is told "terminated". */
  terminate(detail = "terminated"): void {
    const w = this.worker;
    this.worker = null;
    w?.terminate();
    this.stopAll("terminated", detail);
  }

  private stopAll(reason: StopReason, detail: string): void {
    const stopped = [...this.listeners.values()];
    this.listeners.clear();
    for (const listener of stopped) listener.stopped(reason, detail);
  }

  private takeSpare(): Worker {
    const w = this.spare!;
    this.spare = null;
    return w;
  }

  private startWorker(): Worker | null {
    if (!this.available) return null;
    let w: Worker;
    try {
      w = this.start();
    } catch {
      this.failed = true;
      return null;
    }
    w.onmessage = (event: MessageEvent<Reply>) => {
      if (w !== this.worker) return;
      const reply = event.data;
      const listener = this.listeners.get(reply.requestId);
      if (listener === undefined) return;
      if (listener.reply(reply) && this.listeners.get(reply.requestId) === listener)
        this.listeners.delete(reply.requestId);
    };
    w.onerror = (event: ErrorEvent) => {
      w.terminate();
      if (w === this.spare) {
        // The spare failed before any request used it: the next one starts its own.
        this.spare = null;
        return;
      }
      if (w !== this.worker) return;
      this.worker = null;
      this.stopAll("crashed", event.message);
    };
    return w;
  }
}
