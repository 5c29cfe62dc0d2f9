/**
 * The judge's connection: the endpoint settings (persisted: they are preferences, and hold no
 * secret) and the API key, which lives in memory. The key goes to sessionStorage only when the user
 * opts in ("remember for this tab"), and never to localStorage, an export or a log. `judgeRequest`
 * runs prompts with the current settings and key, loading the `openai` client on first use.
 */
import type { StateCreator } from "zustand";
import {
  GAR_SOURCE_DEFAULT,
  garSourceParse,
  JUDGE_MODES,
  type GarRankingSource,
  type JudgeMode,
  type PromptTemplate,
} from "../../core/index.ts";
import type { JudgeRunOptions, JudgeRunResult, JudgeTask } from "../../io/judge/judgeClient.ts";
import { judgeSettingsFromPreset, type JudgeSettings } from "../../io/judge/judgeSettings.ts";
import type { Store } from "../index.ts";

/** The endpoints the connection form offers (OpenAI, vLLM, Ollama), each a base URL and a model. */
export { JUDGE_PRESETS, type JudgePreset } from "../../io/judge/judgeSettings.ts";

/** The settings without the key: what is persisted and shown. */
export type JudgeConnection = Omit<JudgeSettings, "apiKey">;

/** The sessionStorage key that holds the API key when the user opted in. */
export const JUDGE_KEY_SESSION = "rollout-studio.judge-key";

export const JUDGE_CONNECTION_DEFAULT: JudgeConnection = judgeSettingsPublicOf(
  judgeSettingsFromPreset("openai"),
);

function judgeSettingsPublicOf(settings: JudgeSettings): JudgeConnection {
  const rest: { -readonly [K in keyof JudgeSettings]?: JudgeSettings[K] } = { ...settings };
  delete rest.apiKey;
  return rest as JudgeConnection;
}

/** The user's edited prompt templates by mode (absent: the mode's default template). */
export type JudgeTemplates = Readonly<Partial<Record<JudgeMode, PromptTemplate>>>;

export interface JudgeSlice {
  readonly judgeConnection: JudgeConnection;
  /**
   * The user has set the connection (any `setJudgeConnection`): only then is it persisted, and only
   * then does the page's Content-Security-Policy allow its origin (public/judge-csp.js).
   */
  readonly judgeConfigured: boolean;
  /** Edited prompt templates, persisted; a template's version is its name plus a hash of its text. */
  readonly judgeTemplates: JudgeTemplates;
  /** Where a group no person ranked takes GAR from: nowhere, or the gar run picked by id (persisted). */
  readonly judgeGarSource: GarRankingSource;
  /** In memory only (see the module comment). "" for none. */
  readonly judgeApiKey: string;
  /** The user opted in to keep the key in sessionStorage for this tab. */
  readonly judgeRememberKey: boolean;
  readonly setJudgeConnection: (patch: Partial<JudgeConnection>) => void;
  /** Set the key; `remember` writes it to sessionStorage, false removes it from there. */
  readonly setJudgeApiKey: (key: string, remember: boolean) => void;
  /** Keep an edited template for a mode; null goes back to the default. */
  readonly setJudgeTemplate: (mode: JudgeMode, template: PromptTemplate | null) => void;
  readonly setJudgeGarSource: (source: GarRankingSource) => void;
  /** Run judge tasks with the current settings and key (the client loads on first use). */
  readonly judgeRequest: <T>(
    tasks: readonly JudgeTask<T>[],
    options?: JudgeRunOptions,
  ) => Promise<JudgeRunResult<T>>;
}

function session(): Storage | null {
  try {
    return typeof sessionStorage === "undefined" ? null : sessionStorage;
  } catch {
    return null;
  }
}

