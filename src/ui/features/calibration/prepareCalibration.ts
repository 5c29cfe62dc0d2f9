/**
 * View models of the calibration panel: which sources can be picked, the loaded groups as the
 * report takes them, the metric tables, rank agreement (sortable), the corrected pass rate, the
 * seal and its log, the split settings form and the disagreement list. Pure; the components only
 * render what these return.
 */
import {
  CALIBRATION_JUDGE_MODES,
  CALIBRATION_MIN_N,
  calibrationJudgeRunSource,
  calibrationRewardSource,
  CALIBRATION_METRIC_NAMES,
  JUDGE_VERDICT_DEFAULTS,
  rolloutReward,
  SPLIT_NAMES,
  type CalibrationFormulas,
  type CalibrationGroupInput,
  type CalibrationInterval,
  type CalibrationMetricName,
  type CalibrationRankRow,
  type CalibrationReport,
  type CalibrationRerunWarning,
  type CalibrationSource,
  type CalibrationSplitReport,
  type CalibrationState,
  type JudgeRun,
  type RolloutGroup,
  type SplitName,
} from "../../../core/index.ts";
import { fixed3, plainNumber } from "../../components/numbers.ts";

/** A source in the picker: `value` is the select's value (`run:<id>`, `reward` or `verifier:<name>`). */
export interface SourceChoice {
  readonly value: string;
  readonly source: CalibrationSource;
  /** False for a mode that gives no pass/fail verdicts (the clusterer). */
  readonly hasVerdicts: boolean;
}

export const REWARD_CHOICE = "reward";

/**
 * Every judge run, newest first, then the reward itself, then the applied verifiers (issue 7:
 * each verifier is one more judge). The judge runs' verdicts use the pass threshold in force (a
 * failing rollout stays a fail whatever the judge said).
 */
export function prepareSources(
  runs: readonly JudgeRun[],
  passThreshold: number,
  verifiers: readonly CalibrationSource[] = [],
): SourceChoice[] {
  const options = { ...JUDGE_VERDICT_DEFAULTS, passThreshold };
  const choices: SourceChoice[] = [...runs].reverse().map((run) => ({
    value: `run:${run.info.id}`,
    source: calibrationJudgeRunSource(run, options),
    hasVerdicts: CALIBRATION_JUDGE_MODES.includes(run.info.mode),
  }));
  choices.push({
    value: REWARD_CHOICE,
    source: calibrationRewardSource(passThreshold),
    hasVerdicts: true,
  });
  for (const source of verifiers) choices.push({ value: source.id, source, hasVerdicts: true });
  return choices;
}

/**
 * The chosen source, or null while none is chosen (or the chosen one is gone): no run, the reward
 * included, becomes the judge source by default (issue 13, finding 8: a spread check had become
 * it silently). The user picks one by name.
 */
export function pickSource(
  choices: readonly SourceChoice[],
  chosen: string | null,
): SourceChoice | null {
  return choices.find((c) => c.value === chosen) ?? null;
}

/** The source of the report while none is chosen: it judges nothing, so no row is compared. */
export const NO_SOURCE: CalibrationSource = {
  id: "none",
  label: "no judge source chosen",
  kind: "judge",
  promptVersion: "",
  verdicts: () => new Map(),
  ranking: () => null,
};

/**
 * The parsed groups in the dataset's order, with their rewards under the reward weights (the
 * reward, never a human-adjusted one: the judge's verdicts must not see the person's marks).
 * An indexed file's unparsed groups cannot be compared rollout by rollout: they are counted.
 */
export function prepareGroupInputs(
  order: readonly { readonly id: string }[],
  parsed: ReadonlyMap<string, RolloutGroup>,
  weights: Readonly<Record<string, number>> | null,
): { readonly inputs: CalibrationGroupInput[]; readonly unparsed: number } {
  const inputs: CalibrationGroupInput[] = [];
  let unparsed = 0;
  for (const { id } of order) {
    const group = parsed.get(id);
    if (group === undefined) {
      unparsed++;
      continue;
    }
    inputs.push({ group, rewards: group.rollouts.map((r) => rolloutReward(r, weights)) });
  }
  return { inputs, unparsed };
}

