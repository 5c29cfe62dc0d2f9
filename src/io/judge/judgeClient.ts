/**
 * The judge client: OpenAI-compatible chat completions through the `openai` package, run over many
 * requests with bounded concurrency, cancel (AbortSignal), progress callbacks, retries with backoff
 * on 429, 5xx, timeouts and connection errors, and accounting (core `JudgeAccounting`).
 *
 * Retries are ours, not the SDK's (the SDK runs with `maxRetries: 0`): that is how every retry is
 * counted and how tests keep the backoff short. A `retry-after-ms` or `retry-after` header is
 * honoured, capped at `backoffMaxMs`; otherwise the delay is `backoffBaseMs * 2^attempt`, capped.
 *
 * The API key is a secret: it goes to the SDK and nowhere else. Errors are rebuilt from their kind,
 * status and a redacted server message; no SDK error object (or its `cause`) is ever returned, the
 * SDK's own logging is off, and a reply that echoes the key is redacted before it is parsed.
 */
import OpenAI, {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
} from "openai";
import { z } from "zod";
import {
  judgeAccountingAdd,
  judgeAccountingEmpty,
  judgeCost,
  judgeFailure,
  type JudgeAccounting,
  type JudgeFailure,
  type JudgeFailureKind,
  type JudgeParse,
  type JudgePrices,
  type JudgePrompt,
  type JudgeUsage,
} from "../../core/index.ts";

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

const SettingsSchema = z.object({
  baseURL: z.url({ protocol: /^https?$/ }),
  model: z.string().trim().min(1),
  apiKey: z.string(),
  temperature: z.number().min(0).max(2),
  maxTokens: z.number().int().min(1),
  concurrency: z.number().int().min(1).max(256),
  timeoutMs: z.number().int().min(1),
  maxRetries: z.number().int().min(0).max(10),
  backoffBaseMs: z.number().min(0),
  backoffMaxMs: z.number().min(0),
  prices: z
    .object({ inputPerMillion: z.number().min(0), outputPerMillion: z.number().min(0) })
    .nullable(),
});

/**
 * Validate settings from a form or a CLI flag file. Issues name the field, never echo its value
 * (the key may be among them).
 */
