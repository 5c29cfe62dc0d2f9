/**
 * Team mode follows the server (issue 18): when the dataset on screen comes from a `view --db`
 * server (its listing has `team`), the team slice is read, and read again on every `team` event
 * of the page's shared event stream and whenever the stream (re)opens (anything may have changed
 * while it was down). Another person, dataset or server starts afresh; leaving team mode forgets
 * the team state.
 */
import type { StoreApi } from "zustand";
import { subscribeViewEvents } from "../remote/viewEvents.ts";
import type { ViewEventHandlers, ViewSession } from "../remote/viewSession.ts";
import type { TeamSlice } from "../slices/teamSlice.ts";
import { selectTeamMode, teamModeKey, type TeamReadable } from "./teamSelectors.ts";

type FollowStore = StoreApi<TeamReadable & Pick<TeamSlice, "refreshTeam" | "resetTeam">>;

/** Where the events come from: the page's shared stream, or a test's stand-in. */
export type TeamSubscribe = (session: ViewSession, handlers: ViewEventHandlers) => () => void;

/** Follow the load's team mode; returns the function that stops following. */
export function startTeamFollow(
  store: FollowStore,
  subscribe: TeamSubscribe = subscribeViewEvents,
): () => void {
  let key: string | null = null;
  let stopEvents: (() => void) | null = null;
  // Never rejects: a failed read is the slice's `teamError`.
  const refresh = (): void => {
    store
      .getState()
      .refreshTeam()
      .catch(() => undefined);
  };

  const follow = (): void => {
    const mode = selectTeamMode(store.getState());
    const next = teamModeKey(mode);
    if (next === key) return;
    key = next;
    stopEvents?.();
    stopEvents = null;
    store.getState().resetTeam();
    if (mode === null) return;
    stopEvents = subscribe(mode.session, { team: refresh, open: refresh });
    refresh();
  };

  const unsubscribe = store.subscribe((state, previous) => {
    if (state.load !== previous.load) follow();
  });
  follow();
  return () => {
    unsubscribe();
    stopEvents?.();
    stopEvents = null;
  };
}