export interface MetricCell {
  readonly name: CalibrationMetricName;
  readonly label: string;
  /** "0.812 [0.700, 0.900]", or why there is no number. */
  readonly text: string;
  /** How the interval was made (bootstrap, wilson, none). */
  readonly method: CalibrationInterval["method"];
  /** "516 of 1000 resamples undefined, dropped" when the bootstrap dropped any, else "". */
  readonly dropped: string;
  /** Plain numbers for test ids ("" when absent). */
  readonly value: string;
  readonly lower: string;
  readonly upper: string;
  readonly title: string;
}

export interface SplitTable {
  readonly split: SplitName;
  readonly n: number;
  readonly tp: number;
  readonly tn: number;
  readonly fp: number;
  readonly fn: number;
  /** The small-sample warning (`smallSampleText`), or "" from CALIBRATION_MIN_N rows on. */
  readonly smallN: string;
  readonly cells: readonly MetricCell[];
}

/** "n = 2: too few labels for an interval (at least 10 recommended)"; "" for 0 rows or enough. */
export function smallSampleText(n: number): string {
  return n > 0 && n < CALIBRATION_MIN_N
    ? `n = ${n}: too few labels for an interval (at least ${CALIBRATION_MIN_N} recommended)`
    : "";
}

/** "516 of 1000 resamples undefined, dropped"; "" when none were. */
export function droppedText(dropped: number, samples: number): string {
  return dropped > 0 ? `${dropped} of ${samples} resamples undefined, dropped` : "";
}

const METRIC_LABELS: Readonly<Record<CalibrationMetricName, string>> = {
  tpr: "TPR",
  tnr: "TNR",
  accuracy: "Accuracy",
  kappa: "Cohen's κ",
};

/** Why a metric of a split has no value. */
function undefinedReason(name: CalibrationMetricName, s: CalibrationSplitReport): string {
  if (s.n === 0) return "no rows";
  if (name === "tpr") return "no human pass";
  if (name === "tnr") return "no human fail";
  return "both sides constant";
}

/**
 * An estimate with its interval: "0.812 [0.700, 0.900]", "1.000 [0.342, 1.000] Wilson" for a
 * Wilson interval, "1.000 (no interval: every resample agrees)" where the bootstrap degenerated,
 * and only the estimate when no draw had one.
 */
export function intervalText(
  i: Pick<CalibrationInterval, "value" | "lower" | "upper" | "method">,
): string {
  if (!Number.isFinite(i.value)) return "–";
  if (i.method === "none") return `${fixed3(i.value)} (no interval: every resample agrees)`;
  if (!Number.isFinite(i.lower)) return fixed3(i.value);
  const range = `${fixed3(i.value)} [${fixed3(i.lower)}, ${fixed3(i.upper)}]`;
  return i.method === "wilson" ? `${range} Wilson` : range;
}

export function prepareSplitTables(
  report: CalibrationReport,
  formulas: CalibrationFormulas,
): SplitTable[] {
  const splits =
    report.test === null ? [report.train, report.dev] : [report.train, report.dev, report.test];
  return splits.map((s) => ({
    split: s.split,
    n: s.n,
    tp: s.confusion.tp,
    tn: s.confusion.tn,
    fp: s.confusion.fp,
    fn: s.confusion.fn,
    smallN: smallSampleText(s.n),
    cells: CALIBRATION_METRIC_NAMES.map((name): MetricCell => {
      const m = s.metrics[name];
      const missing = Number.isFinite(m.value) ? "" : ` (undefined: ${undefinedReason(name, s)})`;
      // A Wilson interval does not come from the resamples: their drops do not bear on it.
      const dropped = m.method === "wilson" ? "" : droppedText(m.undefinedDraws, m.samples);
      const how =
        m.method === "wilson"
          ? `${formulas.wilson} (here ${m.n} row${m.n === 1 ? "" : "s"})`
          : m.method === "none"
            ? `${formulas.interval}. Every defined resample gives ${fixed3(m.value)}: no interval is shown rather than one of zero width`
            : formulas.interval;
      return {
        name,
        label: METRIC_LABELS[name],
        text: Number.isFinite(m.value) ? intervalText(m) : `–${missing}`,
        method: m.method,
        dropped,
        value: plainNumber(m.value),
        lower: plainNumber(m.lower),
        upper: plainNumber(m.upper),
        title: `${formulas[name]}\n${how}${dropped === "" ? "" : `\n${dropped}.`}`,
      };
    }),
  }));
}

