/**
 * The built CLI against a team database, for the team-mode specs (view-team, team,
 * team-annotator): runs `bin/rollout-studio.mjs` (the JavaScript the e2e globalSetup built) with
 * `ROLLOUT_STUDIO_DB` in the environment, so the URL with its password is never an argument, and
 * keeps every output so a spec can check the password appears in none.
 */
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

export const BIN = fileURLToPath(new URL("../../bin/rollout-studio.mjs", import.meta.url));

export interface CliRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

export interface TeamCli {
  /** Run the CLI; a non-zero exit is a result, not an error. */
  readonly run: (...args: string[]) => Promise<CliRun>;
  /** Every stdout and stderr so far. */
  readonly outputs: readonly string[];
  /** `users add NAME --role ROLE` for each person; their tokens (the output's last line). */
  readonly addUsers: (
    people: readonly (readonly [string, "lead" | "annotator"])[],
  ) => Promise<Record<string, string>>;
}

/** The CLI with the database `dbUrl()` names (read at each run: the cluster starts later). */
export function teamCli(dbUrl: () => string): TeamCli {
  const outputs: string[] = [];
  const run = async (...args: string[]): Promise<CliRun> => {
    try {
      const { stdout, stderr } = await promisify(execFile)(process.execPath, [BIN, ...args], {
        env: { ...process.env, ROLLOUT_STUDIO_FROM_SOURCE: "", ROLLOUT_STUDIO_DB: dbUrl() },
      });
      outputs.push(stdout, stderr);
      return { code: 0, stdout, stderr };
    } catch (e) {
      const failed = e as { code: number; stdout: string; stderr: string };
      outputs.push(failed.stdout, failed.stderr);
      return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
    }
  };
  const addUsers: TeamCli["addUsers"] = async (people) => {
    const tokens: Record<string, string> = {};
    for (const [name, role] of people) {
      const added = await run("users", "add", name, "--role", role);
      if (added.code !== 0)
        throw new Error(`users add ${name}: exit ${added.code}: ${added.stderr}`);
      tokens[name] = added.stdout.trimEnd().split("\n").at(-1)!;
    }
    return tokens;
  };
  return { run, outputs, addUsers };
}
