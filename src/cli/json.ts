/** The `--json` document. Field names are a public contract: add fields, never rename them. */
import type { ChatMessage, DatasetAnalysis, Rollout } from "../core/index.ts";
import { toolArgumentsValue, type ParseIssue } from "../io/index.ts";
import { cliGroupSteps, type CliLoad } from "./loadForCli.ts";

/** JSON has no NaN: a missing number is null. */
const num = (x: number): number | null => (Number.isFinite(x) ? x : null);

/** One normalised message for `--messages`: what the loader read, tool arguments parsed. */
function messageJson(m: ChatMessage) {
  return {
    role: m.role,
    text: m.content,
    ...(m.toolCalls.length === 0
      ? {}
      : {
          toolCalls: m.toolCalls.map((c) => ({
            id: c.id,
            name: c.name,
            arguments: toolArgumentsValue(c),
            ...(c.requestor === undefined ? {} : { requestor: c.requestor }),
          })),
        }),
    ...(m.toolCallId === null ? {} : { toolCallId: m.toolCallId }),
    ...(m.name === null ? {} : { name: m.name }),
    ...(m.error === true ? { error: true } : {}),
  };
}

/** A rollout's transcript for `--messages`: its prompt, its messages and its completion text. */
function transcriptJson(r: Rollout) {
  return {
    prompt:
      typeof r.prompt === "string" || r.prompt === null ? r.prompt : r.prompt.map(messageJson),
    messages: r.messages.map(messageJson),
    completion: r.completion,
  };
}

export interface AnalysisJsonOptions {
  /** Add each rollout's normalised transcript (`--messages`). */
  readonly messages?: boolean;
}

export function analysisJson(
  loaded: CliLoad,
  analysis: DatasetAnalysis,
  issues: readonly ParseIssue[],
  options: AnalysisJsonOptions = {},
) {
  const s = analysis.summary;
  const steps = cliGroupSteps(loaded);
  const rollouts = new Map<string, Rollout>();
  if (options.messages === true)
    for (const g of loaded.groups) for (const r of g.rollouts) rollouts.set(r.id, r);
  const transcript = (id: string) => {
    const r = rollouts.get(id);
    return r === undefined ? {} : { transcript: transcriptJson(r) };
  };
  return {
    format: loaded.format,
    groupKey: loaded.groupKey,
    ...(loaded.header === undefined
      ? {}
      : {
          runMetadata: {
            file: loaded.header.file,
            title: loaded.header.title,
            fields: loaded.header.fields,
          },
        }),
    ...(loaded.run === undefined
      ? {}
      : {
          run: {
            name: loaded.run.name,
            steps: loaded.run.steps,
            files: loaded.run.files.map((f) => ({
              path: f.path,
              step: f.step,
              stepSource: f.stepSource,
              format: f.format,
              groups: f.groups,
              rollouts: f.rollouts,
            })),
          },
        }),
    settings: analysis.settings,
    summary: {
      rollouts: s.rollouts,
      groups: s.groups,
      passes: s.passes,
      mixedGroups: s.mixedGroups,
      zeroStdGroups: s.zeroStdGroups,
      passAtK: Object.fromEntries(Object.entries(s.passAtK).map(([k, v]) => [k, num(v)])),
      unscorable: s.unscorable,
      garGroups: s.garGroups,
      incompleteRankings: s.incompleteRankings,
      textsCut: s.textsCut,
      records: loaded.stats.records,
      rejected: loaded.stats.rejected,
    },
    groups: analysis.groups.map((g) => ({
      id: g.id,
      step: steps.get(g.id) ?? null,
      mixed: g.mixed,
      zeroStd: g.zeroStd,
      passes: g.passes,
      clusters: g.nClusters,
      gar: g.gar.kind === "applied" ? g.gar.outcome.status : g.gar.kind,
      rankSource: g.rankSource,
      rollouts: g.rollouts.map((r) => ({
        id: r.id,
        reward: num(r.reward),
        passed: r.passed,
        advantage: r.advantage,
        ...(r.trainerAdvantage === null ? {} : { trainerAdvantage: r.trainerAdvantage }),
        rank: r.rank,
        place: r.place,
        winRate: r.winRate,
        cluster: r.cluster,
        clusterSize: r.clusterSize,
        ...(r.hack ? { hack: true } : {}),
        ...(r.garReward === null ? {} : { garReward: r.garReward, garAdvantage: r.garAdvantage }),
        ...(r.factor === null ? {} : { factor: r.factor }),
        ...transcript(r.id),
      })),
    })),
    issues: issues.map((i) => ({
      file: i.file,
      line: i.line,
      ...(i.field ? { field: i.field } : {}),
      message: i.message,
    })),
  };
}
