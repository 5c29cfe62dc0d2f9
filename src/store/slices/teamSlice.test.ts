import { afterEach, describe, expect, it } from "vitest";
import { GROUP_ANNOTATION_EMPTY } from "../../core/index.ts";
import type { TeamQueueReply, TeamStateReply } from "../../io/view/teamApi.ts";
import { createPlainStore } from "../createStore.ts";
import type { ViewEventHandlers, ViewSession } from "../remote/viewSession.ts";
import { startTeamFollow } from "../team/teamFollow.ts";
import { configureTeam, type TeamClient } from "./teamSlice.ts";

const session: ViewSession = { origin: "http://127.0.0.1:7575", token: "abcdefgh.ijklmnop" };

const queue = (name: string, blind: boolean, groups: number): TeamQueueReply => ({
  name,
  blind,
  overlap: 0,
  seed: 1,
  filter: null,
  createdBy: "lead",
  createdAt: "2026-12-04T05:00:00Z",
  groups,
});

/** The server as the slice sees it: a caller's state and queues, changed by the test. */
function standIn() {
  const server = {
    state: {
      user: "ann",
      role: "annotator",
      dataset: "run-7",
      versions: {},
      submitted: {},
      blind: ["g1", "g2"],
    } as TeamStateReply,
    queues: [queue("first", true, 2)],
    calls: [] as string[],
    submitFails: null as string | null,
  };
  const client: TeamClient = {
    fetchTeamState: (s) => {
      expect(s).toBe(session);
      server.calls.push("state");
      return Promise.resolve(server.state);
    },
    fetchTeamQueues: () => {
      server.calls.push("queues");
      return Promise.resolve(server.queues);
    },
    fetchTeamProgress: (_s, name) => {
      server.calls.push(`progress ${name}`);
      const submitted = Object.keys(server.state.submitted).length;
      return Promise.resolve([{ user: "ann", assigned: 2, annotated: submitted, submitted }]);
    },
    fetchTeamQueue: (_s, name) => {
      server.calls.push(`queue ${name}`);
      const q = server.queues.find((x) => x.name === name);
      if (q === undefined) return Promise.reject(new Error(`no queue ${name}`));
      return Promise.resolve({
        queue: q,
        items: ["g1", "g2"].map((groupId, position) => ({
          groupId,
          position,
          assignees: ["ann"],
        })),
      });
    },
    submitTeamGroup: (_s, groupId) => {
      server.calls.push(`submit ${groupId}`);
      if (server.submitFails !== null) return Promise.reject(new Error(server.submitFails));
      const submittedAt = "2026-12-04T06:00:00Z";
      server.state = {
        ...server.state,
        submitted: { ...server.state.submitted, [groupId]: submittedAt },
      };
      return Promise.resolve({ version: "3", annotation: null, submittedAt });
    },
  };
  return { server, client };
}

/** A store whose load is a served run in team mode (only what the team slice reads). */
function teamStore(role: "annotator" | "lead" = "annotator") {
  const store = createPlainStore();
  const setTeamLoad = (user: string): void =>
    store.setState({
      load: {
        status: "ready",
        remote: { session, listing: { team: { user, role, dataset: "run-7" } }, run: 0 },
      } as never,
    });
  return { store, setTeamLoad };
}

/** The event stream's stand-in: the handlers the follow subscribed, to fire by hand. */
function events() {
  const subscribed: ViewEventHandlers[] = [];
  const subscribe = (_s: ViewSession, h: ViewEventHandlers) => {
    subscribed.push(h);
    return () => {
      subscribed.splice(subscribed.indexOf(h), 1);
    };
  };
  return { subscribed, subscribe };
}

const settle = () => new Promise((r) => setTimeout(r, 0));

let restore: (() => void) | null = null;
afterEach(() => {
  restore?.();
  restore = null;
});

