/**
 * Judge settings without the client: the shape, the defaults and the presets, so the studio's
 * first page can show and persist them without loading the `openai` package (judgeClient.ts).
 */
import type { JudgePrices } from "../../core/index.ts";

export interface JudgeSettings {
  /** OpenAI-compatible base URL, ending in /v1 for most servers. */
  readonly baseURL: string;
  readonly model: string;
  /** Kept in memory only (style.md: never in env files or the build). "" for keyless local servers. */
  readonly apiKey: string;
  readonly temperature: number;
  readonly maxTokens: number;
  /** Requests in flight at once. */
  readonly concurrency: number;
  /** Per attempt, in milliseconds. */
  readonly timeoutMs: number;
  /** Extra attempts after a 429, 5xx, timeout or connection error. */
  readonly maxRetries: number;
  /** First backoff delay; doubles per retry. */
  readonly backoffBaseMs: number;
  /** Upper bound on any single backoff delay, retry-after included. */
  readonly backoffMaxMs: number;
  /** Prices per million tokens, for the cost estimate; null for none (local servers). */
  readonly prices: JudgePrices | null;
}

export const JUDGE_SETTINGS_DEFAULTS: Omit<JudgeSettings, "baseURL" | "model" | "apiKey"> = {
  temperature: 0,
  maxTokens: 1024,
  concurrency: 16,
  timeoutMs: 60_000,
  maxRetries: 3,
  backoffBaseMs: 500,
  backoffMaxMs: 8_000,
  prices: null,
};

export type JudgePresetId = "openai" | "vllm" | "ollama";

export interface JudgePreset {
  readonly id: JudgePresetId;
  readonly label: string;
  readonly baseURL: string;
  /** A model name to start from; the user edits it. */
  readonly model: string;
  readonly needsKey: boolean;
}

export const JUDGE_PRESETS: readonly JudgePreset[] = [
  {
    id: "openai",
    label: "OpenAI",
    baseURL: "https://api.openai.com/v1",
    model: "gpt-4o-mini",
    needsKey: true,
  },
  {
    id: "vllm",
    label: "vLLM (local)",
    baseURL: "http://127.0.0.1:8000/v1",
    model: "Qwen/Qwen2.5-7B-Instruct",
    needsKey: false,
  },
  {
    id: "ollama",
    label: "Ollama (local)",
    baseURL: "http://127.0.0.1:11434/v1",
    model: "llama3.1",
    needsKey: false,
  },
];

/** Settings from a preset plus the defaults, with any overrides applied. */
export function judgeSettingsFromPreset(
  id: JudgePresetId,
  overrides: Partial<JudgeSettings> = {},
): JudgeSettings {
  const preset = JUDGE_PRESETS.find((p) => p.id === id)!;
  return {
    ...JUDGE_SETTINGS_DEFAULTS,
    baseURL: preset.baseURL,
    model: preset.model,
    apiKey: "",
    ...overrides,
  };
}

/** The settings as they may be shown, stored or logged: the key replaced by whether one is set. */
export function judgeSettingsPublic(
  settings: JudgeSettings,
): Omit<JudgeSettings, "apiKey"> & { readonly apiKeySet: boolean } {
  const { apiKey, ...rest } = settings;
  return { ...rest, apiKeySet: apiKey !== "" };
}

/**
 * Remove a secret from text: every occurrence of it, and every run of 6 or more of its characters
 * (servers echo partial keys, e.g. "sk-abc***xyz1"), become "[redacted]".
 */
export function redactSecret(text: string, secret: string): string {
  if (secret.length < 4) return text;
  let out = text.split(secret).join("[redacted]");
  const window = Math.min(6, secret.length);
  for (let i = 0; i + window <= secret.length; i++) {
    const piece = secret.slice(i, i + window);
    if (out.includes(piece)) out = out.split(piece).join("[redacted]");
  }
  return out;
}
