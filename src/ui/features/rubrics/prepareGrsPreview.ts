/**
 * The GRS preview's view model (methods.md 2.4, core `grsShape`): per rollout of the open group,
 * R x max(floor, s) x max(floor, b) for the passes, the failures' reward unchanged. The scores come
 * from the newest rubric judge run that has this group, and the user can type s or b per pass over
 * them for a what-if (a typed value wins over the judge's; clearing it shows the judge's again).
 * Typed values are not persisted: they are a preview, not a verdict (see README.md).
 */
import {
  grsShape,
  type HumanLabel,
  type JudgeRun,
  type JudgeRunInfo,
  type RolloutId,
} from "../../../core/index.ts";

/** The judge's scores for one group, from the newest rubric run that has it. */
export interface GrsJudgeScores {
  readonly run: JudgeRunInfo;
  /** The rubric version the group was scored with (null: not recorded). */
  readonly rubricVersion: number | null;
  /** The run failed on this group as a whole: no scores. */
  readonly error: string | null;
  readonly scores: Readonly<Record<RolloutId, { solution: number; behavior: number }>>;
  /** Passes whose own request failed. */
  readonly failed: readonly RolloutId[];
}

/** The newest rubric run (runs are appended) that has a result for the group, or null. */
export function grsJudgeScores(runs: readonly JudgeRun[], groupId: string): GrsJudgeScores | null {
  for (let i = runs.length - 1; i >= 0; i--) {
    const run = runs[i]!;
    if (run.info.mode !== "rubric" || !Object.hasOwn(run.groups, groupId)) continue;
    const result = run.groups[groupId]!;
    return {
      run: run.info,
      rubricVersion: result.rubricVersion,
      error: result.error === null ? null : `${result.error.kind}: ${result.error.message}`,
      scores: result.scores,
      failed: result.failed,
    };
  }
  return null;
}

/** Where the preview's scores come from, in words (`grsJudgeNote`). */
export interface GrsJudgeNote {
  /** The run and rubric version the scores are from, or how to preview without one. */
  readonly scores: string;
  /** " The rubric is at v3 now: …" when they are from an older rubric version, else "". */
  readonly older: string;
}

/** What the preview says of the judge's scores, given the task's current rubric version. */
export function grsJudgeNote(
  judge: GrsJudgeScores | null,
  currentVersion: number | null,
): GrsJudgeNote {
  if (judge === null)
    return {
      scores: "No rubric run has scored this group: type s and b per pass to preview.",
      older: "",
    };
  const by = judge.run.source === "heuristic" ? "heuristic" : judge.run.model;
  const version = judge.rubricVersion === null ? "" : `, rubric v${judge.rubricVersion}`;
  return {
    scores: `Scores from rubric run ${judge.run.id} (${by}${version}).`,
    older:
      judge.rubricVersion !== null &&
      currentVersion !== null &&
      judge.rubricVersion < currentVersion
        ? ` The rubric is at v${currentVersion} now: these scores are from an older version.`
        : "",
  };
}

/** What the user typed for a rollout's s and b ("" or absent: use the judge's). */
export interface GrsTyped {
  readonly solution?: string;
  readonly behavior?: string;
}

export interface GrsPreviewInput {
  readonly rollouts: readonly {
    readonly id: RolloutId;
    /** The reward under the settings (NaN when the rollout has none). */
    readonly reward: number;
    readonly humanLabel: HumanLabel | null;
  }[];
  readonly passThreshold: number;
  /** The floor as typed. */
  readonly floorText: string;
  readonly judge: GrsJudgeScores | null;
  readonly typed: Readonly<Record<RolloutId, GrsTyped>>;
  /** Labelled rollouts whose label was made under an older rubric version. */
  readonly staleLabels: ReadonlySet<RolloutId>;
}

export interface GrsCell {
  /** The score in use, or null (none, or the typed text is not a number in [0, 1]). */
  readonly value: number | null;
  readonly source: "judge" | "typed" | "none";
  /** The judge's score, shown under a typed one. */
  readonly judge: number | null;
  readonly text: string;
  readonly error: string | null;
}

export type GrsRowStatus =
  /** A pass with both scores: shaped. */
  | "shaped"
  /** A pass without both scores (none, a judge failure, an invalid typed value): keeps R. */
  | "unscored"
  /** A failure: keeps R (not zeroed). */
  | "failure"
  /** No reward: nothing to shape. */
  | "no-reward";

