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
  FORMAT_INFO.openai,
  FORMAT_INFO.mapped,
];
