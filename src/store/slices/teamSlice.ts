/**
 * Team mode's state on the page (`view RUN --db URL`, issue 18): the caller's state as the server
 * keeps it (their group versions, submissions and the dataset's blind groups, `GET
 * /api/team/state`), their queues with each one's progress, the queue they opened with its items,
 * and their submits. Like the dataset, none of it is persisted: the server is the store. It is read
 * when the page enters team mode, on every `team` event and when the event stream (re)opens
 * (store/team/teamFollow.ts calls `refreshTeam`).
 *
 * A submit first flushes the page's pending annotation save (the server refuses to submit a group
 * it holds no annotation of, and must submit the annotation the person sees), then posts it.
 *
 * What blind mode hides is decided by store/team/teamSelectors.ts over this state (core's
 * `teamVisibility`); the lead's side (agreement, gold) builds on the same state and client.
 */
import type { StateCreator } from "zustand";
import { groupAnnotationIsEmpty, type GroupId } from "../../core/index.ts";
import type {
  TeamProgressRow,
  TeamQueueReply,
  TeamQueueViewReply,
  TeamStateReply,
} from "../../io/view/teamApi.ts";
import type { Store } from "../createStore.ts";
import type * as TeamClientModule from "../remote/teamClient.ts";
import { selectTeamMode, teamModeKey } from "../team/teamSelectors.ts";

/** The client calls the slice makes (remote/teamClient.ts; a test's stand-in). */
export type TeamClient = Pick<
  typeof TeamClientModule,
  "fetchTeamState" | "fetchTeamQueues" | "fetchTeamQueue" | "fetchTeamProgress" | "submitTeamGroup"
>;

/** What the slice reaches outside the store: set once by store/index.ts, by tests with stand-ins. */
export interface TeamDeps {
  /** The team client, loaded on first use (it brings zod and the annotations parser). */
  readonly client: () => Promise<TeamClient>;
  /** Write the page's pending annotation change now; resolves once it landed or failed. */
  readonly flushAnnotations: () => Promise<void>;
  /** Why the page's annotations are not on the server (the save status's error), or null. */
  readonly saveProblem: () => string | null;
}

const DEFAULT_DEPS: TeamDeps = {
  client: () => import("../remote/teamClient.ts"),
  flushAnnotations: () => Promise.resolve(),
  saveProblem: () => null,
};
let deps: TeamDeps = DEFAULT_DEPS;

/** Set what the slice reaches outside the store; returns the function that restores the previous. */
export function configureTeam(next: Partial<TeamDeps>): () => void {
  const previous = deps;
  deps = { ...deps, ...next };
  return () => {
    deps = previous;
  };
}

/** One queue as listed, with every progress row the server gives the caller (an annotator: theirs). */
export interface TeamQueueEntry {
  readonly queue: TeamQueueReply;
  readonly progress: readonly TeamProgressRow[] | null;
}

/** The queue the person opened: its items once read. */
export interface TeamOpenQueue {
  readonly name: string;
  /** Null while it is read (or when the read failed: `error`). */
  readonly view: TeamQueueViewReply | null;
  readonly error: string | null;
}

export type TeamSubmitState =
  { readonly status: "submitting" } | { readonly status: "error"; readonly message: string };

export interface TeamSlice {
  /** The caller's state on the server; null out of team mode and before the first read. */
  readonly teamState: TeamStateReply | null;
  /** The caller's queues (a lead: every queue); null before the first read. */
  readonly teamQueues: readonly TeamQueueEntry[] | null;
  readonly teamOpenQueue: TeamOpenQueue | null;
  /** The last read that failed, until one succeeds. */
  readonly teamError: string | null;
  /** Submits under way or failed, by group (a submitted group is in `teamState.submitted`). */
  readonly teamSubmits: Readonly<Record<GroupId, TeamSubmitState>>;
  /**
   * Read the state, the queues and the open queue again (several calls at once: one more read).
   * These actions never reject: a failure is `teamError`, the queue's `error` or `teamSubmits`.
   */
  readonly refreshTeam: () => Promise<void>;
  /** Open a queue by name (null: close it). */
  readonly openTeamQueue: (name: string | null) => Promise<void>;
  /** Submit the caller's annotation of a group; true once the server took it. */
  readonly submitTeamGroup: (groupId: GroupId) => Promise<boolean>;
  /** Forget everything (the page left team mode, or became another person or dataset). */
  readonly resetTeam: () => void;
}

const errorText = (e: unknown): string => (e instanceof Error ? e.message : String(e));

const TEAM_EMPTY = {
  teamState: null,
  teamQueues: null,
  teamOpenQueue: null,
  teamError: null,
  teamSubmits: {},
} as const;

type SliceGet = () => Store;
type SliceSet = Parameters<StateCreator<Store, [], [], TeamSlice>>[0];

