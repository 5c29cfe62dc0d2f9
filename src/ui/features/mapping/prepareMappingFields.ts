/**
 * The field-mapping dialog's view model, from the records sampled at the start of the file: the
 * fields found (top-level keys, and one level of dotted keys inside objects) with a sample value
 * each, the guessed picks, the options each picker offers, and the live preview of the groups the
 * picks would make. Pure; MappingDialog renders what this returns.
 */
import { fieldAt } from "../../../store/mappingSample.ts";
import type { FieldMapping } from "../../../store/slices/presetsSlice.ts";

export type FieldKind =
  | "text"
  /** Text that reads as a number, as every number in a CSV is: fits keys, text and rewards. */
  | "numeric text"
  | "number"
  | "boolean"
  | "messages"
  | "list"
  | "object"
  | "empty";

export interface MappingField {
  /** The path the mapped format reads: a key, or `parent.child` one level down. */
  readonly path: string;
  /** The kind of the first non-empty value seen. */
  readonly kind: FieldKind;
  /** The first non-empty value, shown as short text ("" when every value was empty). */
  readonly sample: string;
  /** How many sampled records have the field. */
  readonly present: number;
}

/** Longest sample value shown, in characters. */
export const SAMPLE_CHARS = 60;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

const isEmpty = (value: unknown): boolean =>
  value === undefined || value === null || (typeof value === "string" && value.trim() === "");

const NUMERIC_TEXT = /^\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\s*$/;

function kindOf(value: unknown): FieldKind {
  if (isEmpty(value)) return "empty";
  if (typeof value === "number") return "number";
  if (typeof value === "boolean") return "boolean";
  if (typeof value === "string") return NUMERIC_TEXT.test(value) ? "numeric text" : "text";
  if (Array.isArray(value))
    return value.length > 0 && value.every((m) => isRecord(m) && typeof m.role === "string")
      ? "messages"
      : "list";
  return "object";
}

function shorten(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > SAMPLE_CHARS ? `${flat.slice(0, SAMPLE_CHARS - 1)}…` : flat;
}

function describeSample(value: unknown, kind: FieldKind): string {
  switch (kind) {
    case "empty":
      return "";
    case "messages":
    case "list": {
      const n = Array.isArray(value) ? value.length : 0;
      const noun = kind === "messages" ? "message" : "item";
      return `[${n} ${noun}${n === 1 ? "" : "s"}]`;
    }
    case "object":
      return "{…}";
    default:
      return shorten(String(value));
  }
}

/**
 * The fields of the sampled records, in first-seen order after the `columns` given (a CSV header,
 * so every column shows even when no row fits in the sample). An object-valued key is replaced by
 * its children (`meta` by `meta.task_id`, …): the object itself can be no group, text or reward.
 * Records that are not objects are skipped.
 */
export function discoverFields(
  records: readonly unknown[],
  columns: readonly string[] = [],
): MappingField[] {
  const seen = new Map<string, { value: unknown; kind: FieldKind; present: number }>();
  for (const column of columns) seen.set(column, { value: undefined, kind: "empty", present: 0 });
  const visit = (path: string, value: unknown): void => {
    const kind = kindOf(value);
    const entry = seen.get(path);
    if (entry === undefined) seen.set(path, { value, kind, present: 1 });
    else {
      entry.present++;
      if (entry.kind === "empty" && kind !== "empty") {
        entry.value = value;
        entry.kind = kind;
      }
    }
  };
  for (const record of records) {
    if (!isRecord(record)) continue;
    for (const [key, value] of Object.entries(record)) {
      if (isRecord(value)) for (const [sub, v] of Object.entries(value)) visit(`${key}.${sub}`, v);
      else visit(key, value);
    }
  }
  return [...seen.entries()].map(([path, e]) => ({
    path,
    kind: e.kind,
    sample: describeSample(e.value, e.kind),
    present: e.present,
  }));
}

/** Names that usually hold each role, best first, matched case-insensitively on the last segment. */
export const GUESS_NAMES = {
  group: ["group_id", "prompt_id", "task_id", "example_id", "scenario_id", "question", "prompt"],
  id: ["id", "uid", "rollout_id"],
  text: ["completion", "response", "output", "text", "messages"],
  reward: ["reward", "score"],
} as const;

const lastSegment = (path: string): string => (path.split(".").pop() ?? path).toLowerCase();

/** The first field, in the order of `names`, whose name (or last segment) is one of them. */
function byName(
  fields: readonly MappingField[],
  names: readonly string[],
  accept: (f: MappingField) => boolean,
): MappingField | undefined {
  for (const name of names) {
    const whole = fields.find((f) => f.path.toLowerCase() === name && accept(f));
    if (whole !== undefined) return whole;
    const nested = fields.find((f) => lastSegment(f.path) === name && accept(f));
    if (nested !== undefined) return nested;
  }
  return undefined;
}

