/**
 * View models of the Verifiers panel: new verifiers with sensible defaults, what a length penalty
 * may wrap, each verifier's counts, the outcomes of a group's rollouts, and the drop-a-component
 * table. Pure; the panel renders what these return.
 */
import {
  type RolloutGroup,
  ANSWER_NORMALIZATION_DEFAULT,
  DROP_LOGGED_REWARD,
  FORMAT_PRESET_REASONING_ANSWER,
  JUDGE_VERIFIER_DEFAULT,
  LENGTH_PENALTY_DEFAULT,
  verifierEmitted,
  verifierTally,
  type ComponentDropTable,
  type GroupAnnotation,
  type HumanLabel,
  type JudgeRunInfo,
  type LoggedRewardResolution,
  type VerifierFlipReport,
  type JudgeVerifierMode,
  type Verifier,
  type VerifierKind,
  type VerifierOutcome,
  type VerifierSpec,
} from "../../../core/index.ts";

/** How each kind is called in the panel. */
export const VERIFIER_KIND_LABELS: Readonly<Record<VerifierKind, string>> = {
  format: "Format gate",
  "exact-match": "Exact match",
  "json-schema": "JSON schema",
  "length-penalty": "Length penalty",
  judge: "Rubric judge",
};

const BASE_NAMES: Readonly<Record<VerifierKind, string>> = {
  format: "format",
  "exact-match": "exact_match",
  "json-schema": "json_schema",
  "length-penalty": "length_penalty",
  judge: "judge",
};

/** `base`, or `base_2`, `base_3`, ... : the first not in `taken`. */
export function verifierUniqueName(base: string, taken: ReadonlySet<string>): string {
  if (!taken.has(base)) return base;
  for (let i = 2; ; i++) if (!taken.has(`${base}_${i}`)) return `${base}_${i}`;
}

/**
 * What a length penalty may wrap: the other verifiers that are not penalties, then the file's
 * components, each once.
 */
export function verifierWrapChoices(
  spec: VerifierSpec,
  fileComponents: readonly string[],
  self: string,
): string[] {
  const names = spec.verifiers
    .filter((v) => v.kind !== "length-penalty" && v.name !== self)
    .map((v) => v.name);
  return [...new Set([...names, ...fileComponents])];
}

/**
 * A new verifier of a kind: the library's defaults (the reasoning/answer preset, `<answer>`
 * extraction, the whole-schema check, 512 words at 0.001), a free name, and for a length penalty
 * the first thing it can wrap.
 *
 * @param fields the metadata paths of the loaded rollouts (the first is the ground truth's guess)
 */
export function verifierNew(
  kind: VerifierKind,
  spec: VerifierSpec,
  fileComponents: readonly string[],
  fields: readonly string[],
): Verifier {
  const taken = new Set([...spec.verifiers.map((v) => v.name), ...fileComponents]);
  const common = { enabled: true, weight: 1 };
  const guess = (patterns: RegExp): string => fields.find((f) => patterns.test(f)) ?? "";
  switch (kind) {
    case "format":
      return {
        kind,
        name: verifierUniqueName(BASE_NAMES.format, taken),
        ...common,
        ...FORMAT_PRESET_REASONING_ANSWER,
      };
    case "exact-match":
      return {
        kind,
        name: verifierUniqueName(BASE_NAMES["exact-match"], taken),
        ...common,
        field: guess(/(^|\.)(answer|gold|gts|ground_truth|solution|target|label)$/i),
        pattern: null,
        flags: "",
        normalize: ANSWER_NORMALIZATION_DEFAULT,
      };
    case "json-schema":
      return {
        kind,
        name: verifierUniqueName(BASE_NAMES["json-schema"], taken),
        ...common,
        schema: { from: "inline", schema: { type: "object" } },
        draft: "2020-12",
      };
    case "length-penalty": {
      const wraps = verifierWrapChoices(spec, fileComponents, "")[0] ?? "";
      return {
        kind,
        name: verifierUniqueName(
          wraps === "" ? BASE_NAMES["length-penalty"] : `${wraps}_len`,
          taken,
        ),
        ...common,
        wraps,
        ...LENGTH_PENALTY_DEFAULT,
      };
    }
    case "judge":
      return {
        kind,
        name: verifierUniqueName(BASE_NAMES.judge, taken),
        ...common,
        ...JUDGE_VERIFIER_DEFAULT,
      };
  }
}

/** One choice of a judge verifier's run picker; value "" is null (the newest run of the mode). */
export interface JudgeRunChoice {
  readonly value: string;
  readonly label: string;
}

/**
 * The run picker of a judge verifier: "newest <mode> run" (naming the run it is now, or saying
 * there is none yet), then each run of the mode, newest first, by its model (or the heuristic
 * grader), start time and id. A named run that is gone stays listed, marked, so the choice shows.
 */