export interface GrsPreviewRow {
  readonly id: RolloutId;
  readonly reward: number;
  readonly passed: boolean;
  readonly solution: GrsCell;
  readonly behavior: GrsCell;
  readonly status: GrsRowStatus;
  /** The reward after shaping (R itself unless shaped); null while the floor is invalid. */
  readonly shaped: number | null;
  /** s x b for a shaped pass (whileai `stats.scores`). */
  readonly product: number | null;
  /** The arithmetic, e.g. "1 × max(0, 0.5) × max(0, 0.8) = 0.4"; "" when not shaped. */
  readonly formula: string;
  readonly label: HumanLabel | null;
  readonly staleLabel: boolean;
  /** The judge's own request for this pass failed. */
  readonly judgeFailed: boolean;
}

export interface GrsPreview {
  readonly floor: number | null;
  readonly floorError: string | null;
  readonly rows: readonly GrsPreviewRow[];
  readonly passes: number;
  readonly shaped: number;
  /** Passes that keep R for want of a usable score (grsShape's failures). */
  readonly unscored: number;
}

/** The floor from its text: a number in [0, 1). */
export function grsParseFloor(text: string): { value: number } | { error: string } {
  const value = text.trim() === "" ? NaN : Number(text);
  return Number.isFinite(value) && value >= 0 && value < 1
    ? { value }
    : { error: `the floor must be a number in [0, 1), got "${text}"` };
}

function cell(
  typed: string | undefined,
  judge: number | null,
  name: "s" | "b",
  passed: boolean,
): GrsCell {
  const text = typed ?? "";
  if (!passed || text.trim() === "")
    return {
      value: passed ? judge : null,
      source: passed && judge !== null ? "judge" : "none",
      judge,
      text: "",
      error: null,
    };
  const value = Number(text);
  if (!Number.isFinite(value) || value < 0 || value > 1)
    return {
      value: null,
      source: "typed",
      judge,
      text,
      error: `${name} must be a number in [0, 1], got "${text}"`,
    };
  return { value, source: "typed", judge, text, error: null };
}

/** Up to 4 decimals, as the metric test ids show numbers. */
const num = (x: number): string => String(Number(x.toFixed(4)));

export function prepareGrsPreview(input: GrsPreviewInput): GrsPreview {
  const floor = grsParseFloor(input.floorText);
  const floorValue = "value" in floor ? floor.value : null;
  const rewards = input.rollouts.map((r) => r.reward);
  const isPass = (r: number): boolean => Number.isFinite(r) && r >= input.passThreshold;
  const cells = input.rollouts.map((r) => {
    const passed = isPass(r.reward);
    const judged = input.judge?.scores[r.id];
    const own = Object.hasOwn(input.typed, r.id) ? input.typed[r.id] : undefined;
    return {
      passed,
      solution: cell(own?.solution, judged?.solution ?? null, "s", passed),
      behavior: cell(own?.behavior, judged?.behavior ?? null, "b", passed),
    };
  });
  const shaped =
    floorValue === null
      ? null
      : grsShape(
          rewards,
          cells.map((c) =>
            c.solution.value === null || c.behavior.value === null
              ? null
              : { solution: c.solution.value, behavior: c.behavior.value },
          ),
          { floor: floorValue, passThreshold: input.passThreshold },
        );
  const failed = new Set(input.judge?.failed ?? []);
  const rows = input.rollouts.map((r, i): GrsPreviewRow => {
    const c = cells[i]!;
    const product = shaped?.products.get(i) ?? null;
    const status: GrsRowStatus = !Number.isFinite(r.reward)
      ? "no-reward"
      : !c.passed
        ? "failure"
        : c.solution.value !== null && c.behavior.value !== null
          ? "shaped"
          : "unscored";
    const out = shaped === null ? null : shaped.rewards[i]!;
    return {
      id: r.id,
      reward: r.reward,
      passed: c.passed,
      solution: c.solution,
      behavior: c.behavior,
      status,
      shaped: out,
      product,
      formula:
        status === "shaped" && floorValue !== null && out !== null
          ? `${num(r.reward)} × max(${num(floorValue)}, ${num(c.solution.value!)}) × max(${num(floorValue)}, ${num(c.behavior.value!)}) = ${num(out)}`
          : "",
      label: r.humanLabel,
      staleLabel: r.humanLabel !== null && input.staleLabels.has(r.id),
      judgeFailed: failed.has(r.id),
    };
  });
  const passes = rows.filter((r) => r.passed).length;
  const shapedCount = rows.filter((r) => r.status === "shaped").length;
  return {
    floor: floorValue,
    floorError: "error" in floor ? floor.error : null,
    rows,
    passes,
    shaped: shapedCount,
    unscored: passes - shapedCount,
  };
}
