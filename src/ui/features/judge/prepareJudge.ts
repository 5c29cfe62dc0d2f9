/**
 * View models of the judge panel: the connection form's draft and its validation, whether saving it
 * needs a reload (the page's Content-Security-Policy allows one judge origin, set at load), the
 * progress and accounting lines, the runs list and a run's details. Pure; the components render it.
 */
import {
  judgeAccountingFailed,
  judgeCost,
  JUDGE_FAILURE_KINDS,
  templatePlaceholders,
  type JudgeAccounting,
  type JudgeMode,
  type JudgePrices,
  type JudgeRun,
  type PromptTemplate,
  type SpreadReport,
  judgeRunErrors,
  judgeRunFlipRate,
  judgeRunName,
  judgeRunSpread,
} from "../../../core/index.ts";
import type { JudgeConnection } from "../../../store/slices/judgeSlice.ts";

/** The connection form's fields as typed (strings), before validation. */
export interface ConnectionDraft {
  readonly baseURL: string;
  readonly model: string;
  readonly temperature: string;
  readonly maxTokens: string;
  readonly concurrency: string;
  /** Seconds. */
  readonly timeout: string;
  readonly maxRetries: string;
  /** US dollars per million tokens; both empty: no prices. */
  readonly priceIn: string;
  readonly priceOut: string;
}

export function connectionDraft(c: JudgeConnection): ConnectionDraft {
  return {
    baseURL: c.baseURL,
    model: c.model,
    temperature: String(c.temperature),
    maxTokens: String(c.maxTokens),
    concurrency: String(c.concurrency),
    timeout: String(c.timeoutMs / 1000),
    maxRetries: String(c.maxRetries),
    priceIn: c.prices === null ? "" : String(c.prices.inputPerMillion),
    priceOut: c.prices === null ? "" : String(c.prices.outputPerMillion),
  };
}

export type DraftResult =
  | { readonly ok: true; readonly patch: Partial<JudgeConnection> }
  | { readonly ok: false; readonly errors: readonly string[] };

/** The origin of an http(s) URL, or null. */
export function urlOrigin(url: string): string | null {
  try {
    const u = new URL(url);
    return u.protocol === "http:" || u.protocol === "https:" ? u.origin : null;
  } catch {
    return null;
  }
}

/** Validate a draft; every error names its field. */
export function readConnectionDraft(d: ConnectionDraft): DraftResult {
  const errors: string[] = [];
  const num = (label: string, raw: string, ok: (x: number) => boolean, rule: string): number => {
    const x = raw.trim() === "" ? NaN : Number(raw);
    if (!Number.isFinite(x) || !ok(x)) errors.push(`${label}: ${rule}`);
    return x;
  };
  if (urlOrigin(d.baseURL.trim()) === null) errors.push("Base URL: an http:// or https:// URL");
  if (d.model.trim() === "") errors.push("Model: a model name");
  const temperature = num("Temperature", d.temperature, (x) => x >= 0 && x <= 2, "0 to 2");
  const maxTokens = num(
    "Max tokens",
    d.maxTokens,
    (x) => Number.isInteger(x) && x >= 1,
    "a whole number >= 1",
  );
  const concurrency = num(
    "Concurrency",
    d.concurrency,
    (x) => Number.isInteger(x) && x >= 1 && x <= 256,
    "a whole number from 1 to 256",
  );
  const timeout = num("Timeout", d.timeout, (x) => x > 0, "seconds > 0");
  const maxRetries = num(
    "Retries",
    d.maxRetries,
    (x) => Number.isInteger(x) && x >= 0 && x <= 10,
    "a whole number from 0 to 10",
  );
  let prices: JudgePrices | null = null;
  if (d.priceIn.trim() !== "" || d.priceOut.trim() !== "") {
    const inputPerMillion = num(
      "Price in",
      d.priceIn,
      (x) => x >= 0,
      "dollars per million tokens >= 0",
    );
    const outputPerMillion = num(
      "Price out",
      d.priceOut,
      (x) => x >= 0,
      "dollars per million tokens >= 0",
    );
    prices = { inputPerMillion, outputPerMillion };
  }
  if (errors.length > 0) return { ok: false, errors };
  return {
    ok: true,
    patch: {
      baseURL: d.baseURL.trim(),
      model: d.model.trim(),
      temperature,
      maxTokens,
      concurrency,
      timeoutMs: Math.round(timeout * 1000),
      maxRetries,
      prices,
    },
  };
}

/**
 * Whether the page must reload before it may connect to `baseURL`: the policy loaded with the page
 * allows `allowed` only ("" for none).
 */
export function needsReload(baseURL: string, allowed: string): boolean {
  const origin = urlOrigin(baseURL);
  return origin !== null && origin !== allowed;
}

/** Failures by kind, only the kinds that happened: "timeout 2, invalid reply 1". */
export function failuresText(acc: JudgeAccounting): string {
  const parts = JUDGE_FAILURE_KINDS.filter((k) => acc.failures[k] > 0).map(
    (k) => `${k.replace(/_/g, " ")} ${acc.failures[k]}`,
  );
  return parts.length === 0 ? "none" : parts.join(", ");
}

