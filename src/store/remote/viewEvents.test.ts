import { describe, expect, it } from "vitest";
import { subscribeViewEvents, viewEventStreams } from "./viewEvents.ts";
import type { ViewEventHandlers, ViewSession } from "./viewSession.ts";

const session: ViewSession = { origin: "http://127.0.0.1:7575", token: "token-0123456789" };

/** A stand-in for openViewEvents: counts the streams opened and closed, and can send events. */
function opener() {
  const opened: ViewEventHandlers[] = [];
  let closed = 0;
  const open = (_: ViewSession, handlers: ViewEventHandlers) => {
    opened.push(handlers);
    return () => void closed++;
  };
  return { open, opened, closed: () => closed };
}

describe("subscribeViewEvents", () => {
  it("shares one stream between the page's subscribers, and closes it with the last", () => {
    const o = opener();
    const seen: string[] = [];
    const a = subscribeViewEvents(session, { annotations: (v) => seen.push(`a:${v}`) }, o.open);
    const b = subscribeViewEvents(session, { annotations: (v) => seen.push(`b:${v}`) }, o.open);
    expect(o.opened).toHaveLength(1);
    o.opened[0]!.annotations?.("v1");
    expect(seen).toEqual(["a:v1", "b:v1"]);
    a();
    a(); // twice is once
    expect(o.closed()).toBe(0);
    o.opened[0]!.annotations?.("v2");
    expect(seen).toEqual(["a:v1", "b:v1", "b:v2"]);
    b();
    expect(o.closed()).toBe(1);
    expect(viewEventStreams()).toBe(0);
  });

  it("opens a stream per session, and a new one after the last closed", () => {
    const o = opener();
    const other: ViewSession = { ...session, origin: "http://127.0.0.1:7576" };
    const a = subscribeViewEvents(session, {}, o.open);
    const b = subscribeViewEvents(other, {}, o.open);
    expect(o.opened).toHaveLength(2);
    a();
    b();
    subscribeViewEvents(session, {}, o.open)();
    expect(o.opened).toHaveLength(3);
    expect(o.closed()).toBe(3);
  });
});
