/**
 * A generated health run (scripts/healthRun.ts) as core's groups, for core's tests: each native
 * JSONL row becomes a rollout with the run's ids (`<step>/p<i>`, `<step>/p<i>/<index>`), as io's
 * run merge names them, without going through io (core's tests stay inside core).
 */
import type { Rollout, RolloutGroup } from "../core/index.ts";
import type { HealthRun } from "../../scripts/healthRun.ts";

interface Row {
  readonly group_id: string;
  readonly step: number;
  readonly prompt: string;
  readonly completion: string;
  readonly rewards: Record<string, number>;
}

/** Every group of the run with its step, in file then row order. */
export function healthRunGroups(run: HealthRun): { group: RolloutGroup; step: number }[] {
  const out: { group: RolloutGroup; step: number }[] = [];
  for (const file of run.files) {
    const byGroup = new Map<string, Rollout[]>();
    const rows = file.text
      .split("\n")
      .filter((line) => line !== "")
      .map((line) => JSON.parse(line) as Row);
    rows.forEach((row, line) => {
      const groupId = `${row.step}/${row.group_id}`;
      let rollouts = byGroup.get(groupId);
      if (rollouts === undefined) byGroup.set(groupId, (rollouts = []));
      rollouts.push({
        id: `${groupId}/${rollouts.length}`,
        groupId,
        index: rollouts.length,
        prompt: row.prompt,
        messages: [],
        completion: row.completion,
        reward: null,
        rewards: row.rewards,
        answer: null,
        testsPassed: null,
        meta: { step: row.step },
        source: { file: file.name, line: line + 1 },
      });
    });
    for (const [id, rollouts] of byGroup)
      out.push({ group: { id, rollouts }, step: rollouts[0]!.meta.step as number });
  }
  return out;
}
