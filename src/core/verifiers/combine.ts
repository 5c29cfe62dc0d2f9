/**
 * How a rollout's logged reward and its verifiers' components make the total the trainer sees
 * (the spec's `loggedReward` rule), which rule `auto` stands for on a given file, and who passes
 * differently once a spec is applied: the check the Verifiers panel shows before it applies a
 * spec, and `analyze --verifiers` prints.
 *
 * The rules, for a logged reward R and the verifiers' values v1..vk (null ones skipped, as TRL's
 * nansum skips NaN):
 *
 * - `multiply`: R x v1 x ... x vk. With a 0/1 reward and 0/1 verifiers the total stays 0/1, so the
 *   pass threshold keeps its meaning: a verifier can turn a pass into a fail, never a fail into a
 *   pass (a gate, as a format gate gates a correctness reward).
 * - `keep`: R + v1 + ... + vk, a re-score on top of the file (the total's scale grows with k).
 * - `drop`: v1 + ... + vk, the verifiers alone.
 * - `auto` (the default): `multiply` when every logged reward of the file is 0 or 1, else `keep`.
 */
import { rolloutReward } from "../analysis/analyze.ts";
import type { Rollout, RolloutGroup } from "../types.ts";

/** A spec's rule for the logged reward; `auto` is resolved against the file's rewards. */
export type LoggedRewardRule = "auto" | "multiply" | "keep" | "drop";
/** A rule as applied: `auto` resolved. */
export type LoggedRewardApplied = Exclude<LoggedRewardRule, "auto">;

export const LOGGED_REWARD_RULES: readonly LoggedRewardRule[] = [
  "auto",
  "multiply",
  "keep",
  "drop",
];

/** The rule in force on a file, and why. */
export interface LoggedRewardResolution {
  readonly rule: LoggedRewardApplied;
  /** True when the spec said `auto`. */
  readonly auto: boolean;
  /** One sentence: what the total is, and (for auto) what in the file decided it. */
  readonly reason: string;
}

const RULE_TEXT: Readonly<Record<LoggedRewardApplied, string>> = {
  multiply: "the total is the logged reward times the verifiers' components",
  keep: "the total is the logged reward plus the verifiers' components",
  drop: "the total is the verifiers' components alone",
};

function finite(x: number | null | undefined): x is number {
  return typeof x === "number" && Number.isFinite(x);
}

/**
 * The rule a spec's `loggedReward` stands for on these groups (the file's own rollouts, before
 * any verifier). `auto` is `multiply` when the file has a logged reward and every one is 0 or 1
 * (a binary task reward), else `keep`.
 */
export function verifierLoggedRewardResolve(
  rule: LoggedRewardRule,
  groups: readonly RolloutGroup[],
): LoggedRewardResolution {
  if (rule !== "auto") return { rule, auto: false, reason: `${RULE_TEXT[rule]}.` };
  let seen = 0;
  for (const g of groups)
    for (const r of g.rollouts) {
      const x = rolloutReward(r, null);
      if (!finite(x)) continue;
      seen++;
      if (x !== 0 && x !== 1)
        return {
          rule: "keep",
          auto: true,
          reason: `auto: ${r.id}'s logged reward is ${Number(x.toFixed(4))}, not 0 or 1, so ${RULE_TEXT.keep}.`,
        };
    }
  if (seen === 0)
    return {
      rule: "keep",
      auto: true,
      reason: `auto: no rollout has a logged reward, so the total is the verifiers' components alone.`,
    };
  return {
    rule: "multiply",
    auto: true,
    reason: `auto: every logged reward is 0 or 1, so ${RULE_TEXT.multiply} (a 0/1 reward stays 0/1 under 0/1 verifiers).`,
  };
}

/**
 * The total under a rule: the logged reward (null when the file has none) and the verifiers'
 * values (null: does not apply, skipped). Null when nothing is usable.
 */
export function verifierCombine(
  rule: LoggedRewardApplied,
  logged: number | null,
  values: readonly (number | null)[],
): number | null {
  const usable = values.filter(finite);
  const base = rule === "drop" || !finite(logged) ? null : logged;
  if (usable.length === 0) return base;
  if (rule === "multiply") return usable.reduce((a, b) => a * b, base ?? 1);
  return usable.reduce((a, b) => a + b, base ?? 0);
}

/** One rollout that passes under one reward and fails under the other. */
export interface VerifierFlip {
  readonly groupId: string;
  readonly rolloutId: string;
  /** The total before (the file's reward under the settings) and after the spec; NaN for none. */
  readonly before: number;
  readonly after: number;
  /** True: fail to pass. */
  readonly toPass: boolean;
  /** Why, in one sentence: "the total goes from 0 to 1 (exact_match 1 added) and the pass threshold is 0.5". */
  readonly why: string;
}