export type RankSortKey = "group" | "n" | "tau" | "rho";
export interface RankSort {
  readonly key: RankSortKey;
  readonly descending: boolean;
}

export interface RankRowView {
  readonly groupId: string;
  readonly n: number;
  readonly pairs: number;
  readonly tau: string;
  readonly rho: string;
  readonly tauValue: string;
  readonly rhoValue: string;
}

/**
 * Rank agreement rows under a sort. Groups keep the dataset's order by default and on ties; an
 * undefined coefficient sorts last in either direction (a gap is not a value).
 */
export function prepareRankRows(
  rows: readonly CalibrationRankRow[],
  sort: RankSort,
): RankRowView[] {
  const keyed = rows.map((r, i) => ({ r, i }));
  const value = (r: CalibrationRankRow): number =>
    sort.key === "n" ? r.n : sort.key === "tau" ? r.tau : sort.key === "rho" ? r.rho : NaN;
  if (sort.key === "group") {
    if (sort.descending) keyed.reverse();
  } else
    keyed.sort((a, b) => {
      const x = value(a.r);
      const y = value(b.r);
      const fx = Number.isFinite(x);
      const fy = Number.isFinite(y);
      if (fx !== fy) return fx ? -1 : 1;
      if (fx && x !== y) return sort.descending ? y - x : x - y;
      return a.i - b.i;
    });
  return keyed.map(({ r }) => ({
    groupId: r.groupId,
    n: r.n,
    pairs: r.pairs,
    tau: fixed3(r.tau),
    rho: fixed3(r.rho),
    tauValue: plainNumber(r.tau),
    rhoValue: plainNumber(r.rho),
  }));
}

/** The next sort after clicking a column: the same column flips, another starts descending (group: ascending). */
export function nextRankSort(current: RankSort, key: RankSortKey): RankSort {
  if (current.key === key) return { key, descending: !current.descending };
  return { key, descending: key !== "group" };
}

export interface CorrectedView {
  readonly observed: string;
  readonly corrected: string;
  readonly interval: string;
  readonly correctedValue: string;
  readonly lowerValue: string;
  readonly upperValue: string;
  /** Why there is no corrected rate, or "" when there is one. */
  readonly note: string;
  readonly method: "bootstrap" | "wilson";
  /** "516 of 1000 resamples undefined, dropped (…)" when the bootstrap dropped any, else "". */
  readonly dropped: string;
  /** The small-sample warning for dev's rows, or "". */
  readonly smallN: string;
}

export function prepareCorrected(report: CalibrationReport): CorrectedView {
  const c = report.corrected;
  const note =
    c.judged === 0
      ? "The source judged no rollout of the loaded groups."
      : c.devRows === 0
        ? "No dev rows yet: label more rollouts the source judged."
        : !Number.isFinite(c.corrected)
          ? "Undefined: on dev, TPR + TNR ≤ 1 (or one of them is undefined), so the judge is no better than chance there."
          : c.method === "wilson"
            ? "Interval: Rogan-Gladen over the Wilson intervals of dev's TPR and TNR (the bootstrap says nothing here)."
            : "";
  const dropped = droppedText(c.discarded, c.samples);
  return {
    observed: `${fixed3(c.observed)} (${c.judged} judged)`,
    corrected: fixed3(c.corrected),
    interval: Number.isFinite(c.lower) ? `[${fixed3(c.lower)}, ${fixed3(c.upper)}]` : "–",
    correctedValue: plainNumber(c.corrected),
    lowerValue: plainNumber(c.lower),
    upperValue: plainNumber(c.upper),
    note,
    method: c.method,
    dropped:
      dropped === ""
        ? ""
        : `${dropped} (TPR + TNR ≤ 1, or no human pass or no human fail in the resample).`,
    smallN: c.devRows > 0 ? smallSampleText(c.devRows) : "",
  };
}

