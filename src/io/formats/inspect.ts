/**
 * Inspect AI eval logs (UKGovernmentBEIS/inspect_ai; methods.md 4.4), in both forms:
 * - `.eval`: a zip with `header.json` (at the finish) or `_journal/start.json` (while running; older
 *   logs: root `start.json`) holding the eval spec, and one `samples/{id}_epoch_{n}.json` per
 *   EvalSample. Members are taken in (sample id, epoch) order; each is referenced by its name.
 * - `.json`: one EvalLog document `{version, status, eval, plan, results, stats, samples[], ...}`;
 *   each `samples[i]` is referenced by that path.
 *
 * - **Group.** All epochs of one sample `id`; ordered by `epoch`; the id is `<sample id>/epoch <n>`.
 * - **Messages.** `sample.messages`: Inspect tool calls `{id, function, arguments: dict}` and tool
 *   results `{role: "tool", tool_call_id, function, error?}` (messages.ts). Content that is an
 *   `attachment://<hash>` reference (in `messages` and `input`) is replaced by
 *   `sample.attachments[hash]` (left as written when the attachment is missing). A tool error's
 *   message fills an empty tool result; reasoning parts show as "[reasoning]" and their text is kept
 *   in meta as `reasoning` (`{message: index in sample.messages, reasoning}`). The prompt is the
 *   messages before the first assistant turn (with none, every message is the transcript:
 *   fields.ts `splitTranscript`); a sample without messages falls back to `input` and
 *   `output.completion`.
 * - **Rewards.** One component per scorer in `scores`, converted as Inspect's `value_to_float`
 *   does: C = 1, P = 0.5, I = N = 0; numbers as they are; booleans 1/0; "yes"/"true" = 1,
 *   "no"/"false" = 0 (any case); numeric text parsed. A dict (or list) value becomes one component
 *   per key, `<scorer>.<key>` (`<scorer>[i]`), each converted the same way. A value Inspect could
 *   not convert (it would log a warning and count 0) is a null component here: "does not apply",
 *   never an invented 0; the raw score stays in meta. `reward` is the first scorer's value (Inspect
 *   lists the task's main scorer first); it is null when that value is a dict, a list or
 *   unconvertible, and then the analysis sums the components with the user's weights.
 * - `answer` is the first scorer's extracted `answer`, when it is text.
 * - **No samples.** A log without samples (cancelled, failed, or still running) says so, with its
 *   `status` and `error.message`, rather than "every record rejected" (describeEmpty).
 * - Everything else (`scores` with explanations, `target`, `metadata`, `output`, `events`,
 *   `attachments`, `error`, ...) stays in meta, with the eval's `task`, `model`, `run_id` as `eval`.
 */
import { z } from "zod";
import type { ChatMessage } from "../../core/index.ts";
import { isUnreadableMember } from "../containers/zipMember.ts";
import {
  expected,
  isPlainObject,
  notAnObject,
  omitKeys,
  schemaIssues,
  splitTranscript,
} from "./fields.ts";
import { messagesSchema, normaliseMessages, rawMessagesSchema } from "./messages.ts";
import type { RecordOutcome } from "./records.ts";
import { idLike } from "./schemaParts.ts";
import type { EmptyHolder, FormatSpec, RecordRef } from "./spec.ts";
import { FORMAT_INFO } from "./catalog.ts";

/** One Inspect EvalSample (after attachments are resolved); other keys pass through to meta. */
export const inspectSampleSchema = z.looseObject({
  id: idLike,
  epoch: z.number({ error: expected("the epoch, an integer") }).check(z.int()),
  input: z.union([z.string(), rawMessagesSchema]).optional(),
  messages: messagesSchema.optional(),
  scores: z
    .record(
      z.string(),
      z.looseObject({ value: z.unknown() }, { error: expected("a Score object {value, ...}") }),
    )
    .nullable()
    .optional(),
  attachments: z.record(z.string(), z.string()).optional(),
  output: z.looseObject({ completion: z.string().optional() }).nullable().optional(),
});

/** What explode and explodeZip hand to record: one sample and its eval's identity. */
interface Envelope {
  readonly eval: Readonly<Record<string, unknown>> | null;
  readonly sample: unknown;
}

const isEnvelope = (value: unknown): value is Envelope =>
  isPlainObject(value) && "eval" in value && "sample" in value;

const EVAL_FIELDS = ["task", "task_id", "run_id", "model", "created"] as const;

/** The eval spec fields worth showing beside every sample. */
function evalContext(spec: unknown): Record<string, unknown> | null {
  if (!isPlainObject(spec)) return null;
  const out: Record<string, unknown> = {};
  for (const k of EVAL_FIELDS) if (spec[k] !== undefined) out[k] = spec[k];
  return out;
}

