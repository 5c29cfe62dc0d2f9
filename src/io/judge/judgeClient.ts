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
  type JudgePrompt,
  type JudgeUsage,
} from "../../core/index.ts";

export {
  JUDGE_PRESETS,
  JUDGE_SETTINGS_DEFAULTS,
  judgeSettingsFromPreset,
  judgeSettingsPublic,
  redactSecret,
  type JudgePreset,
  type JudgePresetId,
  type JudgeSettings,
} from "./judgeSettings.ts";
import { redactSecret, type JudgeSettings } from "./judgeSettings.ts";

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