export const createJudgeSlice: StateCreator<Store, [], [], JudgeSlice> = (set, get) => {
  const remembered = session()?.getItem(JUDGE_KEY_SESSION) ?? null;
  return {
    judgeConnection: JUDGE_CONNECTION_DEFAULT,
    judgeConfigured: false,
    judgeTemplates: {},
    judgeGarSource: GAR_SOURCE_DEFAULT,
    judgeApiKey: remembered ?? "",
    judgeRememberKey: remembered !== null,
    setJudgeConnection: (patch) =>
      set((s) => ({ judgeConnection: { ...s.judgeConnection, ...patch }, judgeConfigured: true })),
    setJudgeTemplate: (mode, template) =>
      set((s) => {
        const next: Partial<Record<JudgeMode, PromptTemplate>> = { ...s.judgeTemplates };
        if (template === null) delete next[mode];
        else next[mode] = template;
        return { judgeTemplates: next };
      }),
    setJudgeGarSource: (judgeGarSource) => set({ judgeGarSource }),
    setJudgeApiKey: (key, remember) => {
      const store = session();
      if (remember && key !== "") store?.setItem(JUDGE_KEY_SESSION, key);
      else store?.removeItem(JUDGE_KEY_SESSION);
      set({ judgeApiKey: key, judgeRememberKey: remember && key !== "" });
    },
    judgeRequest: async (tasks, options) => {
      const { runJudge } = await import("../../io/judge/judgeClient.ts");
      const { judgeConnection, judgeApiKey } = get();
      return runJudge({ ...judgeConnection, apiKey: judgeApiKey }, tasks, options);
    },
  };
};

const isRecord = (x: unknown): x is Record<string, unknown> =>
  typeof x === "object" && x !== null && !Array.isArray(x);

/**
 * The connection read back from storage: each valid field kept, anything else its default. A
 * stored `apiKey` (which this studio never writes) is ignored.
 */
export function readJudgeConnection(persisted: unknown): JudgeConnection {
  const raw =
    isRecord(persisted) && isRecord(persisted.judgeConnection) ? persisted.judgeConnection : {};
  const d = JUDGE_CONNECTION_DEFAULT;
  const num = (key: keyof JudgeConnection, ok: (x: number) => boolean): number => {
    const v = raw[key];
    return typeof v === "number" && Number.isFinite(v) && ok(v) ? v : (d[key] as number);
  };
  const url = raw.baseURL;
  let baseURL = d.baseURL;
  if (typeof url === "string") {
    try {
      const parsed = new URL(url);
      if (parsed.protocol === "http:" || parsed.protocol === "https:") baseURL = url;
    } catch {
      // not a URL: keep the default
    }
  }
  const p = raw.prices;
  const prices =
    isRecord(p) &&
    typeof p.inputPerMillion === "number" &&
    p.inputPerMillion >= 0 &&
    typeof p.outputPerMillion === "number" &&
    p.outputPerMillion >= 0
      ? { inputPerMillion: p.inputPerMillion, outputPerMillion: p.outputPerMillion }
      : null;
  return {
    baseURL,
    model: typeof raw.model === "string" && raw.model.trim() !== "" ? raw.model : d.model,
    temperature: num("temperature", (x) => x >= 0 && x <= 2),
    maxTokens: num("maxTokens", (x) => Number.isInteger(x) && x >= 1),
    concurrency: num("concurrency", (x) => Number.isInteger(x) && x >= 1 && x <= 256),
    timeoutMs: num("timeoutMs", (x) => Number.isInteger(x) && x >= 1),
    maxRetries: num("maxRetries", (x) => Number.isInteger(x) && x >= 0 && x <= 10),
    backoffBaseMs: num("backoffBaseMs", (x) => x >= 0),
    backoffMaxMs: num("backoffMaxMs", (x) => x >= 0),
    prices,
  };
}

/** Whether storage holds a connection the user set (it is persisted only then). */
export function readJudgeConfigured(persisted: unknown): boolean {
  return isRecord(persisted) && isRecord(persisted.judgeConnection);
}

/** Stored templates, each kept only when it is a template of a known mode (storage is untrusted). */
export function readJudgeTemplates(persisted: unknown): JudgeTemplates {
  const raw =
    isRecord(persisted) && isRecord(persisted.judgeTemplates) ? persisted.judgeTemplates : {};
  const out: Partial<Record<JudgeMode, PromptTemplate>> = {};
  for (const mode of JUDGE_MODES) {
    const t = raw[mode];
    if (
      isRecord(t) &&
      typeof t.name === "string" &&
      t.name.trim() !== "" &&
      typeof t.system === "string" &&
      typeof t.user === "string"
    )
      out[mode] = { name: t.name, system: t.system, user: t.user };
  }
  return out;
}

export function readJudgeGarSource(persisted: unknown): GarRankingSource {
  return garSourceParse(isRecord(persisted) ? persisted.judgeGarSource : undefined);
}