export function verifierJudgeRunChoices(
  runs: readonly JudgeRunInfo[],
  mode: JudgeVerifierMode,
  current: string | null,
): JudgeRunChoice[] {
  const ofMode = runs.filter((r) => r.mode === mode).reverse();
  const label = (r: JudgeRunInfo): string =>
    `${r.source === "heuristic" ? "heuristic grader" : r.model} · ${r.startedAt} · ${r.id}`;
  const newest = ofMode[0];
  const choices: JudgeRunChoice[] = [
    {
      value: "",
      label:
        newest === undefined
          ? `newest ${mode} run (none yet: run the judge first)`
          : `newest ${mode} run: ${label(newest)}`,
    },
    ...ofMode.map((r) => ({ value: r.id, label: label(r) })),
  ];
  if (current !== null && !ofMode.some((r) => r.id === current))
    choices.push({ value: current, label: `${current} (not a ${mode} run of these annotations)` });
  return choices;
}

export interface TallyRow {
  readonly name: string;
  readonly kind: VerifierKind;
  /** "component" when it adds one, "input" when a length penalty reads it. */
  readonly role: "component" | "input";
  readonly pass: number;
  readonly fail: number;
  readonly notApplicable: number;
  /** Pass share of the rows it applies to, "62.5%", or "–". */
  readonly passRate: string;
  /** Why it did not apply, from the first such row. */
  readonly note: string;
}

/** Each evaluated verifier's counts over the rollouts scored so far. */
export function prepareTally(
  spec: VerifierSpec,
  names: readonly string[],
  rows: Iterable<readonly VerifierOutcome[]>,
): TallyRow[] {
  const emitted = new Set(verifierEmitted(spec).map((v) => v.name));
  const kinds = new Map(spec.verifiers.map((v) => [v.name, v.kind]));
  return verifierTally({ names, outcomes: [...rows] }).map((t) => {
    const judged = t.pass + t.fail;
    return {
      name: t.name,
      kind: kinds.get(t.name) ?? "format",
      role: emitted.has(t.name) ? "component" : "input",
      pass: t.pass,
      fail: t.fail,
      notApplicable: t.notApplicable,
      passRate: judged === 0 ? "–" : `${((100 * t.pass) / judged).toFixed(1)}%`,
      note: t.firstNote,
    };
  });
}

/** A number for a table cell: at most 4 decimals, "" for none. */
export function cellNumber(x: number | null): string {
  if (x === null || !Number.isFinite(x)) return "";
  return String(Number(x.toFixed(4)));
}

export interface OutcomeCell {
  readonly name: string;
  readonly value: string;
  readonly pass: boolean | null;
  readonly note: string;
}

export interface OutcomeRow {
  readonly id: string;
  readonly cells: readonly OutcomeCell[];
}

/** What every evaluated verifier said about each rollout of a group, with its reason. */
export function prepareOutcomes(
  group: RolloutGroup,
  names: readonly string[],
  byRollout: ReadonlyMap<string, readonly VerifierOutcome[]>,
): OutcomeRow[] {
  return group.rollouts.map((r) => {
    const row = byRollout.get(r.id);
    return {
      id: r.id,
      cells: names.map((name, k) => {
        const o = row?.[k];
        return {
          name,
          value: o === undefined ? "" : cellNumber(o.value),
          pass: o?.pass ?? null,
          note: o === undefined ? "not scored yet" : o.note,
        };
      }),
    };
  });
}

export interface DropCell {
  readonly part: string;
  /** The advantage without the part. */
  readonly without: string;
  /** without - with, signed ("+0.25", "-1.2"); "0" when unchanged. */
  readonly delta: string;
  /** The advantage changes sign (a rollout the trainer would push down is pushed up, or back). */
  readonly flips: boolean;
}

export interface DropRow {
  readonly id: string;
  readonly advantage: string;
  readonly cells: readonly DropCell[];
}

export interface DropView {
  readonly parts: readonly string[];
  readonly rows: readonly DropRow[];
  /** Why there is nothing to drop, when `parts` is empty. */
  readonly empty: string;
}

function signed(x: number): string {
  const text = cellNumber(x);
  if (text === "" || text === "0") return text === "" ? "" : "0";
  return x > 0 ? `+${text}` : text;
}

/**
 * One group's rows of the drop table: each rollout's advantage, and per part the advantage without
 * it and the change.
 *
 * @param groupIndex the group's index in the groups the table was computed over
 */