export interface SealView {
  readonly sealed: boolean;
  readonly testRows: number;
  /** The log, oldest first, as lines "time · event · message". */
  readonly log: readonly {
    readonly at: string;
    readonly event: string;
    readonly message: string;
  }[];
  /** After the unseal: when, against what, with which prompt version. */
  readonly unsealed: string | null;
  /** The picked source is not the one the test split was unsealed against. */
  readonly otherSource: string | null;
  readonly warnings: readonly string[];
}

export function prepareSeal(
  state: CalibrationState,
  report: CalibrationReport,
  source: CalibrationSource,
  warnings: readonly CalibrationRerunWarning[],
): SealView {
  const u = state.unsealed;
  return {
    sealed: u === null,
    testRows: report.testRows,
    log: state.log.map((e) => ({ at: e.at, event: e.event, message: e.message })),
    unsealed:
      u === null
        ? null
        : `Unsealed ${u.at} against [${u.judge}], prompt version ${u.promptVersion === "" ? "none" : u.promptVersion}.`,
    otherSource:
      u !== null && u.judge !== source.id
        ? `The test metrics below compare ${source.label}, not [${u.judge}] that the split was unsealed against: they are not a held-out result.`
        : null,
    warnings: warnings.map((w) => w.message),
  };
}

export interface SplitForm {
  readonly seed: string;
  readonly train: string;
  readonly dev: string;
  readonly test: string;
}

/** The form's fields from the state: percentages with up to 4 decimals. */
export function splitFormFrom(state: Pick<CalibrationState, "seed" | "fractions">): SplitForm {
  const pct = (x: number) => String(Number((x * 100).toFixed(4)));
  return {
    seed: String(state.seed),
    train: pct(state.fractions.train),
    dev: pct(state.fractions.dev),
    test: pct(state.fractions.test),
  };
}

export type SplitFormResult =
  | {
      readonly ok: true;
      readonly seed: number;
      readonly fractions: Readonly<Record<SplitName, number>>;
    }
  | { readonly ok: false; readonly error: string };

/** The form read back: an integer seed and non-negative percentages summing to 100. */
export function parseSplitForm(form: SplitForm): SplitFormResult {
  const seed = Number(form.seed);
  if (form.seed.trim() === "" || !Number.isInteger(seed) || seed < 0 || seed > 0xffffffff)
    return {
      ok: false,
      error: `The seed must be a whole number from 0 to 4294967295, got "${form.seed}".`,
    };
  const pct: Record<SplitName, number> = { train: NaN, dev: NaN, test: NaN };
  for (const s of SPLIT_NAMES) {
    const raw = form[s];
    const v = Number(raw);
    if (raw.trim() === "" || !Number.isFinite(v) || v < 0)
      return {
        ok: false,
        error: `The ${s} share must be a percentage of at least 0, got "${raw}".`,
      };
    pct[s] = v;
  }
  const total = pct.train + pct.dev + pct.test;
  if (Math.abs(total - 100) > 1e-6)
    return {
      ok: false,
      error: `The shares must add up to 100%, they add up to ${Number(total.toFixed(6))}%.`,
    };
  // Divide by the total so the fractions sum to 1 within rounding, whatever the decimals typed.
  return {
    ok: true,
    seed,
    fractions: { train: pct.train / total, dev: pct.dev / total, test: pct.test / total },
  };
}

export interface DisagreementView {
  readonly key: string;
  readonly groupId: string;
  readonly rolloutId: string;
  readonly human: string;
  readonly judge: string;
  readonly split: SplitName;
}

/**
 * The disagreement list and the open position: null while none is open (or the list is empty),
 * else clamped into the list (it shrinks as labels are fixed).
 */
export function prepareDisagreements(
  report: CalibrationReport,
  current: number | null,
): { readonly items: readonly DisagreementView[]; readonly current: number | null } {
  const items = report.disagreements.map((d) => ({
    key: `${d.groupId}\u0000${d.rolloutId}`,
    groupId: d.groupId,
    rolloutId: d.rolloutId,
    human: d.human,
    judge: d.judge,
    split: d.split,
  }));
  return {
    items,
    current:
      current === null || items.length === 0
        ? null
        : Math.min(Math.max(current, 0), items.length - 1),
  };
}
