/**
 * How a format's rows are grouped from the byte index alone, without parsing them: which top-level
 * keys to extract, and how they give the row's group, id and reward. The full parser (the format's
 * `record`) must agree with this on every row it accepts; loaders.test.ts checks it on the fixtures.
 * Only formats whose group key is a plain top-level value can be indexed; the others load whole.
 */
import { RESERVED_ID, RESERVED_MESSAGE } from "../formats/records.ts";
import { shortHash } from "../formats/hash.ts";
import { describeValue } from "../formats/schemaParts.ts";
import type { JsonlFieldValue, JsonlIndexKey } from "./jsonlIndexer.ts";

export interface IndexedRowKey {
  readonly groupId: string;
  /** The row's own id, or null to default it to `<group>/<index in group>`. */
  readonly id: string | null;
  /** NaN when the row has no reward. */
  readonly reward: number;
  readonly prompt: string;
}

export type IndexedRowRead =
  | { readonly ok: true; readonly key: IndexedRowKey }
  | { readonly ok: false; readonly field: string; readonly message: string };

export interface FormatIndexSpec {
  readonly keys: readonly JsonlIndexKey[];
  readonly read: (values: readonly JsonlFieldValue[]) => IndexedRowRead;
}

const isComposite = (v: JsonlFieldValue): v is Extract<JsonlFieldValue, { kind: string }> =>
  typeof v === "object" && v !== null;

function shown(v: JsonlFieldValue): string {
  if (isComposite(v))
    return v.kind === "parsed"
      ? describeValue(v.value)
      : v.kind === "raw"
        ? describeValue(JSON.parse(v.json))
        : "an object or array";
  return describeValue(v);
}

/** An id as native JSONL accepts it: a non-empty string or an integer. */
function idValue(
  v: JsonlFieldValue,
  field: string,
  required: boolean,
): { ok: true; id: string | null } | { ok: false; field: string; message: string } {
  if (v === undefined)
    return required
      ? { ok: false, field, message: "is required (a non-empty string or an integer)" }
      : { ok: true, id: null };
  if (v === RESERVED_ID) return { ok: false, field, message: RESERVED_MESSAGE };
  if (typeof v === "string" && v !== "") return { ok: true, id: v };
  if (typeof v === "number" && Number.isInteger(v)) return { ok: true, id: String(v) };
  return {
    ok: false,
    field,
    message: `expected a non-empty string or an integer, got ${shown(v)}`,
  };
}

/** Native JSONL: group_id, id, reward (else the sum of rewards), prompt for the preview. */
export const NATIVE_INDEX: FormatIndexSpec = {
  keys: [
    { name: "group_id" },
    { name: "id", intern: false },
    { name: "reward" },
    { name: "rewards", composite: "parse" },
    { name: "prompt", composite: "hash" },
  ],
  read: ([groupId, id, reward, rewards, prompt]) => {
    const group = idValue(groupId, "group_id", true);
    if (!group.ok) return group;
    const own = idValue(id, "id", false);
    if (!own.ok) return own;
    let value = NaN;
    if (typeof reward === "number") value = reward;
    else if (reward !== undefined && reward !== null) {
      return {
        ok: false,
        field: "reward",
        message: `expected a finite number, got ${shown(reward)}`,
      };
    } else if (
      isComposite(rewards) &&
      rewards.kind === "parsed" &&
      typeof rewards.value === "object" &&
      rewards.value !== null
    ) {
      let sum = 0;
      let usable = 0;
      for (const [name, v] of Object.entries(rewards.value as Record<string, unknown>)) {
        if (v === null) continue;
        if (typeof v !== "number")
          return {
            ok: false,
            field: `rewards.${name}`,
            message: `expected a finite number, got ${describeValue(v)}`,
          };
        sum += v;
        usable++;
      }
      value = usable === 0 ? NaN : sum;
    }
    return {
      ok: true,
      key: {
        groupId: group.id!,
        id: own.id,
        reward: value,
        prompt: typeof prompt === "string" ? prompt : "",
      },
    };
  },
};

/** verl's `step` as its parser takes it (`integerLike`): an integer, or a string of one. */
function verlStep(v: JsonlFieldValue): { ok: true; step: number | undefined } | { ok: false } {
  if (v === undefined) return { ok: true, step: undefined };
  if (typeof v === "number" && Number.isInteger(v)) return { ok: true, step: v };
  if (typeof v === "string" && /^-?\d+(\.0*)?$/.test(v)) return { ok: true, step: Number(v) };
  return { ok: false };
}

/**
 * verl rollout dumps (formats/verl.ts): the group is `<step>/<sha256(input) prefix>`, the reward
 * `score`; ids are defaulted. `input` is interned (a group's rows repeat it), so its hash is worked
 * out once per distinct prompt. `output` is not read here (its text would be held per row): a row
 * whose output is not text is rejected when its group is parsed, as the full parser does.
 */
function verlIndex(hashes: PromptHashes): FormatIndexSpec {
  let last: { input: string | null; step: number | undefined; groupId: string } = {
    input: null,
    step: undefined,
    groupId: "",
  };
  return {
    keys: [{ name: "input" }, { name: "score" }, { name: "step" }],
    read: ([input, score, step]) => {
      if (typeof input !== "string")
        return {
          ok: false,
          field: "input",
          message: `expected the prompt text, got ${input === undefined ? "nothing" : shown(input)}`,
        };
      if (typeof score !== "number" || !Number.isFinite(score))
        return {
          ok: false,
          field: "score",
          message: `expected a finite number, got ${score === undefined ? "nothing" : shown(score)}`,
        };
      const s = verlStep(step);
      if (!s.ok)
        return { ok: false, field: "step", message: `expected an integer, got ${shown(step)}` };
      // A group's rows follow each other: the same prompt (one interned string) and step.
      if (input !== last.input || s.step !== last.step) {
        let hash = hashes.get(input);
        if (hash === undefined) {
          hash = shortHash(input);
          // Bounded: a run's distinct prompts would otherwise all stay alive until it is indexed.
          if (hashes.size >= PROMPT_HASHES_MAX) hashes.clear();
          hashes.set(input, hash);
        }
        last = { input, step: s.step, groupId: s.step === undefined ? hash : `${s.step}/${hash}` };
      }
      return {
        ok: true,
        key: {
          groupId: last.groupId,
          id: null,
          reward: score,
          prompt: input,
        },
      };
    },
  };
}

/**
 * Prompt text to its group hash (verl), kept across the files of a run that one thread indexes:
 * a prompt asked again at a later step (the next epoch) is not hashed again.
 */
export type PromptHashes = Map<string, string>;
/** Entries a prompt-hash cache holds before it starts over (about 50 MB of 500-character prompts). */
export const PROMPT_HASHES_MAX = 1 << 17;

const INDEXES: Readonly<Record<string, (hashes: PromptHashes) => FormatIndexSpec>> = {
  native: () => NATIVE_INDEX,
  verl: verlIndex,
};

/**
 * The index spec of a format, if its rows can be grouped from the index alone: a new one per file
 * (a spec may keep per-file state, such as verl's last group), sharing `hashes` when given.
 */
export function formatIndexFor(
  format: string,
  hashes: PromptHashes = new Map(),
): FormatIndexSpec | undefined {
  return Object.hasOwn(INDEXES, format) ? INDEXES[format]!(hashes) : undefined;
}
