/** The diversity clusterer's plan, beside its prompt (clusterer.ts). */
import type { RolloutGroup, RolloutId } from "../types.ts";
import { buildClusterPrompt, CLUSTER_TEMPLATE, parseClusterReply } from "./clusterer.ts";
import { judgeRolloutText, judgeTaskText } from "./judgeText.ts";
import { JUDGE_GROUP_RESULT_EMPTY } from "./runs.ts";
import { templateVersion, type PromptTemplate } from "./template.ts";
import type { ClusterResult } from "../ngram/cluster.ts";
import { resultsPerGroup } from "./planParts.ts";
import {
  type JudgeBuildOptions,
  JUDGE_BUILD_DEFAULTS,
  type JudgeTaskSpec,
  type JudgeSkip,
  type JudgePlan,
} from "./plan.ts";

/** One request per group of two or more rollouts; every rollout gets the judge's cluster id. */
export function judgePlanCluster(
  groups: readonly RolloutGroup[],
  options: JudgeBuildOptions = JUDGE_BUILD_DEFAULTS,
  template: PromptTemplate = CLUSTER_TEMPLATE,
): JudgePlan<ClusterResult> {
  const tasks: JudgeTaskSpec<ClusterResult>[] = [];
  const covered: RolloutGroup[] = [];
  const skipped: JudgeSkip[] = [];
  for (const group of groups) {
    const n = group.rollouts.length;
    if (n < 2) {
      skipped.push({ groupId: group.id, reason: "fewer than two rollouts" });
      continue;
    }
    covered.push(group);
    tasks.push({
      id: group.id,
      prompt: buildClusterPrompt(
        group.rollouts.map((r) => judgeRolloutText(r, options.maxChars)),
        judgeTaskText(group, options.maxChars),
        template,
      ),
      parse: (text) => parseClusterReply(text, n),
    });
  }
  return {
    mode: "cluster",
    promptVersion: templateVersion(template),
    tasks,
    groupIds: covered.map((g) => g.id),
    skipped,
    results: (outcomes) =>
      resultsPerGroup(tasks, covered, outcomes, (group, reply) => {
        const clusters: Record<RolloutId, string> = {};
        const named = new Map<string, string>();
        group.rollouts.forEach((r, k) => {
          const cid = reply.clusterIds[k]!;
          clusters[r.id] = cid;
          const label = reply.labels[k] ?? "";
          if (label !== "" && !named.has(cid)) named.set(cid, label);
        });
        return {
          ...JUDGE_GROUP_RESULT_EMPTY,
          clusters,
          reason:
            `${reply.nClusters} cluster${reply.nClusters === 1 ? "" : "s"}` +
            (named.size === 0 ? "" : `: ${[...named].map(([c, l]) => `${c} = ${l}`).join("; ")}`),
        };
      }),
  };
}
