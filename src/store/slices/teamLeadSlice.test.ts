import { beforeEach, describe, expect, it, vi } from "vitest";
import { ANNOTATIONS_EMPTY, GROUP_ANNOTATION_EMPTY } from "../../core/index.ts";
import type { TeamEvent } from "../../io/view/teamApi.ts";
import { createPlainStore } from "../createStore.ts";
import * as client from "../remote/teamClient.ts";
import type { ViewEventHandlers, ViewSession } from "../remote/viewSession.ts";
import { selectTeamMode } from "../team/teamSelectors.ts";

vi.mock("../remote/teamClient.ts", () => ({
  fetchTeamUsers: vi.fn(),
  fetchTeamQueues: vi.fn(),
  fetchTeamEveryone: vi.fn(),
  fetchTeamGold: vi.fn(),
  fetchTeamQueue: vi.fn(),
  fetchTeamProgress: vi.fn(),
  createTeamQueue: vi.fn(),
  writeTeamGold: vi.fn(),
}));

const subscribed: ViewEventHandlers[] = [];
const unsubscribe = vi.fn();
vi.mock("../remote/viewEvents.ts", () => ({
  subscribeViewEvents: (_session: ViewSession, handlers: ViewEventHandlers) => {
    subscribed.push(handlers);
    return unsubscribe;
  },
}));

const session: ViewSession = { origin: "http://127.0.0.1:1", token: "lee.secret-token" };
const queue = {
  name: "first",
  blind: true,
  overlap: 0.5,
  seed: 0,
  filter: {},
  createdBy: "lee",
  createdAt: "2026-12-04T05:00:00Z",
  groups: 2,
};
const gold = {
  user: "gold",
  version: "3",
  annotations: ANNOTATIONS_EMPTY,
  versions: { g1: "7" },
  submitted: {},
  resolvedBy: {},
};

function storeAs(role: "lead" | "annotator") {
  const store = createPlainStore();
  const listing = { team: { user: "lee", role, dataset: "run" } };
  // Only what the slice reads of a served run in team mode.
  store.setState({ load: { status: "ready", remote: { session, listing, run: 0 } } as never });
  return store;
}

beforeEach(() => {
  vi.clearAllMocks();
  subscribed.length = 0;
  vi.mocked(client.fetchTeamUsers).mockResolvedValue([]);
  vi.mocked(client.fetchTeamQueues).mockResolvedValue([queue]);
  vi.mocked(client.fetchTeamEveryone).mockResolvedValue([]);
  vi.mocked(client.fetchTeamGold).mockResolvedValue(gold);
  vi.mocked(client.fetchTeamQueue).mockResolvedValue({
    queue,
    items: [{ groupId: "g1", position: 0, assignees: ["ann", "bob"] }],
  });
  vi.mocked(client.fetchTeamProgress).mockResolvedValue([
    { user: "ann", assigned: 1, annotated: 1, submitted: 0 },
  ]);
});

const event: TeamEvent = { kind: "submit", user: "ann", groupId: "g1" };

