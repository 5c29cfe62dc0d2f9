/**
 * Similarity of what rollouts did: their tool-call sequences, compared by the n-gram Jaccard of
 * methods.md 1.4 with calls in place of characters, alone or with the text ("Similarity compares",
 * issue 13 finding 3). "Find similar" (one rollout against the others of the dataset) and the
 * diversity clusters (all pairs of a group) both use it, in the studio's worker and in the CLI.
 */
import type { ChatMessage } from "../types.ts";
import { ngramJaccard, ngramSet } from "./ngrams.ts";
import { ngramSimilarity, ngramSimilarityOfSymbols } from "./similarity.ts";

/**
 * What the similarity compares:
 * - "text": the text under the completion rule (benchmax's diversity reward);
 * - "tools": the tool-call sequence only;
 * - "both" (default): the mean of the two Jaccards when either rollout made a tool call, else the
 *   text's (so a dataset without tool calls gets the text similarity unchanged).
 */
export type SimilarityOn = "text" | "tools" | "both";

export const SIMILARITY_ON: readonly SimilarityOn[] = ["both", "text", "tools"];

/** The text and the tool-call sequence of one rollout (see {@link toolCallSymbols}). */
export interface SimilarityInput {
  readonly text: string;
  readonly calls: readonly string[];
}

/** A JSON value with every string and number replaced by its placeholder, keys sorted. */
function abstractValue(value: unknown, names: Map<string, string>): unknown {
  if (Array.isArray(value)) return value.map((v) => abstractValue(v, names));
  if (typeof value === "object" && value !== null) {
    const record = value as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(record).sort()) out[key] = abstractValue(record[key], names);
    return out;
  }
  if (typeof value === "string" || typeof value === "number") {
    const key = `${typeof value}:${String(value)}`;
    let name = names.get(key);
    if (name === undefined) {
      name = `$${names.size + 1}`;
      names.set(key, name);
    }
    return name;
  }
  return value;
}

/**
 * A rollout's tool calls as a sequence of symbols, in transcript order (parallel calls in the order
 * given): each call is `name(arguments)`, the arguments parsed as JSON with their keys sorted and
 * every string and number value renamed `$1`, `$2`, ... in order of first appearance across the
 * rollout's calls, keys read in sorted order (the same value keeps its name; the source's key order
 * changes nothing). So `refund_order({"order_id":"W1"})` made twice
 * gives the same two symbols as `refund_order({"order_id":"W9"})` made twice in another group, while
 * a refund of an id the rollout had not used before is a different symbol from one of an id it had.
 * Arguments that are not JSON are kept as trimmed text.
 */
export function toolCallSymbols(messages: readonly ChatMessage[]): string[] {
  const names = new Map<string, string>();
  const out: string[] = [];
  for (const m of messages)
    for (const call of m.toolCalls) {
      let args: string;
      try {
        args = JSON.stringify(abstractValue(JSON.parse(call.arguments), names));
      } catch {
        args = call.arguments.trim();
      }
      out.push(`${call.name}(${args})`);
    }
  return out;
}

/**
 * The n-gram set of a call sequence by methods.md 1.4's rule, with calls for code points: every
 * window of n calls; fewer than n calls give one gram, the whole sequence; none give the empty set.
 * A gram is written as the JSON array of its calls. The definition the fast path is tested against.
 */
export function toolCallNgramSet(calls: readonly string[], n: number): Set<string> {
  const out = new Set<string>();
  if (calls.length === 0) return out;
  if (calls.length < n) {
    out.add(JSON.stringify(calls));
    return out;
  }
  for (let i = 0; i + n <= calls.length; i++) out.add(JSON.stringify(calls.slice(i, i + n)));
  return out;
}

/**
 * All-pairs Jaccard of the call sequences' n-gram sets, exactly {@link toolCallNgramSet} +
 * `ngramJaccard`: each distinct call becomes an integer symbol and the sequences go through the
 * bitset method of the texts (`ngramSimilarityOfSymbols`). Two rollouts without calls have 1.
 *
 * @returns a k x k row-major matrix with 1 on the diagonal
 */
export function toolCallSimilarity(
  sequences: readonly (readonly string[])[],
  n: number,
): Float64Array {
  const ids = new Map<string, number>();
  let total = 0;
  for (const s of sequences) total += s.length;
  const all = new Int32Array(total);
  const starts = new Int32Array(sequences.length + 1);
  let p = 0;
  sequences.forEach((sequence, t) => {
    starts[t] = p;
    for (const call of sequence) {
      let id = ids.get(call);
      if (id === undefined) {
        id = ids.size;
        ids.set(call, id);
      }
      all[p++] = id;
    }
  });
  starts[sequences.length] = p;
  return ngramSimilarityOfSymbols(all, starts, n);
}

/**
 * The similarity of two rollouts from their text and tool-call Jaccards under `on`. "both" is the
 * mean when either made a call, else the text's.
 */
export function similarityCombine(
  text: number,
  tools: number,
  eitherCalls: boolean,
  on: SimilarityOn,
): number {
  if (on === "text") return text;
  if (on === "tools") return tools;
  return eitherCalls ? (text + tools) / 2 : text;
}

/**
 * All-pairs similarity of a group's rollouts under `on` (text n-grams by the exact bitset method,
 * calls by {@link toolCallSimilarity}; each with the same n). Only what `on` needs is computed.
 *
 * @returns a k x k row-major matrix with 1 on the diagonal
 */
export function similarityMatrix(
  inputs: readonly SimilarityInput[],
  n: number,
  on: SimilarityOn,
): Float64Array {
  const k = inputs.length;
  const text =
    on === "tools"
      ? null
      : ngramSimilarity(
          inputs.map((x) => x.text),
          n,
        );
  if (on === "text") return text!;
  // "both" without a call in the group is the text's similarity, pair by pair: the calls' matrix
  // would be built for nothing (a tenth of `analyze` on 100,000 groups of short answers).
  if (on === "both" && inputs.every((x) => x.calls.length === 0)) return text!;
  const tools = toolCallSimilarity(
    inputs.map((x) => x.calls),
    n,
  );
  if (on === "tools") return tools;
  const out = new Float64Array(k * k);
  for (let i = 0; i < k; i++)
    for (let j = 0; j < k; j++) {
      const either = inputs[i]!.calls.length > 0 || inputs[j]!.calls.length > 0;
      out[i * k + j] = similarityCombine(text![i * k + j]!, tools[i * k + j]!, either, on);
    }
  return out;
}

/**
 * One rollout against many ("find similar"): linear in the candidates, by the definitions
 * (`ngramSet`, {@link toolCallNgramSet}, `ngramJaccard`), where the all-pairs matrix would be
 * quadratic in the dataset.
 *
 * @returns similarity[i] of `query` with candidates[i], in [0, 1]
 */
export function similarityToQuery(
  query: SimilarityInput,
  candidates: readonly SimilarityInput[],
  n: number,
  on: SimilarityOn,
): Float64Array {
  const qText = on === "tools" ? null : ngramSet(query.text, n);
  const qCalls = on === "text" ? null : toolCallNgramSet(query.calls, n);
  const out = new Float64Array(candidates.length);
  for (let i = 0; i < candidates.length; i++) {
    const c = candidates[i]!;
    const text = qText === null ? 0 : ngramJaccard(qText, ngramSet(c.text, n));
    const tools = qCalls === null ? 0 : ngramJaccard(qCalls, toolCallNgramSet(c.calls, n));
    out[i] = similarityCombine(text, tools, query.calls.length > 0 || c.calls.length > 0, on);
  }
  return out;
}