export function parseJudgeSettings(
  input: unknown,
): { ok: true; settings: JudgeSettings } | { ok: false; issues: string[] } {
  const result = SettingsSchema.safeParse(input);
  if (result.success) return { ok: true, settings: result.data };
  return {
    ok: false,
    issues: result.error.issues.map(
      (i) =>
        `${i.path.join(".") || "settings"}: ${i.code === "invalid_type" ? "wrong type" : "invalid value"}`,
    ),
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

/** One request of a run: a rendered prompt and the parser of its reply. */
export interface JudgeTask<T> {
  /** The caller's key for the result (a group id, a pair id, …). */
  readonly id: string;
  readonly prompt: JudgePrompt;
  readonly parse: (text: string) => JudgeParse<T>;
  /** Override the settings' max tokens for this request. */
  readonly maxTokens?: number;
}

interface OutcomeBase {
  readonly id: string;
  readonly templateVersion: string;
  /** HTTP attempts made (0 when cancelled before the first). */
  readonly attempts: number;
  /** Backoff-and-retry rounds taken after a 429, 5xx, timeout or connection error. */
  readonly retries: number;
  readonly usage: JudgeUsage | null;
  /** The reply's text, for display and audit; null when no reply arrived. Untrusted data. */
  readonly text: string | null;
}

export type JudgeOutcome<T> =
  | (OutcomeBase & { readonly ok: true; readonly value: T })
  | (OutcomeBase & { readonly ok: false; readonly error: JudgeFailure });

export interface JudgeProgress {
  readonly done: number;
  readonly total: number;
  readonly accounting: JudgeAccounting;
}

export interface JudgeRunResult<T> {
  /** One outcome per task, in task order. */
  readonly outcomes: readonly JudgeOutcome<T>[];
  readonly accounting: JudgeAccounting;
  /** Cost of the run's tokens at the settings' prices; null without prices. */
  readonly costUsd: number | null;
  readonly cancelled: boolean;
}

export interface JudgeRunOptions {
  readonly signal?: AbortSignal;
  readonly onProgress?: (progress: JudgeProgress) => void;
  /** A fetch for the SDK (tests, proxies); the global fetch otherwise. */
  readonly fetch?: typeof fetch;
  /** The backoff sleep; tests may replace it. Must reject when the signal aborts. */
  readonly sleep?: (ms: number, signal: AbortSignal | undefined) => Promise<void>;
}

function abortableSleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(new Error("cancelled"));
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(new Error("cancelled"));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

const RETRYABLE: ReadonlySet<JudgeFailureKind> = new Set([
  "timeout",
  "rate_limit",
  "server_error",
  "connection",
]);

interface Classified {
  readonly failure: JudgeFailure;
  readonly retryAfterMs: number | null;
}

function retryAfterMs(headers: Headers | undefined): number | null {
  const ms = headers?.get("retry-after-ms");
  if (ms != null && Number.isFinite(parseFloat(ms))) return Math.max(0, parseFloat(ms));
  const s = headers?.get("retry-after");
  if (s == null) return null;
  if (Number.isFinite(parseFloat(s))) return Math.max(0, parseFloat(s) * 1000);
  const at = Date.parse(s);
  return Number.isFinite(at) ? Math.max(0, at - Date.now()) : null;
}

function brief(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > 200 ? `${flat.slice(0, 200)}…` : flat;
}

/** Map anything the SDK throws to a typed failure whose message never holds the key. */
function classify(e: unknown, apiKey: string, timeoutMs: number): Classified {
  const clean = (s: string): string => brief(redactSecret(s, apiKey));
  if (e instanceof APIUserAbortError)
    return { failure: judgeFailure("cancelled", "the run was cancelled"), retryAfterMs: null };
  if (e instanceof APIConnectionTimeoutError)
    return {
      failure: judgeFailure("timeout", `no reply within ${timeoutMs} ms`),
      retryAfterMs: null,
    };
  if (e instanceof APIConnectionError)
    return {
      failure: judgeFailure("connection", "the judge server could not be reached"),
      retryAfterMs: null,
    };
  if (e instanceof APIError) {
    const status = typeof e.status === "number" ? e.status : null;
    const headers = e.headers instanceof Headers ? e.headers : undefined;
    const kind: JudgeFailureKind =
      status === 429
        ? "rate_limit"
        : status !== null && status >= 500
          ? "server_error"
          : "http_error";
    return {
      failure: judgeFailure(kind, `HTTP ${status ?? "error"}: ${clean(e.message)}`, status),
      retryAfterMs: retryAfterMs(headers),
    };
  }
  const message = e instanceof Error ? e.message : String(e);
  return { failure: judgeFailure("connection", clean(message)), retryAfterMs: null };
}

interface Reply {
  readonly text: string | null;
  readonly usage: JudgeUsage | null;
}

function readUsage(usage: OpenAI.CompletionUsage | undefined): JudgeUsage | null {
  if (!usage) return null;
  const promptTokens = Number.isFinite(usage.prompt_tokens) ? usage.prompt_tokens : 0;
  const completionTokens = Number.isFinite(usage.completion_tokens) ? usage.completion_tokens : 0;
  return { promptTokens, completionTokens };
}

function makeClient(settings: JudgeSettings, fetchImpl: typeof fetch | undefined): OpenAI {
  return new OpenAI({
    // The SDK refuses an empty key; local servers ignore the header.
    apiKey: settings.apiKey === "" ? "no-key" : settings.apiKey,
    baseURL: settings.baseURL,
    timeout: settings.timeoutMs,
    maxRetries: 0,
    dangerouslyAllowBrowser: true,
    logLevel: "off",
    ...(fetchImpl ? { fetch: fetchImpl } : {}),
  });
}

/**
 * Run judge tasks with at most `settings.concurrency` in flight. Never throws for a request's
 * failure: every task gets an outcome. After `signal` aborts, requests in flight are aborted and
 * tasks not yet started finish as "cancelled" without a request.
 */
export async function runJudge<T>(
  settings: JudgeSettings,
  tasks: readonly JudgeTask<T>[],
  options: JudgeRunOptions = {},
): Promise<JudgeRunResult<T>> {
  const client = makeClient(settings, options.fetch);
  const sleep = options.sleep ?? abortableSleep;
  const { signal } = options;
  const outcomes = new Array<JudgeOutcome<T>>(tasks.length);
  let accounting = judgeAccountingEmpty();
  let done = 0;
  let next = 0;

  const runOne = async (task: JudgeTask<T>): Promise<JudgeOutcome<T>> => {
    let retries = 0;
    let attempts = 0;
    const base = { id: task.id, templateVersion: task.prompt.templateVersion };
    const fail = (failure: JudgeFailure, reply: Reply | null): JudgeOutcome<T> => ({
      ...base,
      ok: false,
      error: failure,
      attempts,
      retries,
      usage: reply?.usage ?? null,
      text: reply?.text ?? null,
    });
    for (;;) {
      if (signal?.aborted) return fail(judgeFailure("cancelled", "the run was cancelled"), null);
      attempts++;
      let reply: Reply;
      try {
        const completion = await client.chat.completions.create(
          {
            model: settings.model,
            messages: task.prompt.messages.map((m) => ({ role: m.role, content: m.content })),
            temperature: settings.temperature,
            max_tokens: task.maxTokens ?? settings.maxTokens,
          },
          { signal, timeout: settings.timeoutMs, maxRetries: 0 },
        );
        const content = completion.choices?.[0]?.message?.content;
        reply = {
          text: typeof content === "string" ? content : "",
          usage: readUsage(completion.usage),
        };
      } catch (e) {
        const { failure, retryAfterMs: after } = classify(e, settings.apiKey, settings.timeoutMs);
        if (failure.kind === "cancelled" || signal?.aborted)
          return fail(judgeFailure("cancelled", "the run was cancelled"), null);
        if (!RETRYABLE.has(failure.kind) || retries >= settings.maxRetries) {
          const tried =
            retries > 0 ? ` (after ${retries} ${retries === 1 ? "retry" : "retries"})` : "";
          return fail({ ...failure, message: `${failure.message}${tried}` }, null);
        }
        const backoff = settings.backoffBaseMs * 2 ** retries;
        retries++;
        try {
          await sleep(Math.min(after ?? backoff, settings.backoffMaxMs), signal);
        } catch {
          return fail(judgeFailure("cancelled", "the run was cancelled"), null);
        }
        continue;
      }
      // A reply that echoes the key (or part of it) is redacted before anyone reads it.
      const text = reply.text === null ? null : redactSecret(reply.text, settings.apiKey);
      reply = { ...reply, text };
      if (text === null || text.trim() === "")
        return fail(judgeFailure("malformed_reply", "the reply has no text"), reply);
      const parsed = task.parse(text);
      return parsed.ok
        ? { ...base, ok: true, value: parsed.value, attempts, retries, usage: reply.usage, text }
        : fail(parsed.error, reply);
    }
  };

  const record = (i: number, outcome: JudgeOutcome<T>): void => {
    outcomes[i] = outcome;
    accounting = judgeAccountingAdd(accounting, {
      failure: outcome.ok ? null : outcome.error.kind,
      retries: outcome.retries,
      usage: outcome.usage,
      replied: outcome.text !== null,
    });
    done++;
    options.onProgress?.({ done, total: tasks.length, accounting });
  };

  const worker = async (): Promise<void> => {
    while (next < tasks.length) {
      const i = next++;
      record(i, await runOne(tasks[i]!));
    }
  };
  const width = Math.max(1, Math.min(settings.concurrency, tasks.length));
  await Promise.all(Array.from({ length: width }, () => worker()));

  return {
    outcomes,
    accounting,
    costUsd: judgeCost(
      { promptTokens: accounting.promptTokens, completionTokens: accounting.completionTokens },
      settings.prices,
    ),
    cancelled: signal?.aborted ?? false,
  };
}