describe("teamLeadSlice", () => {
  it("an annotator's page reads nothing of the lead's", () => {
    const store = storeAs("annotator");
    expect(selectTeamMode(store.getState())?.team.role).toBe("annotator");
    store.getState().teamLeadFollow()();
    expect(subscribed).toHaveLength(0);
    expect(client.fetchTeamEveryone).not.toHaveBeenCalled();
  });

  it("a lead reads the team, then again on every team event", async () => {
    const store = storeAs("lead");
    const stop = store.getState().teamLeadFollow();
    await vi.waitFor(() => expect(store.getState().teamLead.reads).toBe(1));
    expect(store.getState().teamLead).toMatchObject({
      status: "ready",
      data: {
        queues: [queue],
        items: { first: [{ groupId: "g1", assignees: ["ann", "bob"] }] },
        progress: { first: [{ user: "ann", submitted: 0 }] },
        gold,
      },
    });
    vi.mocked(client.fetchTeamProgress).mockResolvedValue([
      { user: "ann", assigned: 1, annotated: 1, submitted: 1 },
    ]);
    subscribed[0]!.team!(event);
    await vi.waitFor(() => expect(store.getState().teamLead.reads).toBe(2));
    expect(store.getState().teamLead.data.progress.first![0]!.submitted).toBe(1);
    stop();
    expect(unsubscribe).toHaveBeenCalledTimes(1);
  });

  it("events during a read make one more read, not one each", async () => {
    const store = storeAs("lead");
    store.getState().teamLeadFollow();
    subscribed[0]!.team!(event);
    subscribed[0]!.team!(event);
    subscribed[0]!.open!(null);
    await store.getState().teamLeadRefresh();
    expect(store.getState().teamLead.reads).toBe(2);
    expect(client.fetchTeamEveryone).toHaveBeenCalledTimes(2);
  });

  it("two views that follow share one subscription: one read per event", async () => {
    const store = storeAs("lead");
    const stopPanel = store.getState().teamLeadFollow();
    const stopCalibration = store.getState().teamLeadFollow();
    expect(subscribed).toHaveLength(1);
    await vi.waitFor(() => expect(store.getState().teamLead.reads).toBe(1));
    subscribed[0]!.team!(event);
    await vi.waitFor(() => expect(store.getState().teamLead.reads).toBe(2));
    await store.getState().teamLeadRefresh();
    expect(client.fetchTeamEveryone).toHaveBeenCalledTimes(3);
    stopPanel();
    stopPanel();
    expect(unsubscribe).not.toHaveBeenCalled();
    stopCalibration();
    expect(unsubscribe).toHaveBeenCalledTimes(1);
    store.getState().teamLeadFollow();
    expect(subscribed).toHaveLength(2);
  });

  it("a failed read says why and keeps what was read before", async () => {
    const store = storeAs("lead");
    await store.getState().teamLeadRefresh();
    vi.mocked(client.fetchTeamEveryone).mockRejectedValue(new Error("/api/team/everyone: 503"));
    await store.getState().teamLeadRefresh();
    expect(store.getState().teamLead).toMatchObject({
      status: "error",
      message: "/api/team/everyone: 503",
      data: { queues: [queue] },
    });
  });

  it("saves gold at the gold's version of the group, and reads again after a stale write", async () => {
    const store = storeAs("lead");
    await store.getState().teamLeadRefresh();
    const annotation = { ...GROUP_ANNOTATION_EMPTY, labels: { "g1/0": "pass" as const } };
    vi.mocked(client.writeTeamGold).mockResolvedValueOnce({ kind: "written", version: "8" });
    expect(await store.getState().teamLeadSaveGold("g1", annotation)).toEqual({ kind: "done" });
    expect(client.writeTeamGold).toHaveBeenCalledWith(session, "g1", annotation, "7");
    vi.mocked(client.writeTeamGold).mockResolvedValueOnce({
      kind: "stale",
      message: "g2 moved",
      current: { version: "2", annotation: null, submittedAt: null },
    });
    expect(await store.getState().teamLeadSaveGold("g2", null)).toEqual({
      kind: "stale",
      message: "g2 moved",
    });
    expect(client.writeTeamGold).toHaveBeenLastCalledWith(session, "g2", null, "0");
    expect(store.getState().teamLead.reads).toBe(3);
  });

  it("a refused queue is an error in words", async () => {
    const store = storeAs("lead");
    vi.mocked(client.createTeamQueue).mockRejectedValue(
      new Error('/api/team/queues: 400 Bad Request: a queue named "first" exists'),
    );
    const spec = {
      name: "first",
      blind: false,
      overlap: 0,
      seed: 0,
      filter: {},
      groups: ["g1"],
      assignments: [{ groupId: "g1", user: "ann" }],
    };
    expect(await store.getState().teamLeadCreateQueue(spec)).toEqual({
      kind: "error",
      message: '/api/team/queues: 400 Bad Request: a queue named "first" exists',
    });
  });
});
