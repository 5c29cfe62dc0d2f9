/**
 * `rollout-studio`: the studio's numbers, headless, for pipelines and CI. Built on core and io only.
 * Each command lives in src/cli/commands; this module dispatches and turns errors into exit codes
 * (see EXIT in ./io.ts).
 */
// Light imports only: a command's modules (core, io's loaders, openai) load when it runs.
import { LoadError } from "../io/issues.ts";
import { COMMANDS } from "./commands/index.ts";
import { EXIT, UsageError, type CliIo } from "./io.ts";

export { EXIT, type CliIo } from "./io.ts";

/** The top-level help: the commands and how to get a command's own help. */
export function usage(): string {
  const width = Math.max(...Object.keys(COMMANDS).map((name) => name.length));
  const lines = Object.entries(COMMANDS).map(
    ([name, entry]) => `  ${name.padEnd(width)}  ${entry.summary}`,
  );
  return [
    "Usage: rollout-studio COMMAND [options]",
    "",
    "Commands:",
    ...lines,
    "",
    "Run `rollout-studio COMMAND --help` for a command's options.",
    "Exit codes: 0 ok; 1 nothing done (health: a --fail-on rule fired); 2 usage error; 3 done with rejected input or ignored annotations.",
    "",
  ].join("\n");
}

/**
 * Run the CLI with the given arguments; never throws.
 *
 * @returns the exit code (see EXIT)
 */
export async function main(argv: readonly string[], io: CliIo): Promise<number> {
  try {
    const [command, ...rest] = argv;
    if (command === undefined || command === "-h" || command === "--help") {
      (command === undefined ? io.stderr : io.stdout)(usage());
      return command === undefined ? EXIT.usage : EXIT.ok;
    }
    const entry = Object.hasOwn(COMMANDS, command) ? COMMANDS[command] : undefined;
    if (entry === undefined) {
      throw new UsageError(
        `unknown command "${command}"; the commands are ${Object.keys(COMMANDS).join(", ")}`,
      );
    }
    const run = await entry.load();
    return await run(rest, io);
  } catch (e) {
    if (e instanceof UsageError) {
      io.stderr(`rollout-studio: ${e.message}\nRun \`rollout-studio --help\` for usage.\n`);
      return EXIT.usage;
    }
    if (e instanceof LoadError) {
      io.stderr(`rollout-studio: ${e.message}\n`);
      return EXIT.failed;
    }
    io.stderr(`rollout-studio: internal error: ${e instanceof Error ? e.message : String(e)}\n`);
    return EXIT.failed;
  }
}
