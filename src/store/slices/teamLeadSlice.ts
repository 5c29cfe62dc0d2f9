/**
 * The lead's side of team mode (issue 18, `view RUN --db URL` opened with a lead's token): what
 * the lead reads of the team (people, queues with their items and progress, everyone's
 * annotations, the gold) and what the lead writes (a new queue, a group's gold). It is read again
 * on every `team` event of the page's event stream (`teamLeadFollow`), so the agreement computed
 * from it is live. Nothing here is derived: the agreement, the disagreements and the gold
 * suggestions are core's functions of this data, computed on render (store/teamLead.ts).
 *
 * Never persisted: the server is the record; a reload reads it again.
 */
import type { StateCreator } from "zustand";
import type { GroupAnnotation, GroupId } from "../../core/index.ts";
import type {
  TeamProgressRow,
  TeamQueueReply,
  TeamQueueSpecBody,
  TeamQueueViewReply,
  TeamUserReply,
} from "../../io/view/teamApi.ts";
import type { Store } from "../createStore.ts";
import type { TeamGold, TeamPerson } from "../remote/teamClient.ts";
import { subscribeViewEvents } from "../remote/viewEvents.ts";
import type { ViewSession } from "../remote/viewSession.ts";
import { selectTeamMode } from "../team/teamSelectors.ts";

/** What the lead has read of the team. */
export interface TeamLeadData {
  readonly users: readonly TeamUserReply[];
  readonly queues: readonly TeamQueueReply[];
  /** Per queue name: its items in queue order, with their assignees. */
  readonly items: Readonly<Record<string, TeamQueueViewReply["items"]>>;
  /** Per queue name: each assignee's counts. */
  readonly progress: Readonly<Record<string, readonly TeamProgressRow[]>>;
  /** Everyone who wrote anything, their documents validated. */
  readonly people: readonly TeamPerson[];
  /** The gold document (null until read). */
  readonly gold: TeamGold | null;
}

export interface TeamLeadState {
  /** idle: never read (not a lead, or not yet); reading: the first read is under way. */
  readonly status: "idle" | "reading" | "ready" | "error";
  /** Why the last read failed (the data of the read before stays shown). */
  readonly message: string | null;
  readonly data: TeamLeadData;
  /** Completed reads: a test or a view can tell a fresh read from the one before. */
  readonly reads: number;
}

/** A write's outcome, as the lead's views show it. */
export type TeamLeadWrite =
  | { readonly kind: "done" }
  | { readonly kind: "stale"; readonly message: string }
  | { readonly kind: "error"; readonly message: string };

export interface TeamLeadSlice {
  readonly teamLead: TeamLeadState;
  /** Read everything again (coalesced: a read asked for during one runs once after it). */
  readonly teamLeadRefresh: () => Promise<void>;
  /**
   * Read on start and on every `team` event and reconnect; returns the function that stops.
   * Every view that follows (the Team panel, the Calibration panel's human sides) shares one
   * subscription, so an event makes one read, however many views follow.
   */
  readonly teamLeadFollow: () => () => void;
  /** `POST /api/team/queues`, then read again. */
  readonly teamLeadCreateQueue: (spec: TeamQueueSpecBody) => Promise<TeamLeadWrite>;
  /**
   * `PUT /api/team/gold/:groupId` at the gold's version of the group as last read. A stale write
   * (someone resolved the group meanwhile) writes nothing and reads the gold again; the caller
   * keeps its draft.
   */
  readonly teamLeadSaveGold: (
    groupId: GroupId,
    annotation: GroupAnnotation | null,
  ) => Promise<TeamLeadWrite>;
}

export const TEAM_LEAD_EMPTY: TeamLeadData = {
  users: [],
  queues: [],
  items: {},
  progress: {},
  people: [],
  gold: null,
};

const IDLE: TeamLeadState = { status: "idle", message: null, data: TEAM_LEAD_EMPTY, reads: 0 };

/** The lead's session, or null when the page is not a lead's. */
function leadSession(s: Store): ViewSession | null {
  const mode = selectTeamMode(s);
  return mode !== null && mode.team.role === "lead" ? mode.session : null;
}

const messageOf = (e: unknown): string => (e instanceof Error ? e.message : String(e));

