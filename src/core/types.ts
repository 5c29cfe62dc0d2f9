/**
 * The studio's data model. Every loader in src/io produces these shapes, and everything after the
 * I/O boundary trusts them: ids are non-empty strings, rewards are finite numbers or null.
 */

/** A group of rollouts: several completions or agent transcripts of one prompt. */
export type GroupId = string;
/** Unique within a dataset. Native JSONL defaults it to `<group_id>/<index in group>`. */
export type RolloutId = string;

/** One tool call, normalised from every dialect (OpenAI nested, TRL dict, tau2 flat, Inspect). */
export interface ToolCall {
  /** The call id when the source has one; TRL calls have none. */
  readonly id: string | null;
  readonly name: string;
  /** The arguments as JSON text, exactly as given when the source gave a string. */
  readonly arguments: string;
  /** Who issued the call (tau2-bench telecom: "assistant" or "user"), when known. */
  readonly requestor?: string;
}

export interface ChatMessage {
  /** "system", "user", "assistant", "tool", "developer", or whatever the source wrote. */
  readonly role: string;
  /** Text content; content-part lists are joined, null becomes "". */
  readonly content: string;
  readonly toolCalls: readonly ToolCall[];
  /** For a tool result: the id of the call it answers, when known. */
  readonly toolCallId: string | null;
  /** For a tool result: the tool's name, when known. */
  readonly name: string | null;
  /** True when the source marks a tool result as an error (tau2-bench, Inspect). */
  readonly error?: boolean;
}

/**
 * Named reward components. `null` means the component does not apply to this rollout (TRL's None,
 * a NaN in a Parquet column); it is skipped by weighted sums, never counted as zero.
 */
export type RewardComponents = Readonly<Record<string, number | null>>;

/** Where a rollout came from, for error messages and "every input line is accounted for". */
export interface SourceRef {
  readonly file: string;
  /** 1-based line of the record's first character; 0 when the record has no line (Parquet row, zip member). */
  readonly line: number;
  /** The zip member, JSON path or table row the record came from, when a line does not say it. */
  readonly member?: string;
}

export interface Rollout {
  readonly id: RolloutId;
  readonly groupId: GroupId;
  /** Position within its group, 0-based, in input order (tau-bench's trial order, etc.). */
  readonly index: number;
  /** The prompt as text or as chat messages; null when the source has none. */
  readonly prompt: string | readonly ChatMessage[] | null;
  /** The transcript after the prompt (or the whole conversation when the source mixes them). */
  readonly messages: readonly ChatMessage[];
  /**
   * The completion as plain text when the source gives one (TRL, verl, native `completion`); null
   * when the rollout is a chat transcript. `rolloutText` picks what judges and clustering read.
   */
  readonly completion: string | null;
  /** The scalar reward as given by the source; null when it has none. */
  readonly reward: number | null;
  readonly rewards: RewardComponents;
  /** An extracted final answer, for self-consistency. */
  readonly answer: string | null;
  /** Ids of the test cases this rollout passed, for complementarity. */
  readonly testsPassed: readonly string[] | null;
  /** Every source field the loader did not map, kept so nothing is lost. */
  readonly meta: Readonly<Record<string, unknown>>;
  readonly source: SourceRef;
}

export interface RolloutGroup {
  readonly id: GroupId;
  readonly rollouts: readonly Rollout[];
}

/**
 * The meta key under which a loader keeps the advantage the trainer logged (TRL's `advantage`
 * column), so the studio can show it beside its own.
 */
export const TRAINER_ADVANTAGE_KEY = "trainerAdvantage";

/** The trainer's logged advantage of a rollout, when its dump has one. */
export function rolloutTrainerAdvantage(rollout: Rollout): number | null {
  const value = rollout.meta[TRAINER_ADVANTAGE_KEY];
  return typeof value === "number" && Number.isFinite(value) ? value : null;
}
