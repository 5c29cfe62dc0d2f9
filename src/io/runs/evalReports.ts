/**
 * Evaluation reports beside agent trajectories: they hold no transcript, only which instances or
 * trials passed, and give the reward of the trajectory formats' rollouts (swe-agent, openhands,
 * atif), which carry none themselves. Read by content, never by name. The shapes:
 *
 * - SWE-bench's per-instance `report.json` (SWE-bench/SWE-bench, swebench/harness/grading.py
 *   `get_eval_report`): `{<instance_id>: {resolved: bool, patch_successfully_applied, tests_status,
 *   ...}}`; resolved is 1, else 0.
 * - SWE-bench's run report (`<model>.<run_id>.json`, swebench/harness/reporting.py
 *   `make_run_report`) and OpenHands' `report.json` beside `output.jsonl`
 *   (evaluation/benchmarks/swe_bench/eval_infer.py): `resolved_ids`, `unresolved_ids`,
 *   `empty_patch_ids`, `error_ids`, ... lists; resolved is 1, unresolved and empty patches 0, an
 *   evaluation error null (not scored: the harness could not run the tests).
 * - OpenHands' older `report.json`: `{resolved: [ids], applied: [...], test_errored: [...], ...}`;
 *   resolved is 1, any other list 0.
 * - Harbor's trial `result.json` (laude-institute/harbor, src/harbor/models/trial/result.py
 *   `TrialResult`): `{task_name, trial_name, verifier_result: {rewards: {reward, ...}} | null,
 *   exception_info, ...}`, keyed by trial name; the reward is `rewards.reward` (else the only
 *   number in `rewards`); no verifier result is null.
 *
 * A rollout the reports do not name stays unscored (null), never 0. A reward the file itself gave
 * is kept.
 */
import { rolloutReward, type Rollout, type RolloutGroup } from "../../core/index.ts";
import type { LoadedDataset, RunHeader } from "../dataset.ts";
import { isPlainObject } from "../formats/fields.ts";
import { formatGroupsAcrossFiles } from "../formats/catalog.ts";
import { parseJsonLenient } from "../containers/pythonJson.ts";
import { decodeRecord, bomLength } from "../containers/bytes.ts";
import type { LoadError, ParseIssue } from "../issues.ts";
import { AmbiguousFormatError } from "../formats/load.ts";
import { isTrajectoryPath } from "./runFiles.ts";
import { runHeaderFromBytes } from "./runHeader.ts";

export interface EvalVerdict {
  /** 1 resolved, 0 not, null when the evaluation gave no verdict (an error). */
  readonly reward: number | null;
  /** "resolved", "unresolved", "empty_patch", "error", ... as the report says. */
  readonly status: string;
}

export type EvalReportKind =
  "swe-bench-instance" | "swe-bench-run" | "openhands-legacy" | "harbor-trial";

export interface EvalReport {
  readonly kind: EvalReportKind;
  /** What the verdicts are keyed by: an instance id (the group), or a Harbor trial name. */
  readonly key: "instance" | "trial";
  readonly verdicts: ReadonlyMap<string, EvalVerdict>;
}

const RUN_LISTS: readonly [string, EvalVerdict][] = [
  ["resolved_ids", { reward: 1, status: "resolved" }],
  ["unresolved_ids", { reward: 0, status: "unresolved" }],
  ["empty_patch_ids", { reward: 0, status: "empty_patch" }],
  ["error_ids", { reward: null, status: "error" }],
];

const stringList = (v: unknown): v is string[] =>
  Array.isArray(v) && v.every((x) => typeof x === "string");

function harborReward(verifier: unknown): number | null {
  if (!isPlainObject(verifier) || !isPlainObject(verifier.rewards)) return null;
  const rewards = verifier.rewards;
  if (typeof rewards.reward === "number" && Number.isFinite(rewards.reward)) return rewards.reward;
  const numbers = Object.values(rewards).filter(
    (x): x is number => typeof x === "number" && Number.isFinite(x),
  );
  return numbers.length === 1 ? numbers[0]! : null;
}

/** The report a JSON value is, or null when it is none of the shapes above. */
export function readEvalReport(value: unknown): EvalReport | null {
  if (!isPlainObject(value)) return null;
  if (typeof value.trial_name === "string" && "verifier_result" in value) {
    const reward = harborReward(value.verifier_result);
    const status =
      value.verifier_result === null || value.verifier_result === undefined
        ? "not verified"
        : reward === null
          ? "no reward"
          : "verified";
    return {
      kind: "harbor-trial",
      key: "trial",
      verdicts: new Map([[value.trial_name, { reward, status }]]),
    };
  }
  if (RUN_LISTS.some(([k]) => stringList(value[k]))) {
    const verdicts = new Map<string, EvalVerdict>();
    // Later lists do not overwrite earlier ones: resolved wins over anything else.
    for (const [k, verdict] of RUN_LISTS) {
      const list = value[k];
      if (stringList(list)) for (const id of list) if (!verdicts.has(id)) verdicts.set(id, verdict);
    }
    return { kind: "swe-bench-run", key: "instance", verdicts };
  }
  const entries = Object.entries(value);
  if (entries.length === 0) return null;
  if (entries.every(([, v]) => isPlainObject(v) && typeof v.resolved === "boolean")) {
    const verdicts = new Map<string, EvalVerdict>();
    for (const [id, v] of entries) {
      const resolved = isPlainObject(v) && v.resolved === true;
      verdicts.set(id, { reward: resolved ? 1 : 0, status: resolved ? "resolved" : "unresolved" });
    }
    return { kind: "swe-bench-instance", key: "instance", verdicts };
  }
  if (stringList(value.resolved) && entries.every(([, v]) => stringList(v))) {
    const verdicts = new Map<string, EvalVerdict>();
    for (const id of value.resolved) verdicts.set(id, { reward: 1, status: "resolved" });
    for (const [k, list] of entries)
      if (k !== "resolved" && stringList(list))
        for (const id of list) if (!verdicts.has(id)) verdicts.set(id, { reward: 0, status: k });
    return { kind: "openhands-legacy", key: "instance", verdicts };
  }
  return null;
}