describe("team slice", () => {
  it("reads the state, the queues with their progress and follows team events", async () => {
    const { server, client } = standIn();
    restore = configureTeam({ client: () => Promise.resolve(client) });
    const { store, setTeamLoad } = teamStore();
    const ev = events();
    const stop = startTeamFollow(store, ev.subscribe);
    expect(ev.subscribed).toHaveLength(0);
    setTeamLoad("ann");
    await store.getState().refreshTeam();
    expect(ev.subscribed).toHaveLength(1);
    expect(store.getState().teamState?.blind).toEqual(["g1", "g2"]);
    expect(store.getState().teamQueues?.[0]?.progress?.[0]).toMatchObject({ submitted: 0 });
    server.queues = [queue("first", true, 2), queue("second", false, 5)];
    ev.subscribed[0]!.team?.({ kind: "queue", user: "lead", groupId: null });
    await store.getState().refreshTeam();
    expect(store.getState().teamQueues?.map((q) => q.queue.name)).toEqual(["first", "second"]);
    // A (re)connect reads again: anything may have changed while the stream was down.
    const before = server.calls.filter((c) => c === "state").length;
    ev.subscribed[0]!.open?.(null);
    await store.getState().refreshTeam();
    expect(server.calls.filter((c) => c === "state").length).toBeGreaterThan(before);
    // A live-follow update of the same run keeps the state and the one subscription.
    const kept = store.getState().teamState;
    setTeamLoad("ann");
    expect(store.getState().teamState).toBe(kept);
    expect(ev.subscribed).toHaveLength(1);
    // Leaving team mode forgets it and stops listening.
    store.setState({ load: { status: "idle" } });
    expect(store.getState().teamState).toBeNull();
    expect(ev.subscribed).toHaveLength(0);
    stop();
  });

  it("reads once more, not once per call, when events come during a read", async () => {
    const { server, client } = standIn();
    restore = configureTeam({ client: () => Promise.resolve(client) });
    const { store, setTeamLoad } = teamStore();
    setTeamLoad("ann");
    const first = store.getState().refreshTeam();
    const second = store.getState().refreshTeam();
    const third = store.getState().refreshTeam();
    await Promise.all([first, second, third]);
    expect(server.calls.filter((c) => c === "state")).toHaveLength(2);
  });

  it("opens a queue with its items and keeps it open across reads", async () => {
    const { client } = standIn();
    restore = configureTeam({ client: () => Promise.resolve(client) });
    const { store, setTeamLoad } = teamStore();
    setTeamLoad("ann");
    await store.getState().openTeamQueue("first");
    expect(store.getState().teamOpenQueue?.view?.items.map((i) => i.groupId)).toEqual(["g1", "g2"]);
    await store.getState().refreshTeam();
    expect(store.getState().teamOpenQueue?.name).toBe("first");
    await store.getState().openTeamQueue("nope");
    expect(store.getState().teamOpenQueue).toMatchObject({ name: "nope", view: null });
    expect(store.getState().teamOpenQueue?.error).toContain("no queue nope");
    await store.getState().openTeamQueue(null);
    expect(store.getState().teamOpenQueue).toBeNull();
  });

  it("submits after the pending save has landed, then shows the group's rewards", async () => {
    const { server, client } = standIn();
    const order: string[] = [];
    restore = configureTeam({
      client: () => Promise.resolve(client),
      flushAnnotations: async () => {
        await settle();
        order.push("flushed");
      },
    });
    const { store, setTeamLoad } = teamStore();
    setTeamLoad("ann");
    await store.getState().refreshTeam();
    // Nothing annotated: refused here, the server is not asked.
    expect(await store.getState().submitTeamGroup("g1")).toBe(false);
    expect(store.getState().teamSubmits.g1).toMatchObject({ status: "error" });
    expect(server.calls).not.toContain("submit g1");
    store.getState().setLabel("g1", "r1", "pass");
    const submitting = store.getState().submitTeamGroup("g1");
    expect(store.getState().teamSubmits.g1).toEqual({ status: "submitting" });
    server.calls.length = 0;
    expect(await submitting).toBe(true);
    order.push(...server.calls.filter((c) => c.startsWith("submit")));
    expect(order).toEqual(["flushed", "submit g1"]);
    expect(store.getState().teamState?.submitted.g1).toBe("2026-12-04T06:00:00Z");
    expect(store.getState().teamSubmits.g1).toBeUndefined();
    await store.getState().refreshTeam();
    expect(store.getState().teamQueues?.[0]?.progress?.[0]).toMatchObject({ submitted: 1 });
  });

  it("does not submit when the save failed, and says why", async () => {
    const { server, client } = standIn();
    restore = configureTeam({
      client: () => Promise.resolve(client),
      saveProblem: () => "the server is down",
    });
    const { store, setTeamLoad } = teamStore();
    setTeamLoad("ann");
    await store.getState().refreshTeam();
    store.setState({
      annotations: {
        ...store.getState().annotations,
        groups: { g1: { ...GROUP_ANNOTATION_EMPTY, notes: "x" } },
      },
    });
    expect(await store.getState().submitTeamGroup("g1")).toBe(false);
    expect(server.calls).not.toContain("submit g1");
    const failed = store.getState().teamSubmits.g1;
    expect(failed?.status === "error" ? failed.message : "").toContain("the server is down");
    restore();
    restore = configureTeam({ client: () => Promise.resolve(client) });
    server.submitFails = "/api/team/groups/g1/submit: 400 nothing to submit";
    expect(await store.getState().submitTeamGroup("g1")).toBe(false);
    const refused = store.getState().teamSubmits.g1;
    expect(refused?.status === "error" ? refused.message : "").toContain("nothing to submit");
  });

  it("drops a reply read for another person, and says a failed read", async () => {
    const { server, client } = standIn();
    let release: () => void = () => undefined;
    const gate = new Promise<void>((r) => {
      release = r;
    });
    restore = configureTeam({
      client: () =>
        Promise.resolve({
          ...client,
          fetchTeamState: async (s) => {
            await gate;
            return client.fetchTeamState(s);
          },
        }),
    });
    const { store, setTeamLoad } = teamStore();
    setTeamLoad("ann");
    const read = store.getState().refreshTeam();
    setTeamLoad("bob");
    release();
    await read;
    // Ann's reply came after the page became Bob's: dropped, not shown as Bob's.
    expect(store.getState().teamState).toBeNull();
    restore();
    restore = configureTeam({
      client: () =>
        Promise.resolve({ ...client, fetchTeamQueues: () => Promise.reject(new Error("503")) }),
    });
    await store.getState().refreshTeam();
    expect(store.getState().teamError).toBe("503");
    expect(server.calls).toContain("state");
  });
});
