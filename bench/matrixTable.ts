/**
 * The benchmark matrix's table (issue 16): one row per shape and size, the Node half's figures
 * (bench/matrix.ts) beside the browser half's (bench/matrixBrowser.ts). Each half saves its rows in
 * bench/.data/matrix/results-{node,browser}.json, and each prints the table of both at its end, so
 * a run of one half shows the other's last figures too (with the time they were taken).
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

import { MATRIX_DATA_DIR, SHAPE_NAMES } from "./shapes.ts";

export interface NodeMatrixRow {
  readonly shape: string;
  readonly sizeMB: number;
  readonly bytes: number;
  /** runLoad's first-group reply, ms from the start of the load. */
  readonly firstGroupMs: number;
  readonly indexMs: number;
  readonly bytesOnlyMs: number;
  readonly jsonParseMs: number;
  /** Wall time of `rollout-studio analyze FILE` (a whole process); NaN when it failed. */
  readonly analyzeMs: number;
  readonly analyzeMaxRssBytes: number;
  /** Heap + ArrayBuffers held by the finished index (the worker's state), after a full GC. */
  readonly heapBytes: number;
}

export interface BrowserMatrixRow {
  readonly shape: string;
  readonly sizeMB: number;
  readonly bytes: number;
  /** file-selected -> first-group-painted. */
  readonly ttfgMs: number;
  /** file-selected -> index-done. */
  readonly indexMs: number;
  /** Bytes-only BYOB read of the same file in a blank page. */
  readonly readMs: number;
  /** Longest main-thread long task between file-selected and index-done (0 when none). */
  readonly longestTaskMs: number;
  /** Rollouts -> Metrics -> Divergence with the largest rollout's group open: wall time, and its longest task. */
  readonly tabSwitchMs: number;
  readonly tabSwitchLongestTaskMs: number;
}

interface Saved<T> {
  readonly at: string;
  readonly loadAverage: readonly number[];
  readonly rows: readonly T[];
}

const resultsPath = (half: "node" | "browser"): string =>
  join(MATRIX_DATA_DIR, `results-${half}.json`);

/** Save a half's rows, merged over its previous results (a run of some shapes or sizes keeps the rest). */
export function saveMatrixRows<T extends { shape: string; sizeMB: number }>(
  half: "node" | "browser",
  rows: readonly T[],
  loadAverage: readonly number[],
): void {
  const old = loadMatrixRows<T>(half);
  const key = (r: T): string => `${r.shape}/${r.sizeMB}`;
  const fresh = new Set(rows.map(key));
  const merged = [...(old?.rows ?? []).filter((r) => !fresh.has(key(r))), ...rows];
  const saved: Saved<T> = { at: new Date().toISOString(), loadAverage, rows: merged };
  writeFileSync(resultsPath(half), JSON.stringify(saved));
}

function loadMatrixRows<T>(half: "node" | "browser"): Saved<T> | null {
  const path = resultsPath(half);
  if (!existsSync(path)) return null;
  try {
    return JSON.parse(readFileSync(path, "utf8")) as Saved<T>;
  } catch {
    return null;
  }
}

const MB = 1e6;
const ms = (x: number | undefined): string =>
  x === undefined || !Number.isFinite(x) ? "–" : `${Math.round(x).toLocaleString("en-US")} ms`;
const rate = (bytes: number, t: number | undefined): string =>
  t === undefined || !Number.isFinite(t) || t <= 0 ? "–" : `${Math.round(bytes / MB / (t / 1000))}`;

/** The markdown table of both halves' saved rows, shape by shape, size by size. */
export function matrixTable(): string {
  const node = loadMatrixRows<NodeMatrixRow>("node");
  const browser = loadMatrixRows<BrowserMatrixRow>("browser");
  const keys = new Map<string, { shape: string; sizeMB: number }>();
  for (const r of [...(node?.rows ?? []), ...(browser?.rows ?? [])])
    keys.set(`${r.shape}/${r.sizeMB}`, { shape: r.shape, sizeMB: r.sizeMB });
  const order = (s: string): number => (SHAPE_NAMES as readonly string[]).indexOf(s);
  const sorted = [...keys.values()].sort(
    (a, b) => order(a.shape) - order(b.shape) || a.sizeMB - b.sizeMB,
  );
  const lines = [
    "| Shape | Size | First group: Node / Chromium | Index MB/s: Node / Chromium (Node bytes-only, JSON.parse; Chromium read) | `analyze` MB/s (peak RSS) | Heap / file | Longest task while indexing | Tab switch, largest rollout (longest task) |",
    "| --- | --- | --- | --- | --- | --- | --- | --- |",
  ];
  for (const { shape, sizeMB } of sorted) {
    const n = node?.rows.find((r) => r.shape === shape && r.sizeMB === sizeMB);
    const b = browser?.rows.find((r) => r.shape === shape && r.sizeMB === sizeMB);
    const bytes = n?.bytes ?? b?.bytes ?? sizeMB * MB;
    const index =
      `${rate(bytes, n?.indexMs)} / ${rate(bytes, b?.indexMs)} ` +
      `(Node ${rate(bytes, n?.bytesOnlyMs)}, ${rate(bytes, n?.jsonParseMs)}; Chromium read ${rate(bytes, b?.readMs)})`;
    const analyze =
      n === undefined || !Number.isFinite(n.analyzeMs)
        ? "–"
        : `${rate(bytes, n.analyzeMs)} (${Math.round(n.analyzeMaxRssBytes / MB)} MB)`;
    const heap =
      n === undefined
        ? "–"
        : `${(n.heapBytes / bytes).toFixed(3)} (${(n.heapBytes / MB).toFixed(1)} MB)`;
    const tab = b === undefined ? "–" : `${ms(b.tabSwitchMs)} (${ms(b.tabSwitchLongestTaskMs)})`;
    lines.push(
      `| ${shape} | ${sizeMB} MB | ${ms(n?.firstGroupMs)} / ${ms(b?.ttfgMs)} | ${index} | ${analyze} | ${heap} | ${b === undefined ? "–" : ms(b.longestTaskMs)} | ${tab} |`,
    );
  }
  const when = (s: Saved<unknown> | null, what: string): string =>
    s === null
      ? `${what}: no results yet`
      : `${what}: ${s.at}, load average ${s.loadAverage.map((l) => l.toFixed(2)).join(" ")}`;
  return `${lines.join("\n")}\n\n${when(node, "Node half")}; ${when(browser, "browser half")}\n`;
}
