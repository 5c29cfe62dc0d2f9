import { describe, expect, it } from "vitest";

import { yieldTask } from "./yieldTask.ts";

describe("yieldTask", () => {
  it("resolves every yield, in the order asked, each after the task that asked", async () => {
    const order: number[] = [];
    let sync = true;
    const all = Array.from({ length: 500 }, (_, i) =>
      yieldTask().then(() => {
        expect(sync).toBe(false);
        order.push(i);
      }),
    );
    sync = false;
    await Promise.all(all);
    expect(order).toEqual(Array.from({ length: 500 }, (_, i) => i));
  });

  it("lets a timer that is due run between two yields (a macrotask, not a microtask)", async () => {
    let fired = false;
    setTimeout(() => (fired = true), 0);
    // Microtasks would starve the timer for the whole 500 ms; macrotasks let it run.
    const until = Date.now() + 500;
    while (!fired && Date.now() < until) await yieldTask();
    expect(fired).toBe(true);
  });
});
