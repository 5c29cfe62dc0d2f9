/**
 * The CLI's commands by name, each with a one-line summary for `rollout-studio --help`.
 * A command lives in its own module beside this one.
 */
import type { CliCommand } from "../io.ts";
import { analyzeCommand } from "./analyze.ts";
import { judgeCommand } from "./judge.ts";
import { exportCommand } from "./export.ts";
import { verifyCommand } from "./verify.ts";

export interface CommandEntry {
  readonly run: CliCommand;
  readonly summary: string;
}

export const COMMANDS: Readonly<Record<string, CommandEntry>> = {
  analyze: {
    run: analyzeCommand,
    summary: "group statistics, GRPO and GAR advantages, clusters and pass^k of a dump",
  },
  judge: {
    run: judgeCommand,
    summary: "grade groups with an LLM judge or the offline heuristic; writes the annotations file",
  },
  verify: {
    run: verifyCommand,
    summary: "unit-test rewards: each rollout's code against its tests, only inside your --sandbox",
  },
  export: {
    run: exportCommand,
    summary: "training files: calibration set, rubrics, shaped rewards, DPO pairs, annotations",
  },
};
