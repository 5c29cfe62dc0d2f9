/**
 * A setting declared once (name, type, default, bounds, where the default comes from, help text)
 * and what is derived from a list of them: the defaults, a stored value read back, a command-line
 * flag parsed with its error, the flags' parser options and their help lines. The settings form
 * (ui/features/settings) is derived from the same list. Pure.
 */

export interface SettingOption<V> {
  readonly value: V;
  readonly label: string;
}

/** A setting's command-line flag. */
export interface SettingFlag {
  readonly name: string;
  /** What the value is called in the help ("T"); a choice lists its options instead. */
  readonly metavar?: string;
  /** The help text; `{default}` is the default as written. Lines after the first continue it. */
  readonly help: string;
  /**
   * Which commands take it: the GAR settings (analyze, export), the analysis ones (analyze), or
   * the run's detectors (health).
   */
  readonly group: "gar" | "analysis" | "health";
}

interface SettingCommon<K extends string> {
  readonly key: K;
  readonly label: string;
  /** Its name in the dataset bar's summary of changed settings; the label by default. */
  readonly short?: string;
  /** What the setting does, when its label does not say it: the start of its tooltip. */
  readonly help?: string;
  /** Where the default comes from. */
  readonly source: string;
  /** The settings form's stable test id. */
  readonly testId: string;
  readonly flag: SettingFlag;
}

export type SettingDecl<K extends string = string> =
  | (SettingCommon<K> & {
      readonly kind: "choice";
      readonly default: string;
      readonly options: readonly SettingOption<string>[];
    })
  /** A number from a short list (the tie credit, 0 or 0.5). */
  | (SettingCommon<K> & {
      readonly kind: "number-choice";
      readonly default: number;
      readonly options: readonly SettingOption<number>[];
    })
  | (SettingCommon<K> & {
      readonly kind: "number";
      readonly default: number;
      readonly valid: (x: number) => boolean;
      /** What a valid value is, for errors: "a number >= 0", "in (0, 1]". */
      readonly rule: string;
      readonly min?: number;
      readonly max?: number;
      readonly step: number;
    })
  /** On or off; its flag (`--no-<name>`) turns it off. */
  | (SettingCommon<K> & { readonly kind: "switch"; readonly default: boolean });

export type SettingValue = string | number | boolean;

/** The values of a schema's settings, by key. */
export type SettingValues<D extends SettingDecl> = { readonly [E in D as E["key"]]: E["default"] };

/** Whether a value is one a setting takes. */
export function settingAccepts(decl: SettingDecl, value: unknown): boolean {
  switch (decl.kind) {
    case "choice":
    case "number-choice":
      return decl.options.some((o) => o.value === value);
    case "number":
      return typeof value === "number" && Number.isFinite(value) && decl.valid(value);
    case "switch":
      return typeof value === "boolean";
  }
}

/** Each setting's default. */
export function settingDefaults<D extends SettingDecl>(schema: readonly D[]): SettingValues<D> {
  // Each entry's value is its declaration's default: the mapped type says exactly that.
  return Object.fromEntries(schema.map((d) => [d.key, d.default])) as SettingValues<D>;
}

/** Settings read back from storage: each valid value is kept, anything else is its default. */
export function settingsRead<D extends SettingDecl>(
  schema: readonly D[],
  raw: Readonly<Record<string, unknown>>,
): SettingValues<D> {
  // settingAccepts checked each kept value against its declaration.
  return Object.fromEntries(
    schema.map((d) => [d.key, settingAccepts(d, raw[d.key]) ? raw[d.key] : d.default]),
  ) as SettingValues<D>;
}

/** A flag's value as parseArgs gives it: a string, true for a switch, or absent. */
export type FlagValue = string | boolean | undefined;

export type FlagRead<T> =
  { readonly ok: true; readonly value: T } | { readonly ok: false; readonly message: string };

/** What a valid value of a setting's flag is, for its error. */
function flagRule(decl: SettingDecl): string {
  switch (decl.kind) {
    case "choice":
      return `one of ${decl.options.map((o) => o.value).join(", ")}`;
    case "number-choice":
      return decl.options.map((o) => String(o.value)).join(" or ");
    case "number":
      return decl.rule;
    case "switch":
      return "given without a value";
  }
}

/** One setting from its flag: the default when absent, else the value or an error naming the flag. */
export function settingFromFlag(decl: SettingDecl, raw: FlagValue): FlagRead<SettingValue> {
  if (raw === undefined) return { ok: true, value: decl.default };
  if (decl.kind === "switch") return { ok: true, value: raw !== true };
  const refuse = (): FlagRead<SettingValue> => ({
    ok: false,
    message: `--${decl.flag.name} must be ${flagRule(decl)}; got ${String(raw)}`,
  });
  if (typeof raw !== "string") return refuse();
  if (decl.kind === "choice")
    return settingAccepts(decl, raw) ? { ok: true, value: raw } : refuse();
  const x = raw.trim() === "" ? NaN : Number(raw);
  return settingAccepts(decl, x) ? { ok: true, value: x } : refuse();
}

/** Every setting from its flag (flags by name); the first bad one is the error. */
export function settingsFromFlagValues<D extends SettingDecl>(
  schema: readonly D[],
  flags: Readonly<Record<string, FlagValue>>,
): FlagRead<SettingValues<D>> {
  const out: Record<string, SettingValue> = {};
  for (const d of schema) {
    const read = settingFromFlag(d, flags[d.flag.name]);
    if (!read.ok) return read;
    out[d.key] = read.value;
  }
  // Each value passed its declaration's check.
  return { ok: true, value: out as SettingValues<D> };
}

/** The flags of a group as `node:util` parseArgs options. */
export function settingFlagOptions(
  schema: readonly SettingDecl[],
  group: SettingFlag["group"],
): Record<string, { readonly type: "string" | "boolean" }> {
  return Object.fromEntries(
    schema
      .filter((d) => d.flag.group === group)
      .map((d) => [d.flag.name, { type: d.kind === "switch" ? "boolean" : "string" }]),
  );
}

/** A default as the help writes it. */
function defaultText(decl: SettingDecl): string {
  if (decl.kind === "switch") return decl.default ? "on" : "off";
  return String(decl.default);
}

/** The help's column where a flag's text starts. */
const HELP_COLUMN = 32;

/** A setting's flag as the help names it: `--cap C`, `--scale group|batch|none`, `--no-hack-zero`. */
export function settingFlagUsage(decl: SettingDecl): string {
  if (decl.kind === "switch") return `--${decl.flag.name}`;
  const value =
    decl.flag.metavar ?? (decl.kind === "choice" ? decl.options.map((o) => o.value).join("|") : "");
  return value === "" ? `--${decl.flag.name}` : `--${decl.flag.name} ${value}`;
}

/**
 * The help lines of these settings' flags, in the schema's order: the flag, then its text from
 * column 32 (on the next line when the flag is longer).
 */
export function settingsFlagHelp(schema: readonly SettingDecl[]): string {
  const pad = " ".repeat(HELP_COLUMN);
  return schema
    .map((d) => {
      const flag = `  ${settingFlagUsage(d)}`;
      const [first = "", ...rest] = d.flag.help.replaceAll("{default}", defaultText(d)).split("\n");
      const head =
        flag.length < HELP_COLUMN ? flag.padEnd(HELP_COLUMN) + first : `${flag}\n${pad}${first}`;
      return [head, ...rest.map((line) => pad + line)].join("\n");
    })
    .join("\n");
}