const KEY_KINDS: ReadonlySet<FieldKind> = new Set(["text", "numeric text", "number", "empty"]);
const TEXT_KINDS: ReadonlySet<FieldKind> = new Set(["text", "numeric text", "messages", "empty"]);
const REWARD_KINDS: ReadonlySet<FieldKind> = new Set([
  "numeric text",
  "number",
  "boolean",
  "empty",
]);
const canBeKey = (f: MappingField): boolean => KEY_KINDS.has(f.kind);
const canBeText = (f: MappingField): boolean => TEXT_KINDS.has(f.kind);
const canBeReward = (f: MappingField): boolean => REWARD_KINDS.has(f.kind);

/** No picks at all. */
export const NO_PICKS: FieldMapping = { groupKey: "", idKey: "", textKey: "", rewardKeys: [] };

/**
 * Guess the picks from the field names (GUESS_NAMES): exact names first, then a name containing
 * one (`answer_text` for text, `reward_total` for reward). A field is guessed for one role at most.
 * Reward: `reward`, else every `rewards.*` child (summed as components), else `score`, else the
 * numeric fields whose name contains "reward" or "score".
 */
export function guessPicks(fields: readonly MappingField[]): FieldMapping {
  const taken = new Set<string>();
  const free = (accept: (f: MappingField) => boolean) => (f: MappingField) =>
    !taken.has(f.path) && accept(f);
  const pick = (
    names: readonly string[],
    accept: (f: MappingField) => boolean,
    fuzzy: boolean,
  ): string => {
    const exact = byName(fields, names, free(accept));
    const found =
      exact ??
      (fuzzy
        ? fields.find(
            (f) =>
              free(accept)(f) && names.some((n) => lastSegment(f.path).includes(n.split("_")[0]!)),
          )
        : undefined);
    if (found === undefined) return "";
    taken.add(found.path);
    return found.path;
  };
  const groupKey = pick(GUESS_NAMES.group, canBeKey, true);
  const textKey = pick(GUESS_NAMES.text, canBeText, true);
  const idKey = pick(GUESS_NAMES.id, canBeKey, false);

  const rewardable = fields.filter(free(canBeReward));
  const exactReward = rewardable.find((f) => f.path.toLowerCase() === "reward");
  const components = rewardable.filter((f) => f.path.toLowerCase().startsWith("rewards."));
  const score = rewardable.find((f) => f.path.toLowerCase() === "score");
  const fuzzyRewards = rewardable.filter(
    (f) => f.kind !== "empty" && /reward|score/.test(lastSegment(f.path)),
  );
  const rewardKeys =
    exactReward !== undefined
      ? [exactReward.path]
      : components.length > 0
        ? components.map((f) => f.path)
        : score !== undefined
          ? [score.path]
          : fuzzyRewards.map((f) => f.path);
  return { groupKey, idKey, textKey, rewardKeys };
}

/** A group key or id cell as the mapped format accepts it: non-blank text or an integer. */
function keyCell(value: unknown): string | null {
  if (typeof value === "string" && value.trim() !== "") return value;
  if (typeof value === "number" && Number.isInteger(value)) return String(value);
  return null;
}

export interface MappingPreview {
  /** Sampled records that are objects. */
  readonly records: number;
  /** Records the picks would read: a usable group key, and text (when a text field is picked). */
  readonly usable: number;
  readonly groups: number;
  readonly minSize: number;
  readonly maxSize: number;
  /** Records whose group key is missing or not text/an integer. */
  readonly missingGroup: number;
  /** Records whose text field is missing or neither text nor a list. */
  readonly missingText: number;
}

/** How the picks would group the sampled records. */
export function previewMapping(records: readonly unknown[], picks: FieldMapping): MappingPreview {
  const sizes = new Map<string, number>();
  let total = 0;
  let missingGroup = 0;
  let missingText = 0;
  for (const record of records) {
    if (!isRecord(record)) continue;
    total++;
    const group = picks.groupKey === "" ? null : keyCell(fieldAt(record, picks.groupKey));
    const text = picks.textKey === "" ? undefined : fieldAt(record, picks.textKey);
    const hasText = picks.textKey === "" || typeof text === "string" || Array.isArray(text);
    if (group === null) missingGroup++;
    if (!hasText) missingText++;
    if (group === null || !hasText) continue;
    sizes.set(group, (sizes.get(group) ?? 0) + 1);
  }
  const counts = [...sizes.values()];
  return {
    records: total,
    usable: counts.reduce((a, b) => a + b, 0),
    groups: counts.length,
    minSize: counts.length === 0 ? 0 : Math.min(...counts),
    maxSize: counts.length === 0 ? 0 : Math.max(...counts),
    missingGroup,
    missingText,
  };
}

const plural = (n: number, noun: string): string =>
  `${n.toLocaleString("en-US")} ${noun}${n === 1 ? "" : "s"}`;

