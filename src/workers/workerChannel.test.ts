/**
 * WorkerChannel against a scripted stand-in for `Worker`: replies reach their own request until
 * its last one, a crash fails what was in flight and the next request starts a new worker, a
 * fresh worker cancels the old one's requests, the spare is used once, and without Workers the
 * caller is told to run its fallback.
 */
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { WorkerChannel, type ChannelListener, type StopReason } from "./workerChannel.ts";

interface Message {
  readonly kind: string;
  readonly requestId: number;
  readonly value?: number;
}

/** A worker whose replies the test sends by hand (`answer`) and that can crash (`crash`). */
class ScriptedWorker {
  static started: ScriptedWorker[] = [];
  onmessage: ((event: MessageEvent<Message>) => void) | null = null;
  onerror: ((event: ErrorEvent) => void) | null = null;
  readonly received: { message: Message; transfer: readonly Transferable[] }[] = [];
  terminated = false;
  constructor() {
    ScriptedWorker.started.push(this);
  }
  postMessage(message: Message, transfer: Transferable[] = []): void {
    this.received.push({ message, transfer });
  }
  terminate(): void {
    this.terminated = true;
  }
  answer(reply: Message): void {
    this.onmessage?.({ data: reply } as MessageEvent<Message>);
  }
  crash(message: string): void {
    this.onerror?.({ message } as ErrorEvent);
  }
}

/** A listener that records what it was told; `last` says which reply kind ends the request. */
function recorder(last = "done"): {
  listener: ChannelListener<Message>;
  replies: Message[];
  stops: [StopReason, string][];
} {
  const replies: Message[] = [];
  const stops: [StopReason, string][] = [];
  return {
    replies,
    stops,
    listener: {
      reply: (r) => {
        replies.push(r);
        return r.kind === last;
      },
      stopped: (reason, detail) => stops.push([reason, detail]),
    },
  };
}

const start = () => new ScriptedWorker() as unknown as Worker;

beforeEach(() => {
  ScriptedWorker.started = [];
  vi.stubGlobal("Worker", ScriptedWorker);
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe("WorkerChannel", () => {
  test("routes each reply to its own request, until that request's last reply", () => {
    const channel = new WorkerChannel<Message, Message>(start);
    const a = recorder();
    const b = recorder();
    const idA = channel.nextRequestId();
    const idB = channel.nextRequestId();
    expect(idB).not.toBe(idA);
    expect(channel.send({ kind: "go", requestId: idA }, a.listener)).toBe(true);
    expect(channel.send({ kind: "go", requestId: idB }, b.listener)).toBe(true);
    expect(ScriptedWorker.started).toHaveLength(1);
    const w = ScriptedWorker.started[0]!;
    expect(w.received.map((r) => r.message.requestId)).toEqual([idA, idB]);

    w.answer({ kind: "progress", requestId: idB, value: 1 });
    w.answer({ kind: "done", requestId: idA, value: 2 });
    w.answer({ kind: "done", requestId: idA, value: 3 }); // after its last reply: dropped
    w.answer({ kind: "done", requestId: 999 }); // no such request: dropped
    expect(a.replies.map((r) => r.value)).toEqual([2]);
    expect(b.replies.map((r) => r.value)).toEqual([1]);
    expect(channel.pending).toBe(1);
    w.answer({ kind: "done", requestId: idB, value: 4 });
    expect(b.replies.map((r) => r.value)).toEqual([1, 4]);
    expect(channel.pending).toBe(0);
  });

  test("passes the transfer list with the request", () => {
    const channel = new WorkerChannel<Message, Message>(start);
    const buffer = new ArrayBuffer(8);
    channel.send({ kind: "go", requestId: 1 }, recorder().listener, [buffer]);
    expect(ScriptedWorker.started[0]!.received[0]!.transfer).toEqual([buffer]);
  });

  test("a crash fails every request in flight, and the next request starts a new worker", () => {
    const channel = new WorkerChannel<Message, Message>(start);
    const a = recorder();
    const b = recorder();
    channel.send({ kind: "go", requestId: 1 }, a.listener);
    channel.send({ kind: "go", requestId: 2 }, b.listener);
    const first = ScriptedWorker.started[0]!;
    first.crash("out of memory");
    expect(a.stops).toEqual([["crashed", "out of memory"]]);
    expect(b.stops).toEqual([["crashed", "out of memory"]]);
    expect(first.terminated).toBe(true);
    expect(channel.running).toBe(false);
    expect(channel.pending).toBe(0);

    const c = recorder();
    channel.send({ kind: "go", requestId: 3 }, c.listener);
    expect(ScriptedWorker.started).toHaveLength(2);
    first.answer({ kind: "done", requestId: 3 }); // the dead worker is not heard
    expect(c.replies).toEqual([]);
    ScriptedWorker.started[1]!.answer({ kind: "done", requestId: 3 });
    expect(c.replies).toHaveLength(1);
    expect(a.replies).toEqual([]);
  });

  test("a fresh worker terminates the old one and tells its requests so", () => {
    const channel = new WorkerChannel<Message, Message>(start);
    const a = recorder();
    channel.send({ kind: "go", requestId: 1 }, a.listener);
    const old = ScriptedWorker.started[0]!;
    const next = channel.fresh();
    expect(old.terminated).toBe(true);
    expect(a.stops).toEqual([["terminated", "terminated"]]);
    expect(next).toBe(ScriptedWorker.started[1]);
    expect(channel.current()).toBe(next);
  });

  test("the spare is started ahead, taken once, and a spare that fails is dropped", () => {
    const channel = new WorkerChannel<Message, Message>(start);
    channel.prestart();
    channel.prestart();
    expect(ScriptedWorker.started).toHaveLength(1);
    const spare = ScriptedWorker.started[0]!;
    expect(channel.running).toBe(false);
    expect(channel.fresh()).toBe(spare);
    expect(channel.fresh()).toBe(ScriptedWorker.started[1]);

    channel.prestart();
    const failing = ScriptedWorker.started[2]!;
    failing.crash("could not load the script");
    expect(failing.terminated).toBe(true);
    expect(channel.fresh()).toBe(ScriptedWorker.started[3]);
  });

  test("forget stops routing; terminate with nothing in flight is harmless", () => {
    const channel = new WorkerChannel<Message, Message>(start);
    const a = recorder();
    channel.send({ kind: "go", requestId: 1 }, a.listener);
    channel.forget(1);
    ScriptedWorker.started[0]!.answer({ kind: "done", requestId: 1 });
    channel.terminate("stopped by the test");
    expect(a.replies).toEqual([]);
    expect(a.stops).toEqual([]);
    channel.terminate();
  });

  test("without Workers nothing is sent, and the caller runs its fallback", () => {
    vi.unstubAllGlobals();
    vi.stubGlobal("Worker", undefined);
    const channel = new WorkerChannel<Message, Message>(start);
    expect(channel.available).toBe(false);
    expect(channel.send({ kind: "go", requestId: 1 }, recorder().listener)).toBe(false);
    expect(channel.current()).toBeNull();
  });

  test("a Worker that cannot start makes the channel unavailable for good", () => {
    let tries = 0;
    const channel = new WorkerChannel<Message, Message>(() => {
      tries++;
      throw new Error("workers are refused here");
    });
    expect(channel.send({ kind: "go", requestId: 1 }, recorder().listener)).toBe(false);
    expect(channel.available).toBe(false);
    expect(channel.fresh()).toBeNull();
    channel.prestart();
    expect(tries).toBe(1);
  });
});
