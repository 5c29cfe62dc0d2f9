/**
 * What each format is called and which containers it reads, without its parser: the studio's main
 * thread lists formats (the "read as" menu) without loading the parsers and their schemas, which
 * run in the load worker. Each format spec takes its id, label and containers from here.
 */
import type { Container } from "./spec.ts";

export interface FormatInfo {
  readonly id: string;
  readonly label: string;
  readonly containers: readonly Container[];
  /**
   * One file is one rollout (agent trajectories): in a run, files of this format are not told apart
   * by step, and their groups of one id are one group (io/runs/runDataset.ts).
   */
  readonly groupsAcrossFiles?: boolean;
}

export const FORMAT_INFO = {
  native: { id: "native", label: "Rollout Studio JSONL", containers: ["jsonl"] },
  tauBench: { id: "tau-bench", label: "tau-bench results", containers: ["json-array"] },
  tau2: { id: "tau2", label: "tau2-bench results", containers: ["json-document"] },
  inspect: { id: "inspect", label: "Inspect AI eval log", containers: ["zip", "json-document"] },
  trl: { id: "trl", label: "TRL logged completions", containers: ["parquet", "jsonl", "csv"] },
  verl: { id: "verl", label: "verl rollout dump", containers: ["jsonl"] },
  benchmax: { id: "benchmax", label: "benchmax rollouts", containers: ["jsonl", "json-array"] },
  whileai: { id: "whileai", label: "whileai rows", containers: ["jsonl"] },
  sweAgent: {
    id: "swe-agent",
    label: "SWE-agent trajectory",
    containers: ["json-document", "jsonl"],
    groupsAcrossFiles: true,
  },
  openhands: {
    id: "openhands",
    label: "OpenHands eval output",
    containers: ["jsonl"],
    groupsAcrossFiles: true,
  },
  atif: {
    id: "atif",
    label: "Harbor ATIF trajectory",
    containers: ["json-document", "jsonl"],
    groupsAcrossFiles: true,
  },
  verifiers: { id: "verifiers", label: "verifiers vf-eval results", containers: ["jsonl"] },
  nemoGym: { id: "nemo-gym", label: "NeMo Gym rollouts", containers: ["jsonl"] },
  atropos: { id: "atropos", label: "Atropos scored groups", containers: ["jsonl"] },
  openai: { id: "openai", label: "OpenAI chat rows", containers: ["jsonl", "json-array"] },
  mapped: {
    id: "mapped",
    label: "Mapped fields",
    containers: ["jsonl", "json-array", "csv", "parquet"],
  },
} as const satisfies Record<string, FormatInfo>;

/** In the registry's order (detection's display order). */
export const FORMAT_CATALOG: readonly FormatInfo[] = [
  FORMAT_INFO.native,
  FORMAT_INFO.tauBench,
  FORMAT_INFO.tau2,
  FORMAT_INFO.inspect,
  FORMAT_INFO.trl,
  FORMAT_INFO.verl,
  FORMAT_INFO.benchmax,
  FORMAT_INFO.whileai,
  FORMAT_INFO.sweAgent,
  FORMAT_INFO.openhands,
  FORMAT_INFO.atif,
  FORMAT_INFO.verifiers,
  FORMAT_INFO.nemoGym,
  FORMAT_INFO.atropos,
  FORMAT_INFO.openai,
  FORMAT_INFO.mapped,
];

/** Whether a format's files are one rollout each, grouped across the files of a run. */
export function formatGroupsAcrossFiles(id: string): boolean {
  return FORMAT_CATALOG.some((f) => f.id === id && f.groupsAcrossFiles === true);
}