/**
 * The team client, loaded on first use: it brings zod and the annotations parser, which the first
 * page of a studio that never serves a team must not load (as the team slice loads it).
 */
const teamClient = () => import("../remote/teamClient.ts");

/** Every route the lead's views read, in one go. */
export async function readTeamLead(session: ViewSession): Promise<TeamLeadData> {
  const {
    fetchTeamEveryone,
    fetchTeamGold,
    fetchTeamProgress,
    fetchTeamQueue,
    fetchTeamQueues,
    fetchTeamUsers,
  } = await teamClient();
  const [users, queues, people, gold] = await Promise.all([
    fetchTeamUsers(session),
    fetchTeamQueues(session),
    fetchTeamEveryone(session),
    fetchTeamGold(session),
  ]);
  const perQueue = await Promise.all(
    queues.map(async (q) => {
      const [view, progress] = await Promise.all([
        fetchTeamQueue(session, q.name),
        fetchTeamProgress(session, q.name),
      ]);
      return { name: q.name, items: view.items, progress };
    }),
  );
  return {
    users,
    queues,
    items: Object.fromEntries(perQueue.map((q) => [q.name, q.items])),
    progress: Object.fromEntries(perQueue.map((q) => [q.name, q.progress])),
    people,
    gold,
  };
}

export const createTeamLeadSlice: StateCreator<Store, [], [], TeamLeadSlice> = (set, get) => {
  let running: Promise<void> | null = null;
  let again = false;

  const readOnce = async (): Promise<void> => {
    const session = leadSession(get());
    if (session === null) return;
    if (get().teamLead.status === "idle")
      set({ teamLead: { ...get().teamLead, status: "reading" } });
    try {
      const data = await readTeamLead(session);
      const now = get().teamLead;
      set({ teamLead: { status: "ready", message: null, data, reads: now.reads + 1 } });
    } catch (e) {
      const now = get().teamLead;
      set({ teamLead: { ...now, status: "error", message: messageOf(e), reads: now.reads + 1 } });
    }
  };

  const refresh = (): Promise<void> => {
    if (running !== null) {
      again = true;
      return running;
    }
    running = (async () => {
      do {
        again = false;
        await readOnce();
      } while (again);
      running = null;
    })();
    return running;
  };

  /** The one subscription the followers share, and how many follow. */
  let following: { readonly stop: () => void; count: number } | null = null;

  // readOnce keeps every failure in the state, so a refresh never rejects.
  const kick = (): void => {
    refresh().then(
      () => undefined,
      () => undefined,
    );
  };

  return {
    teamLead: IDLE,
    teamLeadRefresh: refresh,
    teamLeadFollow: () => {
      const session = leadSession(get());
      if (session === null) return () => undefined;
      if (following === null) {
        kick();
        following = { stop: subscribeViewEvents(session, { team: kick, open: kick }), count: 0 };
      }
      const shared = following;
      shared.count += 1;
      let stopped = false;
      return () => {
        if (stopped) return;
        stopped = true;
        shared.count -= 1;
        if (shared.count > 0) return;
        shared.stop();
        if (following === shared) following = null;
      };
    },
    teamLeadCreateQueue: async (spec) => {
      const session = leadSession(get());
      if (session === null) return { kind: "error", message: "Only a lead makes queues." };
      try {
        await (await teamClient()).createTeamQueue(session, spec);
      } catch (e) {
        return { kind: "error", message: messageOf(e) };
      }
      await refresh();
      return { kind: "done" };
    },
    teamLeadSaveGold: async (groupId, annotation) => {
      const session = leadSession(get());
      if (session === null) return { kind: "error", message: "Only a lead resolves groups." };
      const gold = get().teamLead.data.gold;
      const base =
        gold !== null && Object.hasOwn(gold.versions, groupId) ? gold.versions[groupId]! : "0";
      let written;
      try {
        written = await (await teamClient()).writeTeamGold(session, groupId, annotation, base);
      } catch (e) {
        return { kind: "error", message: messageOf(e) };
      }
      await refresh();
      return written.kind === "written"
        ? { kind: "done" }
        : { kind: "stale", message: written.message };
    },
  };
};
