/** The readable summary `rollout-studio analyze` prints without --json. */
import { hasGarValues, type DatasetAnalysisHead, type GroupAnalysis } from "../core/index.ts";
import { formatGroupsAcrossFiles, runHeaderDetails } from "../io/index.ts";
import { cliGroupSteps, type CliLoad } from "./loadForCli.ts";

/** Groups the summary's table shows; `--json` has them all. */
export const SUMMARY_GROUPS = 60;

const fmt = (x: number, digits = 3): string => (Number.isFinite(x) ? x.toFixed(digits) : "-");
const pct = (part: number, whole: number): string =>
  whole === 0 ? "-" : `${((100 * part) / whole).toFixed(1)}%`;

/** A plain-text table; the columns in `left` are text and align left, numbers align right. */
export function table(rows: readonly (readonly string[])[], left: ReadonlySet<number>): string {
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => r[c]!.length)));
  return rows
    .map((r) =>
      r
        .map((cell, c) => (left.has(c) ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!)))
        .join("  ")
        .trimEnd(),
    )
    .join("\n");
}

/**
 * A group's advantages, one per rollout: GRPO's (or RLOO's) under the settings; for a group with
 * GAR values, "GAR a1 a2 ... | GRPO b1 b2 ...", so the number GAR trains on comes first and says so.
 * `estimator` names the second list ("GRPO" or "RLOO").
 */
function advantagesCell(g: GroupAnalysis, estimator: string): string {
  const base = g.rollouts.map((r) => fmt(r.advantage, 2)).join(" ");
  if (!hasGarValues(g)) return base;
  const gar = g.rollouts.map((r) => fmt(r.garAdvantage ?? NaN, 2)).join(" ");
  return `GAR ${gar} | ${estimator} ${base}`;
}

const MAX_RUN_FILES = 6;

/** "run of 3 files, 3 steps (1..3): a/1.jsonl (step 1), ...": what a run is made of. */
export function runLine(run: NonNullable<CliLoad["run"]>): string {
  if (run.files.length > 0 && run.files.every((f) => formatGroupsAcrossFiles(f.format))) {
    const shown = run.files
      .slice(0, MAX_RUN_FILES)
      .map((f) => f.path)
      .join(", ");
    const rest =
      run.files.length > MAX_RUN_FILES ? `, and ${run.files.length - MAX_RUN_FILES} more` : "";
    const reports = run.reports ?? [];
    const scored =
      reports.length === 0
        ? "no evaluation report, so unscored"
        : `rewards from ${reports.length} evaluation report${reports.length === 1 ? "" : "s"} (${reports.join(", ")})`;
    return `run of ${run.files.length} trajectory file${run.files.length === 1 ? "" : "s"}, grouped across files; ${scored}: ${shown}${rest}`;
  }
  const steps = run.files.map((f) => f.step);
  const lo = steps.reduce((m, s) => Math.min(m, s), Infinity);
  const hi = steps.reduce((m, s) => Math.max(m, s), -Infinity);
  const range = steps.length === 0 ? "" : ` (${lo}..${hi})`;
  const files = run.files
    .slice(0, MAX_RUN_FILES)
    .map((f) => `${f.path} (step ${f.step})`)
    .join(", ");
  const more =
    run.files.length > MAX_RUN_FILES ? `, and ${run.files.length - MAX_RUN_FILES} more` : "";
  return `run of ${run.files.length} file${run.files.length === 1 ? "" : "s"}, ${run.steps} step${run.steps === 1 ? "" : "s"}${range}: ${files}${more}`;
}

