/**
 * Hack spread across a run (issue 19): which rollouts are within the similarity threshold of a
 * rollout a person marked as a hack (the "Find similar" test, under the same similarity settings),
 * and, where people judged a sample, how well that test agrees with them, so a step's share can be
 * corrected (Rogan-Gladen, core/calibration/agreement.ts). Pure.
 */
import type { AnalysisSettings } from "../analysis/analysisSettings.ts";
import type { Annotations, GroupAnnotation } from "../analysis/annotations.ts";
import { rolloutSimilarityInput } from "../analysis/text.ts";
import { garRunHackFlags, latestGarRuns } from "../judge/hackFlags.ts";
import { ngramJaccard, ngramSet } from "../ngram/ngrams.ts";
import { similarityCombine, toolCallNgramSet } from "../ngram/toolCalls.ts";
import type { Rollout, RolloutGroup } from "../types.ts";
import { NO_HACK_LIKE, type HackLikeTally, type HackMarks } from "./groupHealth.ts";

/** A marked hack as the similarity test reads it: its n-gram sets under the settings. */
export interface HackExemplar {
  readonly rolloutId: string;
  readonly text: ReadonlySet<string> | null;
  readonly calls: ReadonlySet<string> | null;
  readonly hasCalls: boolean;
}

type SimilaritySettings = Pick<
  AnalysisSettings,
  "ngram" | "similarity" | "similarityOn" | "completionRule" | "textChars"
>;

function signature(rollout: Rollout, settings: SimilaritySettings): HackExemplar {
  const input = rolloutSimilarityInput(rollout, settings.completionRule, settings.textChars);
  return {
    rolloutId: rollout.id,
    text: settings.similarityOn === "tools" ? null : ngramSet(input.text, settings.ngram),
    calls: settings.similarityOn === "text" ? null : toolCallNgramSet(input.calls, settings.ngram),
    hasCalls: input.calls.length > 0,
  };
}

/** The rollout ids people marked as hacks, over every group of the annotations. */
export function markedHackIds(annotations: Pick<Annotations, "groups"> | null): Set<string> {
  const out = new Set<string>();
  if (annotations === null) return out;
  for (const a of Object.values(annotations.groups)) for (const id of a.hacks) out.add(id);
  return out;
}

/** The marked hacks of these groups, as exemplars (in the groups' order). */
export function hackExemplarsOf(
  groups: Iterable<RolloutGroup>,
  marked: ReadonlySet<string>,
  settings: SimilaritySettings,
): HackExemplar[] {
  const out: HackExemplar[] = [];
  if (marked.size === 0) return out;
  for (const g of groups)
    for (const r of g.rollouts) if (marked.has(r.id)) out.push(signature(r, settings));
  return out;
}

/** The similarity of two signatures under `on`, as "Find similar" combines text and calls. */
function similarityOf(a: HackExemplar, b: HackExemplar, settings: SimilaritySettings): number {
  const text = a.text === null || b.text === null ? 0 : ngramJaccard(a.text, b.text);
  const tools = a.calls === null || b.calls === null ? 0 : ngramJaccard(a.calls, b.calls);
  return similarityCombine(text, tools, a.hasCalls || b.hasCalls, settings.similarityOn);
}

/**
 * Who judged a rollout for hacks, and what they said: a rollout of a reviewed group, a marked
 * one, or one with a pass/fail label is judged (a hack when marked); any other is not (null).
 */
export function hackTruth(
  annotation: GroupAnnotation | undefined,
  rolloutId: string,
): boolean | null {
  if (annotation === undefined) return null;
  if (annotation.hacks.includes(rolloutId)) return true;
  if (annotation.reviewed) return false;
  const label = annotation.labels[rolloutId];
  return label === "pass" || label === "fail" ? false : null;
}

/**
 * A group's hack-like tally: each rollout is compared with every exemplar but itself; it is
 * predicted hack-like when one is at least `settings.similarity` similar, and counts as hack-like
 * when so predicted or marked itself.
 */
export function groupHackLike(
  group: RolloutGroup,
  exemplars: readonly HackExemplar[],
  annotation: GroupAnnotation | undefined,
  settings: SimilaritySettings,
): HackLikeTally {
  if (exemplars.length === 0) return NO_HACK_LIKE;
  let like = 0;
  let tp = 0;
  let fp = 0;
  let fn = 0;
  let tn = 0;
  let unlabelled = 0;
  let unlabelledLike = 0;
  for (const r of group.rollouts) {
    const sig = signature(r, settings);
    let predicted = false;
    for (const e of exemplars) {
      if (e.rolloutId === r.id) continue;
      if (similarityOf(sig, e, settings) >= settings.similarity) {
        predicted = true;
        break;
      }
    }
    const truth = hackTruth(annotation, r.id);
    if (predicted || truth === true) like++;
    if (truth === null) {
      unlabelled++;
      if (predicted) unlabelledLike++;
    } else if (truth) {
      if (predicted) tp++;
      else fn++;
    } else if (predicted) fp++;
    else tn++;
  }
  return { like, tp, fp, fn, tn, unlabelled, unlabelledLike };
}

/**
 * The hack marks of each group: people's (`hacks`), and the latest gar run's flags for it, by
 * the heuristic grader or an LLM judge (core/judge/hackFlags.ts).
 */
export function hackMarksOf(
  annotations: Pick<Annotations, "groups" | "judgeRuns"> | null,
): (groupId: string) => HackMarks {
  if (annotations === null) return () => ({ human: 0, heuristic: 0, judge: 0 });
  const latest = latestGarRuns(annotations.judgeRuns);
  return (groupId) => {
    const human = new Set(annotations.groups[groupId]?.hacks ?? []).size;
    const run = latest.get(groupId);
    const flags = run === undefined ? null : garRunHackFlags(run, groupId);
    return {
      human,
      heuristic: flags?.by === "heuristic" ? flags.flagged : 0,
      judge: flags?.by === "judge" ? flags.flagged : 0,
    };
  };
}