function usd(x: number | null): string {
  return x === null ? "no price set" : `$${x.toFixed(4)}`;
}

/** The live line under a running judge: "12 of 40 requests · 3,100 tokens · $0.0012 · failures: none". */
export function progressView(
  done: number,
  total: number,
  acc: JudgeAccounting,
  prices: JudgePrices | null,
): {
  readonly count: string;
  readonly tokens: string;
  readonly cost: string;
  readonly failures: string;
} {
  const cost = judgeCost(
    { promptTokens: acc.promptTokens, completionTokens: acc.completionTokens },
    prices,
  );
  return {
    count: `${done} of ${total}`,
    tokens: `${(acc.promptTokens + acc.completionTokens).toLocaleString("en-US")} tokens (${acc.promptTokens.toLocaleString("en-US")} in, ${acc.completionTokens.toLocaleString("en-US")} out)${acc.requestsWithoutUsage > 0 ? `, ${acc.requestsWithoutUsage} replies without usage` : ""}`,
    cost: usd(cost),
    failures: failuresText(acc),
  };
}

export const MODE_LABELS: Readonly<Record<JudgeMode, string>> = {
  gar: "Group grader (GAR)",
  pairwise: "Pairwise judge",
  rubric: "Rubric scorer (GRS)",
  cluster: "Diversity clusterer",
};

export interface RunRow {
  readonly id: string;
  /** The run's distinct name (`judgeRunName`): what the GAR source and calibration menus show. */
  readonly name: string;
  /** What it judged with its group count, "spread check (20 groups)", or "20 groups". */
  readonly scope: string;
  readonly mode: string;
  /** "LLM" or "heuristic": the heuristic is labelled as such everywhere. */
  readonly source: string;
  readonly heuristic: boolean;
  readonly model: string;
  readonly promptVersion: string;
  readonly started: string;
  readonly requests: string;
  readonly failures: string;
  readonly cost: string;
  readonly groups: number;
  readonly errors: readonly { readonly groupId: string; readonly message: string }[];
  readonly spread: SpreadReport | null;
  readonly flips: string | null;
  readonly cancelled: boolean;
}

/** One row of the runs list, newest first, with the details the row expands to. */
export function runRows(runs: readonly JudgeRun[], minFactor: number): RunRow[] {
  return [...runs].reverse().map((run) => {
    const i = run.info;
    const heuristic = i.source === "heuristic";
    const flips = i.mode === "pairwise" ? judgeRunFlipRate(run) : null;
    const count = Object.keys(run.groups).length;
    const groups = `${count} group${count === 1 ? "" : "s"}`;
    return {
      id: i.id,
      name: judgeRunName(run),
      scope: i.scope === undefined ? groups : `${i.scope} (${groups})`,
      mode: heuristic ? "Heuristic grader (offline)" : MODE_LABELS[i.mode],
      source: heuristic ? "heuristic" : "LLM",
      heuristic,
      model: i.model,
      promptVersion: i.promptVersion,
      started: i.startedAt.replace("T", " ").replace(/\.\d+Z$/, "Z"),
      requests: heuristic ? "none (offline)" : String(i.accounting.requests),
      failures: heuristic
        ? "0"
        : `${judgeAccountingFailed(i.accounting)} (${failuresText(i.accounting)})`,
      cost: heuristic ? "free" : usd(i.costUsd),
      groups: Object.keys(run.groups).length,
      errors: judgeRunErrors(run).map((e) => ({
        groupId: e.groupId,
        message: `${e.error.kind.replace(/_/g, " ")}: ${e.error.message}`,
      })),
      spread: judgeRunSpread(run, minFactor),
      flips:
        flips === null
          ? null
          : flips.rate === null
            ? "no pair judged in both orders"
            : `${flips.flips} of ${flips.pairs} pairs flipped (${(flips.rate * 100).toFixed(0)}%)`,
      cancelled: i.cancelled,
    };
  });
}

/**
 * Problems with an edited template: errors (no name, a placeholder the mode does not fill, which
 * would fail every request) block saving; warnings name placeholders the template no longer uses
 * (the judge will not see that part).
 */
export function templateProblems(
  edited: PromptTemplate,
  original: PromptTemplate,
): { readonly errors: readonly string[]; readonly warnings: readonly string[] } {
  const known = templatePlaceholders(`${original.system}\n${original.user}`);
  const used = new Set(templatePlaceholders(`${edited.system}\n${edited.user}`));
  const errors: string[] = [];
  if (edited.name.trim() === "") errors.push("the template needs a name");
  for (const p of used)
    if (!known.includes(p))
      errors.push(
        `{{${p}}} is not filled by this mode (it fills ${known.map((k) => `{{${k}}}`).join(", ")})`,
      );
  const warnings = known
    .filter((p) => !used.has(p))
    .map((p) => `{{${p}}} is not used: the judge will not see it`);
  return { errors, warnings };
}
