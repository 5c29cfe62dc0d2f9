/**
 * What every CLI command writes to and reads from, the exit codes they share and the usage error.
 * Imports nothing, so `rollout-studio --help` loads almost nothing (see commands/index.ts).
 */

/** A bad command line: printed with a pointer to --help, exit code 2. */
export class UsageError extends Error {
  override name = "UsageError";
}

export interface CliIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  readonly cwd: string;
  /** The environment (e.g. OPENAI_API_KEY for `judge`); process.env when not given. */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

/**
 * 0 ok; 1 nothing could be done (missing file, no known format, bad annotations); 2 usage error;
 * 3 done, but some input was rejected or an annotation was ignored (every problem is reported with
 * its file and line).
 */
export const EXIT = { ok: 0, failed: 1, usage: 2, issues: 3 } as const;

/** A CLI command: runs with the arguments after its name and returns the exit code. */
export type CliCommand = (argv: readonly string[], io: CliIo) => Promise<number>;
