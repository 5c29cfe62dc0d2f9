/**
 * A command's arguments: its flags (strict: an unknown flag is a usage error), `--help`, and the
 * PATHs it reads: one FILE, several files, a folder or globs (one run, see ./runPaths.ts). The flag groups several commands share are declared once here, so a setting reads the
 * same (and is accepted or refused alike) in every command that takes it.
 */
import { parseArgs, type ParseArgsConfig } from "node:util";
import { ANALYSIS_SETTING_SCHEMA, settingFlagOptions } from "../core/index.ts";
import type { CliIo } from "./io.ts";
import { UsageError } from "./settings.ts";

type Flags = NonNullable<ParseArgsConfig["options"]>;

/** How FILE is read: a forced format and the field mapping (analyze, export). */
export const MAPPING_FLAGS = {
  format: { type: "string" },
  "group-key": { type: "string" },
  "text-key": { type: "string" },
  "reward-key": { type: "string", multiple: true },
  "id-key": { type: "string" },
} as const satisfies Flags;

/**
 * The GAR settings and the text rule (core's settings schema, group "gar"), and the reward weights
 * (analyze, export).
 */
export const GAR_FLAGS = {
  ...settingFlagOptions(ANALYSIS_SETTING_SCHEMA, "gar"),
  weight: { type: "string", multiple: true },
} as const satisfies Flags;

/**
 * The advantage estimator, its scaling and the in-group statistics' settings (core's settings
 * schema, group "analysis"; analyze).
 */
export const ANALYSIS_FLAGS = settingFlagOptions(
  ANALYSIS_SETTING_SCHEMA,
  "analysis",
) satisfies Flags;

const HELP_FLAG = { help: { type: "boolean", short: "h" } } as const satisfies Flags;

type Parsed<F extends Flags> = ReturnType<
  typeof parseArgs<{
    args: string[];
    allowPositionals: true;
    strict: true;
    options: F & typeof HELP_FLAG;
  }>
>;

/** The flags' values and the PATHs. */
export interface CommandArgs<F extends Flags> {
  readonly values: Parsed<F>["values"];
  /** What the PATHs are called in messages: the one FILE, or the paths joined by spaces. */
  readonly file: string;
  readonly paths: readonly string[];
}

/**
 * Parse a command's arguments. With `--help` it prints `usage` and returns null (exit 0).
 *
 * @throws UsageError for an unknown flag, a flag without its value, or no PATH
 */
export function commandArgs<F extends Flags>(
  command: string,
  argv: readonly string[],
  flags: F,
  usage: string,
  io: CliIo,
): CommandArgs<F> | null {
  let parsed: Parsed<F>;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      strict: true,
      options: { ...flags, ...HELP_FLAG },
    });
  } catch (e) {
    throw new UsageError(e instanceof Error ? e.message : String(e));
  }
  const { values, positionals } = parsed;
  if ((values as { help?: boolean }).help === true) {
    io.stdout(usage);
    return null;
  }
  if (positionals.length === 0)
    throw new UsageError(`${command} takes a FILE, several files, a folder or a glob; got none`);
  return { values, file: positionals.join(" "), paths: positionals };
}
