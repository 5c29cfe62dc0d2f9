/**
 * A run's health as the worker (and its main-thread fallback) computes it: the marked hacks are
 * collected over every group first (the hack-like test compares each rollout with all of them,
 * whichever step they are in), then core's runHealth tallies the groups by step. The CLI's
 * `health` and the e2e spec compute the same numbers with the same core calls.
 */
import { hackExemplarsOf, markedHackIds, runHealth, type RunHealth } from "../core/index.ts";
import type { HealthRequest } from "./healthProtocol.ts";

export function computeRunHealth(
  request: Pick<HealthRequest, "groups" | "settings" | "clusterSample" | "annotations">,
): RunHealth {
  const { groups, settings, clusterSample, annotations } = request;
  const exemplars = hackExemplarsOf(
    groups.map((g) => g.group),
    markedHackIds(annotations),
    settings,
  );
  return runHealth(groups, settings, { clusterSample }, { annotations, exemplars });
}