function inspectExplode(document: unknown): { value: Envelope; path: string }[] | null {
  if (!isPlainObject(document) || !isPlainObject(document.eval) || !("version" in document))
    return null;
  if (document.samples !== undefined && !Array.isArray(document.samples)) return null;
  const context = evalContext(document.eval);
  return (document.samples ?? []).map((sample: unknown, i: number) => ({
    value: { eval: context, sample },
    path: `samples[${i}]`,
  }));
}

/** Where an `.eval` archive keeps its header: at the finish, while running, in older logs. */
const HEADER_MEMBERS = ["header.json", "_journal/start.json", "start.json"] as const;

const SAMPLE_MEMBER = /^samples\/(.+)_epoch_(\d+)\.json$/;

/** Sample ids compare as numbers when both are numeric, else as text. */
function compareIds(a: string, b: string): number {
  const na = Number(a);
  const nb = Number(b);
  if (a !== "" && b !== "" && Number.isFinite(na) && Number.isFinite(nb)) return na - nb;
  return a < b ? -1 : a > b ? 1 : 0;
}

function inspectExplodeZip(
  members: readonly string[],
  read: (member: string) => unknown,
): { value: unknown; member: string }[] | null {
  const headers = HEADER_MEMBERS.filter((m) => members.includes(m));
  const samples = members
    .flatMap((member) => {
      const match = SAMPLE_MEMBER.exec(member);
      return match === null ? [] : [{ member, id: match[1] ?? "", epoch: Number(match[2]) }];
    })
    .sort((a, b) => compareIds(a.id, b.id) || a.epoch - b.epoch);
  if (headers.length === 0 && samples.length === 0) return null;
  let context: Record<string, unknown> | null = null;
  for (const h of headers) {
    const header = read(h);
    if (isPlainObject(header) && isPlainObject(header.eval)) {
      context = evalContext(header.eval);
      break;
    }
  }
  return samples.map(({ member }) => {
    const sample = read(member);
    return { value: isUnreadableMember(sample) ? sample : { eval: context, sample }, member };
  });
}

/** The log's header: a `.json` EvalLog itself, or a `.eval` archive's header.json (or start.json). */
function inspectHeader(holder: EmptyHolder): Record<string, unknown> | null {
  if ("document" in holder) return isPlainObject(holder.document) ? holder.document : null;
  for (const m of HEADER_MEMBERS) {
    if (!holder.members.includes(m)) continue;
    const header = holder.read(m);
    if (isPlainObject(header)) return header;
  }
  return null;
}

/**
 * A log without samples, said plainly: Inspect writes one when a run is cancelled or fails before
 * its first sample completes (`status` "cancelled" or "error", with `error.message`), or while it is
 * still running ("started"); nothing in it was rejected.
 */
function inspectDescribeEmpty(holder: EmptyHolder): string {
  const header = inspectHeader(holder);
  const status = typeof header?.status === "string" ? header.status : null;
  const error =
    isPlainObject(header?.error) && typeof header.error.message === "string"
      ? header.error.message.trim()
      : "";
  const because = error === "" ? "" : `; its error: ${error}`;
  if (status === "cancelled")
    return `no samples in this log: the run was cancelled (status "cancelled") before any sample was written${because}`;
  if (status === "error")
    return `no samples in this log: the run ended in an error (status "error") before any sample was written${because}`;
  if (status === "started")
    return `no samples in this log; it may have been cancelled, or it is still running (status "started")${because}`;
  if (status === "success")
    return `no samples in this log (status "success"): the run finished, but its samples were not logged (Inspect's log_samples=False)${because}`;
  return `no samples in this log; it may have been cancelled${status === null ? "" : ` (status "${status}")`}${because}`;
}

/** Detection: 3 for a sample (with id, epoch and messages or scores), enveloped or bare. */
function inspectMatch(value: unknown): number {
  const sample = isEnvelope(value) ? value.sample : value;
  if (!isPlainObject(sample) || !("id" in sample) || !("epoch" in sample)) return 0;
  return "messages" in sample || "scores" in sample ? 3 : 0;
}

const ATTACHMENT = "attachment://";

/** Replace `attachment://<hash>` strings anywhere inside a value by the attachment's text. */
function resolveAttachments(
  value: unknown,
  attachments: Readonly<Record<string, string>>,
): unknown {
  if (typeof value === "string") {
    if (!value.startsWith(ATTACHMENT)) return value;
    return attachments[value.slice(ATTACHMENT.length)] ?? value;
  }
  if (Array.isArray(value)) return value.map((v) => resolveAttachments(v, attachments));
  if (isPlainObject(value)) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = resolveAttachments(v, attachments);
    return out;
  }
  return value;
}

const LETTERS: Readonly<Record<string, number>> = { C: 1, P: 0.5, I: 0, N: 0 };