/** The mode's key now: replies read under another key are dropped. */
const keyNow = (get: SliceGet): string | null => teamModeKey(selectTeamMode(get()));

/** Read the state, the queues (each with its progress) and the open queue's items. */
async function readAll(get: SliceGet, set: SliceSet): Promise<void> {
  const mode = selectTeamMode(get());
  if (mode === null) return;
  const key = teamModeKey(mode);
  const client = await deps.client();
  const { session } = mode;
  const [state, queues] = await Promise.all([
    client.fetchTeamState(session),
    client.fetchTeamQueues(session),
  ]);
  const entries = await Promise.all(
    queues.map(async (queue): Promise<TeamQueueEntry> => ({
      queue,
      progress: await client.fetchTeamProgress(session, queue.name),
    })),
  );
  const open = get().teamOpenQueue;
  const view =
    open === null || !queues.some((q) => q.name === open.name)
      ? null
      : await client.fetchTeamQueue(session, open.name);
  if (keyNow(get) !== key) return;
  const still = get().teamOpenQueue;
  set({
    teamState: state,
    teamQueues: entries,
    teamError: null,
    // The queue the person opened meanwhile is read by its own call.
    ...(still !== null && open !== null && still.name === open.name
      ? { teamOpenQueue: view === null ? null : { name: open.name, view, error: null } }
      : {}),
  });
}

export const createTeamSlice: StateCreator<Store, [], [], TeamSlice> = (set, get) => {
  // One read at a time per store; calls while one runs ask for one more read after it.
  let running: Promise<void> | null = null;
  let again = false;

  const refreshTeam = (): Promise<void> => {
    if (running !== null) {
      again = true;
      return running;
    }
    const run = async (): Promise<void> => {
      do {
        again = false;
        const key = keyNow(get);
        try {
          await readAll(get, set);
        } catch (e) {
          if (keyNow(get) === key && key !== null) set({ teamError: errorText(e) });
        }
      } while (again);
    };
    running = run().finally(() => {
      running = null;
    });
    return running;
  };

  const setSubmit = (groupId: GroupId, value: TeamSubmitState | null): void => {
    const rest = Object.fromEntries(
      Object.entries(get().teamSubmits).filter(([id]) => id !== groupId),
    );
    set({ teamSubmits: value === null ? rest : { ...rest, [groupId]: value } });
  };

  return {
    ...TEAM_EMPTY,
    refreshTeam,
    openTeamQueue: async (name) => {
      if (name === null) {
        set({ teamOpenQueue: null });
        return;
      }
      const mode = selectTeamMode(get());
      if (mode === null) return;
      const key = teamModeKey(mode);
      set({ teamOpenQueue: { name, view: null, error: null } });
      try {
        const view = await (await deps.client()).fetchTeamQueue(mode.session, name);
        if (keyNow(get) === key && get().teamOpenQueue?.name === name)
          set({ teamOpenQueue: { name, view, error: null } });
      } catch (e) {
        if (keyNow(get) === key && get().teamOpenQueue?.name === name)
          set({ teamOpenQueue: { name, view: null, error: errorText(e) } });
      }
    },
    submitTeamGroup: async (groupId) => {
      const mode = selectTeamMode(get());
      if (mode === null || get().teamSubmits[groupId]?.status === "submitting") return false;
      const key = teamModeKey(mode);
      const annotation = get().annotations.groups[groupId];
      if (annotation === undefined || groupAnnotationIsEmpty(annotation)) {
        setSubmit(groupId, {
          status: "error",
          message: "Nothing to submit: label, rank or mark this group first.",
        });
        return false;
      }
      setSubmit(groupId, { status: "submitting" });
      try {
        // The annotation the person sees must be the server's before it is submitted.
        await deps.flushAnnotations();
        const problem = deps.saveProblem();
        if (problem !== null) throw new Error(`your annotation is not saved yet (${problem})`);
        const reply = await (await deps.client()).submitTeamGroup(mode.session, groupId);
        if (keyNow(get) !== key) return false;
        const state = get().teamState;
        if (state !== null && reply.submittedAt !== null)
          set({
            teamState: {
              ...state,
              versions: { ...state.versions, [groupId]: reply.version },
              submitted: { ...state.submitted, [groupId]: reply.submittedAt },
            },
          });
        setSubmit(groupId, null);
        // The queues' progress moved; the server's event says so too, this does not wait for it.
        refreshTeam().catch(() => undefined);
        return true;
      } catch (e) {
        if (keyNow(get) === key)
          setSubmit(groupId, { status: "error", message: `Not submitted: ${errorText(e)}` });
        return false;
      }
    },
    resetTeam: () => {
      again = false;
      set({ ...TEAM_EMPTY });
    },
  };
};
