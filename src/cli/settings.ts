/**
 * Command-line flags to analysis settings, from core's settings schema (each flag, its check and
 * its error are the setting's declaration: core/settings/analysisSchema.ts). A bad value is a
 * usage error that names the flag, never a NaN that travels into the numbers.
 */
import {
  ANALYSIS_SETTING_SCHEMA,
  settingsFromFlagValues,
  type AnalysisSettings,
  type FlagValue,
  type SettingDecl,
  type SettingValues,
} from "../core/index.ts";

import { UsageError } from "./io.ts";

export { UsageError };

type Flags = Readonly<Record<string, FlagValue>>;

/** The settings of a schema from their flags; a bad value is a UsageError naming its flag. */
export function settingsFromFlagsWith<D extends SettingDecl>(
  schema: readonly D[],
  flags: Flags,
): SettingValues<D> {
  const read = settingsFromFlagValues(schema, flags);
  if (!read.ok) throw new UsageError(read.message);
  return read.value;
}

/** The analysis settings from their flags (reward weights off: --weight is read on its own). */
export function settingsFromFlags(flags: Flags): AnalysisSettings {
  return { ...settingsFromFlagsWith(ANALYSIS_SETTING_SCHEMA, flags), rewardWeights: null };
}