/** A group's passes before and after, when they differ. */
export interface VerifierGroupFlips {
  readonly groupId: string;
  readonly n: number;
  readonly passesBefore: number;
  readonly passesAfter: number;
  readonly toPass: number;
  readonly toFail: number;
}

export interface VerifierFlipReport {
  readonly rollouts: number;
  readonly passesBefore: number;
  readonly passesAfter: number;
  readonly flips: readonly VerifierFlip[];
  /** Only the groups with a flip, in data order. */
  readonly groups: readonly VerifierGroupFlips[];
}

function num(x: number): string {
  return Number.isFinite(x) ? String(Number(x.toFixed(4))) : "none";
}

/** What the spec's components did to a rollout, for the reason: "exact_match 1 added". */
function componentsText(
  after: Rollout,
  added: readonly string[],
  rule: LoggedRewardApplied,
): string {
  const parts = added
    .filter((k) => k in after.rewards)
    .map((k) => {
      const v = after.rewards[k];
      return `${k} ${finite(v) ? num(v) : "n/a"}`;
    });
  if (parts.length === 0) return "";
  const how = rule === "multiply" ? "multiplied in" : rule === "keep" ? "added" : "the total";
  return ` (${parts.join(", ")} ${how})`;
}

/**
 * Who passes differently with a spec applied: each rollout's total before (`before`, the file's
 * own rollouts) and after (`after`, the same groups augmented) under the same reward weights,
 * against the pass threshold. The groups must be the same groups in the same order.
 *
 * @param added the components the spec adds (apply.ts `VerifierLayout.emitted`)
 */
export function verifierFlips(
  before: readonly RolloutGroup[],
  after: readonly RolloutGroup[],
  settings: {
    readonly passThreshold: number;
    readonly rewardWeights: Readonly<Record<string, number>> | null;
  },
  added: readonly string[],
  rule: LoggedRewardApplied,
): VerifierFlipReport {
  const flips: VerifierFlip[] = [];
  const groups: VerifierGroupFlips[] = [];
  let rollouts = 0;
  let passesBefore = 0;
  let passesAfter = 0;
  const t = settings.passThreshold;
  before.forEach((g, gi) => {
    const h = after[gi];
    let pb = 0;
    let pa = 0;
    let toPass = 0;
    let toFail = 0;
    g.rollouts.forEach((r, i) => {
      const a = h?.rollouts[i] ?? r;
      const x = rolloutReward(r, settings.rewardWeights);
      const y = rolloutReward(a, settings.rewardWeights);
      const wasPass = x >= t;
      const isPass = y >= t;
      rollouts++;
      if (wasPass) pb++;
      if (isPass) pa++;
      if (wasPass === isPass) return;
      if (isPass) toPass++;
      else toFail++;
      flips.push({
        groupId: g.id,
        rolloutId: r.id,
        before: x,
        after: y,
        toPass: isPass,
        why: `the total goes from ${num(x)} to ${num(y)}${componentsText(a, added, rule)} and the pass threshold is ${num(t)}`,
      });
    });
    passesBefore += pb;
    passesAfter += pa;
    if (toPass + toFail > 0)
      groups.push({
        groupId: g.id,
        n: g.rollouts.length,
        passesBefore: pb,
        passesAfter: pa,
        toPass,
        toFail,
      });
  });
  return { rollouts, passesBefore, passesAfter, flips, groups };
}

/** The report as lines (the CLI's stderr): a headline, then one line per group and per flip. */
export function verifierFlipLines(report: VerifierFlipReport, limit = 50): string[] {
  const n = report.flips.length;
  if (n === 0)
    return [
      `no rollout changes pass/fail: ${report.passesBefore} of ${report.rollouts} pass before and after`,
    ];
  const toPass = report.flips.filter((f) => f.toPass).length;
  const lines = [
    `${n} rollout${n === 1 ? "" : "s"} change pass/fail (${toPass} fail -> pass, ${n - toPass} pass -> fail): passes ${report.passesBefore} -> ${report.passesAfter} of ${report.rollouts}`,
  ];
  for (const g of report.groups)
    lines.push(`  ${g.groupId}: passes ${g.passesBefore} -> ${g.passesAfter} of ${g.n}`);
  for (const f of report.flips.slice(0, limit))
    lines.push(`  ${f.rolloutId}: ${f.toPass ? "fail -> pass" : "pass -> fail"}: ${f.why}`);
  if (n > limit) lines.push(`  ... and ${n - limit} more`);
  return lines;
}
