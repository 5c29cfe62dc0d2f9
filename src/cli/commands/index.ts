/**
 * The CLI's commands by name, each with a one-line summary for `rollout-studio --help`.
 * A command lives in its own module beside this one and is imported only when it runs, so
 * `--help` (and a command's own start) loads none of the others: the built CLI keeps each in its
 * own chunk (vite.cli.config.ts).
 */
import type { CliCommand } from "../io.ts";

export interface CommandEntry {
  /** Imports the command's module and returns its runner. */
  readonly load: () => Promise<CliCommand>;
  readonly summary: string;
}

export const COMMANDS: Readonly<Record<string, CommandEntry>> = {
  view: {
    load: async () => (await import("./view.ts")).viewCommand,
    summary:
      "serve the studio and a run's files (folders, files, globs) here or on a GPU box over SSH",
  },
  analyze: {
    load: async () => (await import("./analyze.ts")).analyzeCommand,
    summary: "group statistics, GRPO and GAR advantages, clusters and pass^k of a dump",
  },
  judge: {
    load: async () => (await import("./judge.ts")).judgeCommand,
    summary: "grade groups with an LLM judge or the offline heuristic; writes the annotations file",
  },
  verify: {
    load: async () => (await import("./verify.ts")).verifyCommand,
    summary: "unit-test rewards: each rollout's code against its tests, only inside your --sandbox",
  },
  health: {
    load: async () => (await import("./health.ts")).healthCommand,
    summary:
      "a training run's health per step, its detectors' alerts (--fail-on: a CI gate), run against run",
  },
  export: {
    load: async () => (await import("./export.ts")).exportCommand,
    summary: "training files: calibration set, rubrics, shaped rewards, DPO pairs, annotations",
  },
  users: {
    load: async () => (await import("./users.ts")).usersCommand,
    summary: "the team store's people (PostgreSQL): add prints a personal token, list, revoke",
  },
};
