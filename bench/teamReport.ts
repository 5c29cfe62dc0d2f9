/**
 * bench/team.ts's numbers and checks, pure: latency percentiles, the per-store summary and its
 * ratios to the file store, the table, and the read-back check that every acknowledged write is in
 * the store.
 *
 * The read-back check rests on the versions: each acknowledged write names the version it was
 * based on (If-Match) and the one it made. Per chain (the shared file, a person's document, a
 * person's group) the acknowledged writes must form one line from the first version to the
 * stored one: two writes on the same base would be a lost update. Each write changed one group
 * over its base, so the stored value of every group must equal the last write of it along the
 * line, and no group may be stored that no write made.
 */
import type { GroupAnnotation, GroupId } from "../src/core/index.ts";
import type { TeamAck } from "./teamClient.ts";

/** The p-th percentile (0 < p <= 100) by nearest rank: the smallest value with p% at or below it. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

export interface StoreSummary {
  readonly store: string;
  readonly writes: number;
  readonly seconds: number;
  readonly writesPerSecond: number;
  readonly p50Ms: number;
  readonly p95Ms: number;
  readonly p99Ms: number;
  readonly maxMs: number;
  readonly conflicts: number;
  readonly failures: number;
  readonly unfinished: number;
  /** The fewest and the most writes one annotator got acknowledged (fairness under contention). */
  readonly perAnnotator: { readonly min: number; readonly max: number };
  /** CPU seconds over the store's phases: this process (the clients), the view server, PostgreSQL. */
  readonly cpu: CpuSeconds;
}

export interface CpuSeconds {
  clients: number;
  server: number;
  db: number;
}

export function storeSummary(
  store: string,
  latenciesMs: readonly number[],
  seconds: number,
  counts: {
    conflicts: number;
    failures: number;
    unfinished: number;
    cpu: CpuSeconds;
    acks: readonly TeamAck[];
    annotators: readonly string[];
  },
): StoreSummary {
  const byUser = new Map<string, number>(counts.annotators.map((name) => [name, 0]));
  for (const ack of counts.acks) byUser.set(ack.user, (byUser.get(ack.user) ?? 0) + 1);
  return {
    store,
    writes: latenciesMs.length,
    seconds,
    writesPerSecond: latenciesMs.length / seconds,
    p50Ms: percentile(latenciesMs, 50),
    p95Ms: percentile(latenciesMs, 95),
    p99Ms: percentile(latenciesMs, 99),
    maxMs: percentile(latenciesMs, 100),
    conflicts: counts.conflicts,
    failures: counts.failures,
    unfinished: counts.unfinished,
    perAnnotator: { min: Math.min(...byUser.values()), max: Math.max(...byUser.values()) },
    cpu: { ...counts.cpu },
  };
}

const fixed = (x: number, digits: number): string =>
  Number.isFinite(x) ? x.toLocaleString("en-US", { maximumFractionDigits: digits }) : "-";

/** The markdown table: one row per store, ratios against the first row (the file store). */
export function summaryTable(rows: readonly StoreSummary[]): string {
  const file = rows[0]!;
  const header =
    "| Store | Writes | Writes/s | × file | p50 ms | p95 ms | p99 ms | max ms | p95 × file | Per annotator | 409s | Failures | Unfinished | CPU s: clients / view / PostgreSQL |";
  const lines = rows.map((r) =>
    [
      r.store,
      fixed(r.writes, 0),
      fixed(r.writesPerSecond, 1),
      fixed(r.writesPerSecond / file.writesPerSecond, 2),
      fixed(r.p50Ms, 1),
      fixed(r.p95Ms, 1),
      fixed(r.p99Ms, 1),
      fixed(r.maxMs, 0),
      fixed(r.p95Ms / file.p95Ms, 3),
      `${r.perAnnotator.min}–${r.perAnnotator.max}`,
      fixed(r.conflicts, 0),
      fixed(r.failures, 0),
      fixed(r.unfinished, 0),
      `${fixed(r.cpu.clients, 1)} / ${fixed(r.cpu.server, 1)} / ${fixed(r.cpu.db, 1)} of ${fixed(r.seconds, 1)} s`,
    ].join(" | "),
  );
  return [header, `|${" --- |".repeat(14)}`, ...lines.map((l) => `| ${l} |`)].join("\n");
}

/** JSON with object keys sorted, so two equal values print the same whatever their key order. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (typeof value === "object" && value !== null)
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`)
      .join(",")}}`;
  return JSON.stringify(value);
}

/** What one chain's store holds: its version now and its groups (a group chain: that group). */
export interface ChainStored {
  readonly version: string;
  readonly groups: Readonly<Record<GroupId, GroupAnnotation>>;
}

/**
 * The problems of one chain's acknowledged writes against what is stored (none: every write is
 * there). `acks` in any order.
 */
export function chainProblems(
  chain: string,
  acks: readonly TeamAck[],
  stored: ChainStored,
): string[] {
  if (acks.length === 0) return [];
  const byBase = new Map<string, TeamAck>();
  const made = new Set<string>();
  const problems: string[] = [];
  for (const ack of acks) {
    const twin = byBase.get(ack.base);
    if (twin !== undefined)
      problems.push(
        `${chain}: two writes acknowledged on version ${ack.base} (${twin.version} and ${ack.version}): a lost update`,
      );
    byBase.set(ack.base, ack);
    made.add(ack.version);
  }
  if (problems.length > 0) return problems;
  const starts = acks.filter((a) => !made.has(a.base));
  if (starts.length !== 1)
    return [`${chain}: the writes do not form one line of versions (${starts.length} starts)`];
  const last = new Map<GroupId, GroupAnnotation>();
  let at = starts[0]!.base;
  let walked = 0;
  for (let ack = byBase.get(at); ack !== undefined; ack = byBase.get(at)) {
    last.set(ack.groupId, ack.annotation);
    at = ack.version;
    if (++walked > acks.length) return [`${chain}: the versions loop`];
  }
  if (walked !== acks.length)
    problems.push(`${chain}: ${acks.length - walked} acknowledged writes are off the line`);
  if (at !== stored.version)
    problems.push(`${chain}: the last write made version ${at}, the store holds ${stored.version}`);
  for (const [groupId, annotation] of last) {
    const held = Object.hasOwn(stored.groups, groupId) ? stored.groups[groupId] : undefined;
    if (held === undefined || canonicalJson(held) !== canonicalJson(annotation))
      problems.push(`${chain}: group ${groupId} is not as its last acknowledged write left it`);
  }
  for (const groupId of Object.keys(stored.groups))
    if (!last.has(groupId))
      problems.push(`${chain}: group ${groupId} is stored, but never written`);
  return problems;
}

/** Acknowledged writes by chain. */
export function acksByChain(acks: readonly TeamAck[]): Map<string, TeamAck[]> {
  const chains = new Map<string, TeamAck[]>();
  for (const ack of acks) {
    const list = chains.get(ack.chain);
    if (list === undefined) chains.set(ack.chain, [ack]);
    else list.push(ack);
  }
  return chains;
}