export function prepareDropView(
  table: ComponentDropTable,
  groupIndex: number,
  group: RolloutGroup,
): DropView {
  const base = table.advantages[groupIndex] ?? [];
  const rows = group.rollouts.map((r, i) => {
    const a = base[i] ?? 0;
    return {
      id: r.id,
      advantage: cellNumber(a),
      cells: table.parts.map((part, p) => {
        const w = table.without[p]?.[groupIndex]?.[i] ?? 0;
        const delta = Math.abs(w - a) < 1e-12 ? 0 : w - a;
        return { part, without: cellNumber(w), delta: signed(delta), flips: a * w < 0 };
      }),
    };
  });
  return {
    parts: table.parts,
    rows,
    empty:
      table.parts.length > 0
        ? ""
        : `With reward weights off, a rollout's total is the logged reward, whose make-up the file does not give: add a verifier, or turn reward weights on in Settings to drop the file's components.`,
  };
}

/** The label of a drop part (the logged reward is not a component name). */
export function dropPartLabel(part: string): string {
  return part === DROP_LOGGED_REWARD ? "the logged reward" : part;
}

/** One rollout of the flip check, with what a human said about it. */
export interface FlipRowView {
  readonly id: string;
  readonly groupId: string;
  readonly direction: "to-pass" | "to-fail";
  /** "fail → pass" or "pass → fail". */
  readonly change: string;
  readonly why: string;
  /** The human label, when there is one ("pass", "fail", "defer"). */
  readonly label: HumanLabel | null;
  /** The flip goes against the human label (a labelled fail becomes a pass, or the reverse). */
  readonly againstLabel: boolean;
}

export interface FlipGroupView {
  readonly id: string;
  /** "4 → 6 of 6". */
  readonly passes: string;
  /** What it does to the group's human ranking, "" when nothing. */
  readonly ranking: string;
}

export interface FlipView {
  /** No rollout changes pass/fail: the spec may be applied without asking. */
  readonly none: boolean;
  readonly headline: string;
  /** The logged-reward rule the spec uses on this file, and why. */
  readonly rule: string;
  readonly groups: readonly FlipGroupView[];
  readonly rows: readonly FlipRowView[];
  /** How many flips go against a human label. */
  readonly againstLabels: number;
}

/**
 * The check shown before a spec is applied: who would pass differently, per group and per
 * rollout, why, and what that does to the human labels and rankings of those groups.
 */
export function prepareFlipView(
  report: VerifierFlipReport,
  resolution: LoggedRewardResolution,
  annotations: Readonly<Record<string, GroupAnnotation>>,
): FlipView {
  const n = report.flips.length;
  const toPass = report.flips.filter((f) => f.toPass).length;
  const rows = report.flips.map((f): FlipRowView => {
    const label = annotations[f.groupId]?.labels[f.rolloutId] ?? null;
    return {
      id: f.rolloutId,
      groupId: f.groupId,
      direction: f.toPass ? "to-pass" : "to-fail",
      change: f.toPass ? "fail → pass" : "pass → fail",
      why: f.why,
      label,
      againstLabel: (f.toPass && label === "fail") || (!f.toPass && label === "pass"),
    };
  });
  const groups = report.groups.map((g): FlipGroupView => {
    const ranked = new Set((annotations[g.groupId]?.ranking ?? []).flat());
    const flipped = report.flips.filter((f) => f.groupId === g.groupId);
    const newPasses = flipped.filter((f) => f.toPass && !ranked.has(f.rolloutId)).length;
    const leaving = flipped.filter((f) => !f.toPass && ranked.has(f.rolloutId)).length;
    const notes: string[] = [];
    if (ranked.size > 0 && newPasses > 0)
      notes.push(
        `your ranking leaves out ${newPasses} new pass${newPasses === 1 ? "" : "es"}: no GAR values until ${newPasses === 1 ? "it is" : "they are"} ranked`,
      );
    if (leaving > 0)
      notes.push(
        `${leaving} ranked rollout${leaving === 1 ? "" : "s"} become${leaving === 1 ? "s" : ""} a fail and leave${leaving === 1 ? "s" : ""} the ranking`,
      );
    return {
      id: g.groupId,
      passes: `${g.passesBefore} → ${g.passesAfter} of ${g.n}`,
      ranking: notes.join("; "),
    };
  });
  return {
    none: n === 0,
    headline:
      n === 0
        ? `No rollout changes pass/fail: ${report.passesBefore} of ${report.rollouts} pass before and after.`
        : `This spec changes who passes: ${n} rollout${n === 1 ? "" : "s"} (${toPass} fail → pass, ${n - toPass} pass → fail) in ${report.groups.length} group${report.groups.length === 1 ? "" : "s"}; passes ${report.passesBefore} → ${report.passesAfter} of ${report.rollouts}.`,
    rule: resolution.reason,
    groups,
    rows,
    againstLabels: rows.filter((r) => r.againstLabel).length,
  };
}