/** A file's bytes as a report: one JSON document (a BOM allowed); null when it is none. */
export function evalReportFromBytes(bytes: Uint8Array): EvalReport | null {
  const decoded = decodeRecord(bytes.subarray(bomLength(bytes)));
  if (!decoded.ok) return null;
  const parsed = parseJsonLenient(decoded.text);
  return parsed.ok ? readEvalReport(parsed.value) : null;
}

/** A report with the file it came from, as a run holds it. */
export interface RunReport {
  readonly file: string;
  readonly report: EvalReport;
}

/**
 * Give the trajectory formats' unscored rollouts the reward the reports give: by instance id (the
 * group's id in its file, `localId`) or by Harbor trial name (`meta.trial_name`). In a run, a
 * report speaks for the trajectories in its folder and below only (a report beside one run's
 * `.traj` does not score another run's trajectory of the same instance). The verdict is kept in the
 * rollout's meta as `evaluation` ({file, kind, status}). Other formats, rollouts with a reward, and
 * an indexed dataset's unparsed groups are left as they are.
 *
 * @param localId the id a group had in its own file (a run may have prefixed it with its step)
 * @param scoped whether a report applies only under its own folder (a run's paths); false for the
 *   reports found beside one file given alone
 */
export function applyEvalReports(
  dataset: LoadedDataset,
  reports: readonly RunReport[],
  localId: (groupId: string) => string = (id) => id,
  scoped = true,
): LoadedDataset {
  if (reports.length === 0 || !formatGroupsAcrossFiles(dataset.format)) return dataset;
  const covers = (reportFile: string, file: string): boolean => {
    if (!scoped) return true;
    const at = reportFile.lastIndexOf("/");
    return at === -1 || file.startsWith(reportFile.slice(0, at + 1));
  };
  const verdictOf = (r: Rollout, groupId: string) => {
    for (const { file, report } of reports) {
      if (!covers(file, r.source.file)) continue;
      const key = report.key === "trial" ? r.meta.trial_name : localId(groupId);
      const verdict = typeof key === "string" ? report.verdicts.get(key) : undefined;
      if (verdict !== undefined) return { file, kind: report.kind, ...verdict };
    }
    return null;
  };
  let changed = false;
  const groups = dataset.groups.map((g): RolloutGroup => {
    let groupChanged = false;
    const rollouts = g.rollouts.map((r): Rollout => {
      if (r.reward !== null) return r;
      const v = verdictOf(r, g.id);
      if (v === null) return r;
      groupChanged = true;
      return {
        ...r,
        reward: v.reward,
        meta: { ...r.meta, evaluation: { file: v.file, kind: v.kind, status: v.status } },
      };
    });
    if (!groupChanged) return g;
    changed = true;
    return { ...g, rollouts };
  });
  if (!changed) return dataset;
  const byId = new Map(groups.map((g) => [g.id, g]));
  return {
    ...dataset,
    groups,
    summaries: dataset.summaries.map((s) => {
      const g = byId.get(s.id);
      return g === undefined ? s : { ...s, rewards: g.rollouts.map((r) => rolloutReward(r, null)) };
    }),
  };
}

/**
 * What a run's file that gave no rollout (`error`) is instead: the run's header (verifiers'
 * `metadata.json`, runHeader.ts), an evaluation report (used for the rewards), or, in a run of
 * agent trajectories, a JSON file beside them that is neither (left out with one issue: SWE-agent's
 * `preds.json`, Harbor's job `result.json`). Null when the error stands (the run fails as before).
 */
export function runFileInstead(
  path: string,
  runKind: string,
  bytes: Uint8Array,
  error: LoadError,
):
  | { readonly report: RunReport }
  | { readonly issue: ParseIssue }
  | { readonly header: RunHeader }
  | null {
  if (!/\.json$/i.test(path) || error instanceof AmbiguousFormatError) return null;
  const header = runHeaderFromBytes(path, bytes);
  if (header !== null) return { header };
  const report = evalReportFromBytes(bytes);
  if (report !== null) return { report: { file: path, report } };
  if (runKind !== "agent-trajectories" || isTrajectoryPath(path)) return null;
  return {
    issue: {
      file: path,
      line: 0,
      message: "is neither a trajectory nor an evaluation report; it is left out of the run",
    },
  };
}
