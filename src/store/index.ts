/**
 * The one bound store, built from typed slices (zustand slices pattern). Components select atomic
 * values or use useShallow; derived numbers come from hooks over src/core, never stored.
 *
 * Only user data is persisted (style.md anti-pattern 3): `partialize` keeps the mapping presets
 * and the analysis and health settings, never the dataset. A slice that adds persisted state adds its keys to
 * `partialize` and validates them in `merge`.
 */
import { create } from "zustand";
import { createJSONStorage, persist, type StateStorage } from "zustand/middleware";
import { openAnnotationsDb } from "./persistence/annotationsDb.ts";
import { startAnnotationsSync, type PersistState } from "./persistence/annotationsSync.ts";
import { startServerAnnotations, type ServerSaveState } from "./persistence/serverAnnotations.ts";
import { createStoreSlices, type Store } from "./createStore.ts";
import { readHealthSettings } from "./slices/healthSettingsSlice.ts";
import {
  readJudgeConfigured,
  readJudgeConnection,
  readJudgeGarSource,
  readJudgeTemplates,
} from "./slices/judgeSlice.ts";
import { readPresets } from "./slices/presetsSlice.ts";
import { readSettings } from "./slices/settingsSlice.ts";
import { startSourceUrlSync } from "./sourceUrl.ts";
import { startViewFollow } from "./remote/viewFollow.ts";
import { configureTeam } from "./slices/teamSlice.ts";
import { startTeamFollow } from "./team/teamFollow.ts";
import { viewSessionFromUrl } from "./remote/viewSession.ts";

export type { Store } from "./createStore.ts";

/** The localStorage key of the persisted preferences. */
export const PERSIST_KEY = "rollout-studio";

/**
 * localStorage, skipping writes of an unchanged value: persist writes on every state change, and
 * loading a file changes state many times (progress, groups) while the presets stay the same.
 */
function dedupedLocalStorage(): StateStorage {
  const written = new Map<string, string>();
  return {
    getItem: (name) => localStorage.getItem(name),
    setItem: (name, value) => {
      if (written.get(name) === value) return;
      localStorage.setItem(name, value);
      written.set(name, value);
    },
    removeItem: (name) => {
      written.delete(name);
      localStorage.removeItem(name);
    },
  };
}

export const useStore = create<Store>()(
  persist((...a) => createStoreSlices(...a), {
    name: PERSIST_KEY,
    version: 1,
    storage: createJSONStorage(dedupedLocalStorage),
    // The judge's connection is persisted once the user set it; its API key never is
    // (judgeSlice.ts). public/judge-csp.js reads the persisted base URL.
    partialize: (s) => ({
      presets: s.presets,
      settings: s.settings,
      healthSettings: s.healthSettings,
      ...(s.judgeConfigured ? { judgeConnection: s.judgeConnection } : {}),
      judgeTemplates: s.judgeTemplates,
      judgeGarSource: s.judgeGarSource,
    }),
    // Stored values are untrusted input: validate them instead of merging them in as they are.
    merge: (persisted, current) => ({
      ...current,
      presets: readPresets(persisted),
      settings: readSettings(persisted),
      healthSettings: readHealthSettings(persisted),
      judgeConnection: readJudgeConnection(persisted),
      judgeConfigured: readJudgeConfigured(persisted),
      judgeTemplates: readJudgeTemplates(persisted),
      judgeGarSource: readJudgeGarSource(persisted),
    }),
  }),
);

/**
 * Whether the annotations are saved in this browser (`persist`) and, in view mode, on the server
 * (`server`), and any failure to: a store of its own, so the status updates of every save never
 * run the main store's selectors.
 */
export const usePersistStatus = create<{
  readonly persist: PersistState;
  readonly server: ServerSaveState;
}>()(() => ({
  persist: { status: "off" },
  server: { status: "off" },
}));

/**
 * Annotations are saved in IndexedDB as every action happens, keyed by the dataset's fingerprint
 * (not in localStorage: they can outgrow its quota, and they belong to one dataset).
 */
export const annotationsSync =
  typeof indexedDB === "undefined"
    ? null
    : startAnnotationsSync(useStore, openAnnotationsDb(), usePersistStatus);

/**
 * In view mode (`load.remote`) the server's `<state dir>/annotations.json` is the store, and the
 * IndexedDB copy above is the offline one (persistence/serverAnnotations.ts). Its event stream is
 * the page's shared one (remote/viewEvents.ts).
 */
export const serverAnnotations =
  typeof window === "undefined"
    ? null
    : startServerAnnotations(useStore, usePersistStatus, {
        restoring: () => annotationsSync?.restoring() ?? false,
      });

/**
 * Team mode (`view --db`, issue 18): the team slice follows the served dataset's person
 * (store/team/teamFollow.ts), and a submit flushes the annotations' server link first.
 */
if (typeof window !== "undefined") {
  configureTeam({
    flushAnnotations: () => serverAnnotations?.flush() ?? Promise.resolve(),
    saveProblem: () => {
      const server = usePersistStatus.getState().server;
      return server.status === "error" || server.status === "invalid" ? server.message : null;
    },
  });
  startTeamFollow(useStore);
}

/** The URL names the data on screen (store/sourceUrl.ts). */
if (typeof window !== "undefined") startSourceUrlSync(useStore);

/**
 * The page `rollout-studio view` serves (`?token=`): the server's run opens and is followed
 * (store/remote/viewFollow.ts), unless the URL asks for the demo.
 */
export const viewSession =
  typeof window === "undefined" ? null : viewSessionFromUrl(window.location.href);
if (viewSession !== null) {
  const params = new URLSearchParams(window.location.search);
  const threshold = Number(params.get("index-threshold") ?? NaN);
  if (!params.has("demo"))
    startViewFollow(
      useStore,
      viewSession,
      params.get("run"),
      Number.isFinite(threshold) && threshold >= 0 ? threshold : undefined,
    );
}