/** The summary of `analysis`, whose head holds at least its first SUMMARY_GROUPS groups. */
export function summaryText(loaded: CliLoad, analysis: DatasetAnalysisHead): string {
  const s = analysis.summary;
  const st = analysis.settings;
  const lines: string[] = [];
  lines.push(`${loaded.file}: ${loaded.formatLabel}, grouped by ${loaded.groupKey}`);
  if (loaded.run !== undefined) lines.push(runLine(loaded.run));
  if (loaded.header !== undefined)
    lines.push(
      `run header (${loaded.header.file}): ${loaded.header.title}`,
      `  ${runHeaderDetails(loaded.header).join("; ")}`,
    );
  lines.push(
    `${s.rollouts} rollouts in ${s.groups} groups; ${s.passes} passes (${pct(s.passes, s.rollouts)}); ` +
      `${s.mixedGroups} mixed groups; ${s.zeroStdGroups} zero-std groups` +
      (s.unscorable > 0 ? `; ${s.unscorable} unscorable` : ""),
  );
  if (loaded.stats.rejected > 0)
    lines.push(
      `${loaded.stats.rejected} of ${loaded.stats.records} records rejected (see the problems below)`,
    );
  lines.push(
    `pass^k: ${Object.entries(s.passAtK)
      .map(([k, v]) => `k=${k} ${fmt(v, 4)}`)
      .join("  ")}`,
  );
  const advantage =
    st.estimator === "rloo"
      ? "RLOO"
      : `GRPO scale=${st.scale} eps=${st.eps} std=${st.std} ${st.aggregation}`;
  lines.push(
    `settings: ${advantage}; pass >= ${st.passThreshold}; GAR cap ${st.cap}, min factor ${st.minFactor}, ` +
      `hack zeroing ${st.hackZero ? "on" : "off"}; clusters: ${st.ngram}-grams of ${st.similarityOn === "tools" ? "tool calls" : st.similarityOn === "both" ? "text and tool calls" : "text"}, Jaccard >= ${st.similarity}, text ${st.completionRule}, first ${st.textChars} characters; ` +
      `rank ties ${st.rankTies}, win-rate tie ${st.tieCredit}`,
  );
  if (s.textsCut > 0)
    lines.push(
      `${s.textsCut} text${s.textsCut === 1 ? "" : "s"} cut to ${st.textChars} characters for the clusters (--text-chars)`,
    );
  if (s.garGroups > 0 || s.incompleteRankings.length > 0) {
    const g = analysis.gar;
    lines.push(
      `GAR from annotations: ${s.garGroups} group(s) applied, ${g.mixed} mixed, ${g.hacksZeroed} hack(s) zeroed, ` +
        `${g.lambdaCapped} lambda capped` +
        (s.incompleteRankings.length > 0
          ? `; ranking incomplete in ${s.incompleteRankings.join(", ")}`
          : ""),
    );
  }
  lines.push("");
  const estimatorName = st.estimator === "rloo" ? "RLOO" : "GRPO";
  const steps = cliGroupSteps(loaded);
  const withStep = loaded.run !== undefined;
  const header = [
    ...(withStep ? ["step"] : []),
    "group",
    "n",
    "passes",
    "mean",
    "std",
    "clusters",
    "flags",
    "advantages",
  ];
  const rows = analysis.head
    .slice(0, SUMMARY_GROUPS)
    .map((g) => [
      ...(withStep ? [String(steps.get(g.id) ?? "-")] : []),
      g.id,
      String(g.n),
      String(g.passes),
      fmt(g.meanReward),
      fmt(g.stdReward),
      String(g.nClusters),
      [
        g.mixed ? "mixed" : "",
        g.zeroStd ? "zero-std" : "",
        g.gar.kind === "applied" ? "GAR" : g.gar.kind === "incomplete" ? "rank-incomplete" : "",
      ]
        .filter(Boolean)
        .join(",") || "-",
      advantagesCell(g, estimatorName),
    ]);
  if (analysis.garValues)
    lines.push(
      `advantages: ${estimatorName}'s under the settings; where GAR applies, GAR's first (A', garAdvantage in --json), then ${estimatorName}'s`,
    );
  lines.push(table([header, ...rows], new Set(withStep ? [1, 7, 8] : [0, 6, 7])));
  if (s.groups > SUMMARY_GROUPS)
    lines.push(`(${SUMMARY_GROUPS} of ${s.groups} groups shown; use --json for all)`);
  return `${lines.join("\n")}\n`;
}