/** The preview as one line: "3 groups of 4 rollouts in the sample" (a range when sizes differ). */
export function previewLine(preview: MappingPreview): string {
  if (preview.groups === 0) return "No groups in the sample yet: pick the group key and the text.";
  const size =
    preview.minSize === preview.maxSize
      ? plural(preview.maxSize, "rollout")
      : `${preview.minSize}–${preview.maxSize} rollouts`;
  return `${plural(preview.groups, "group")} of ${size} in the sample`;
}

export interface FieldOption {
  readonly path: string;
  /** "path — sample", or "path (not in the sample)" for a picked field the sample lacks. */
  readonly label: string;
}

/** Up to this many fields, the fields table starts expanded. */
export const FIELDS_EXPANDED_MAX = 12;

export interface MappingModel {
  readonly fields: readonly MappingField[];
  /** Whether the fields table starts expanded (short lists) or collapsed. */
  readonly fieldsExpanded: boolean;
  /** The picks as they will be loaded and saved: see `cleanPicks`. */
  readonly mapping: FieldMapping;
  /** Options for the group, id and text pickers: the sample's fields, plus any picked field the
   * sample lacks (from a preset), so a pick is never silently dropped. */
  readonly keyOptions: readonly FieldOption[];
  readonly textOptions: readonly FieldOption[];
  readonly rewardOptions: readonly FieldOption[];
  readonly preview: MappingPreview;
  readonly previewLine: string;
  /** Why the picks cannot be loaded yet, or are suspicious; empty when all is well. */
  readonly problems: readonly string[];
  readonly canSubmit: boolean;
}

function optionsFor(
  fields: readonly MappingField[],
  accept: (f: MappingField) => boolean,
  picked: readonly string[],
): FieldOption[] {
  const option = (f: MappingField): FieldOption => ({
    path: f.path,
    label: f.sample === "" ? f.path : `${f.path} — ${f.sample}`,
  });
  const options = fields.filter(accept).map(option);
  for (const path of picked) {
    if (path === "" || options.some((o) => o.path === path)) continue;
    const field = fields.find((f) => f.path === path);
    options.push(
      field === undefined ? { path, label: `${path} (not in the sample)` } : option(field),
    );
  }
  return options;
}

/**
 * The picks as loaded: typed names (`typed`, when the sample had no fields) are trimmed, and empty
 * reward names dropped. Names chosen from the sample are kept exactly (a CSV header may have spaces).
 */
export function cleanPicks(picks: FieldMapping, typed: boolean): FieldMapping {
  const clean = (name: string): string => (typed ? name.trim() : name);
  const rewardKeys = picks.rewardKeys.map(clean).filter((r) => r !== "");
  return {
    groupKey: clean(picks.groupKey),
    idKey: clean(picks.idKey),
    textKey: clean(picks.textKey),
    rewardKeys: [...new Set(rewardKeys)],
  };
}

/**
 * Everything the dialog shows for the sampled records and the current picks. Key pickers offer
 * text and number fields; the text picker text and message lists; the reward picker numbers,
 * numeric text and booleans. Numeric text (every CSV number) fits all three, and fields empty in
 * the whole sample are offered everywhere.
 */
export function prepareMappingFields(
  records: readonly unknown[],
  picks: FieldMapping,
  columns: readonly string[] = [],
): MappingModel {
  const fields = discoverFields(records, columns);
  const mapping = cleanPicks(picks, fields.length === 0);
  const preview = previewMapping(records, mapping);
  const problems: string[] = [];
  if (mapping.groupKey === "") problems.push("Pick the field that names each rollout's group.");
  if (mapping.textKey === "") problems.push("Pick the field with the rollout's text or messages.");
  const roles = [mapping.groupKey, mapping.textKey, mapping.idKey].filter((p) => p !== "");
  if (new Set(roles).size < roles.length)
    problems.push("The group key, id and text must be different fields.");
  if (mapping.rewardKeys.some((r) => roles.includes(r)))
    problems.push("A reward field is also used as the group key, id or text.");
  if (records.length > 0 && mapping.groupKey !== "" && mapping.textKey !== "") {
    if (preview.missingGroup > 0)
      problems.push(
        `${plural(preview.missingGroup, "sampled record")} ${preview.missingGroup === 1 ? "has" : "have"} no usable group key (text or an integer) in ${mapping.groupKey}.`,
      );
    if (preview.missingText > 0)
      problems.push(
        `${plural(preview.missingText, "sampled record")} ${preview.missingText === 1 ? "has" : "have"} no text or messages in ${mapping.textKey}.`,
      );
  }
  return {
    fields,
    fieldsExpanded: fields.length <= FIELDS_EXPANDED_MAX,
    mapping,
    keyOptions: optionsFor(fields, canBeKey, [mapping.groupKey, mapping.idKey]),
    textOptions: optionsFor(fields, canBeText, [mapping.textKey]),
    rewardOptions: optionsFor(fields, canBeReward, mapping.rewardKeys),
    preview,
    previewLine: previewLine(preview),
    problems,
    canSubmit:
      mapping.groupKey !== "" && mapping.textKey !== "" && new Set(roles).size === roles.length,
  };
}