/** Inspect's `value_to_float` for a scalar; null where Inspect would warn and use 0. */
export function inspectScoreValue(value: unknown): number | null {
  if (typeof value === "boolean") return value ? 1 : 0;
  if (typeof value === "number") return Number.isFinite(value) ? value : null;
  if (typeof value !== "string") return null;
  const letter = LETTERS[value];
  if (letter !== undefined) return letter;
  const lower = value.toLowerCase();
  if (lower === "yes" || lower === "true") return 1;
  if (lower === "no" || lower === "false") return 0;
  // Inspect: `value.replace(".", "").isnumeric()`, i.e. digits with at most one dot, no sign.
  return /^(\d+\.?\d*|\.\d+)$/.test(value) ? Number(value) : null;
}

/** Reward components from `scores`: one per scorer, dict and list values spread per key. */
function scoreComponents(
  scores: Readonly<Record<string, { readonly value?: unknown }>>,
): Record<string, number | null> {
  const out: Record<string, number | null> = {};
  for (const [name, score] of Object.entries(scores)) {
    const v = score.value;
    if (Array.isArray(v)) v.forEach((x, i) => (out[`${name}[${i}]`] = inspectScoreValue(x)));
    else if (isPlainObject(v))
      for (const [k, x] of Object.entries(v)) out[`${name}.${k}`] = inspectScoreValue(x);
    else out[name] = inspectScoreValue(v);
  }
  return out;
}

/**
 * Inspect message details the chat model has no field for, made visible: a tool error's message
 * becomes the content of an empty tool result, and reasoning parts (`{type: "reasoning",
 * reasoning}`, shown as "[reasoning]" in the content) are collected for meta.
 */
function inspectMessages(raw: unknown): { messages: unknown; reasoning: unknown[] } {
  const reasoning: unknown[] = [];
  if (!Array.isArray(raw)) return { messages: raw, reasoning };
  const messages = raw.map((m: unknown, index: number) => {
    if (!isPlainObject(m)) return m;
    if (Array.isArray(m.content))
      for (const part of m.content)
        if (isPlainObject(part) && part.type === "reasoning" && typeof part.reasoning === "string")
          reasoning.push({ message: index, reasoning: part.reasoning });
    const error = m.error;
    if (m.role === "tool" && isPlainObject(error) && typeof error.message === "string")
      if (m.content === "" || m.content === null || m.content === undefined)
        return { ...m, content: error.message };
    return m;
  });
  return { messages, reasoning };
}

function inspectRecord(ref: RecordRef, value: unknown): RecordOutcome {
  const envelope = isEnvelope(value) ? value : null;
  const raw = envelope === null ? value : envelope.sample;
  if (!isPlainObject(raw)) return { ok: false, issues: [notAnObject(ref, raw)] };
  const attachments: Record<string, string> = {};
  if (isPlainObject(raw.attachments))
    for (const [k, v] of Object.entries(raw.attachments))
      if (typeof v === "string") attachments[k] = v;
  const { messages: rawMessages, reasoning } = inspectMessages(
    resolveAttachments(raw.messages, attachments),
  );
  const resolved: Record<string, unknown> = { ...raw };
  if (raw.messages !== undefined) resolved.messages = rawMessages;
  if (raw.input !== undefined) resolved.input = resolveAttachments(raw.input, attachments);
  const parsed = inspectSampleSchema.safeParse(resolved);
  if (!parsed.success) return { ok: false, issues: schemaIssues(ref, parsed.error) };
  const sample = parsed.data;
  const all: ChatMessage[] = sample.messages ?? [];
  let prompt: string | ChatMessage[] | null;
  let messages: ChatMessage[];
  let completion: string | null = null;
  if (all.length > 0) {
    ({ prompt, messages } = splitTranscript(all));
  } else {
    prompt =
      sample.input === undefined
        ? null
        : typeof sample.input === "string"
          ? sample.input
          : normaliseMessages(sample.input);
    messages = [];
    completion = sample.output?.completion ?? null;
  }
  const rewards = scoreComponents(sample.scores ?? {});
  const [firstName, first] = Object.entries(sample.scores ?? {})[0] ?? [];
  const groupId = String(sample.id);
  const meta = omitKeys(sample, ["id", "epoch", "messages"]);
  if (reasoning.length > 0) meta.reasoning = reasoning;
  if (envelope?.eval) meta.eval = envelope.eval;
  return {
    ok: true,
    value: {
      groupId,
      id: `${groupId}/epoch ${sample.epoch}`,
      prompt,
      messages,
      completion,
      reward: firstName === undefined ? null : (rewards[firstName] ?? null),
      rewards,
      answer: typeof first?.answer === "string" ? first.answer : null,
      testsPassed: null,
      meta,
      source: ref,
      order: sample.epoch,
    },
  };
}

/** Inspect AI logs, .eval zips and .json documents; grouped by sample id. */
export const inspectFormat: FormatSpec = {
  ...FORMAT_INFO.inspect,
  groupKey: "sample id (epochs in order)",
  match: inspectMatch,
  explode: inspectExplode,
  explodeZip: inspectExplodeZip,
  describeEmpty: inspectDescribeEmpty,
  record: inspectRecord,
};
