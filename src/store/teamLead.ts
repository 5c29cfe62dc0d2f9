/**
 * What the lead's views compute from what the lead read (slices/teamLeadSlice.ts) and the loaded
 * run (issue 18): the groups' facts a queue filter reads, each person's work as core's
 * `TeamWork`, a queue's assignment as the server keeps it, and the live agreement over a queue's
 * overlap or over every group. Each is core's function of the data (`teamGroupFacts`,
 * `teamAssignmentOf`, `teamAgreement`, `teamSuggestGold`), computed on render, never stored, so
 * the numbers the lead sees are the numbers core computes on the annotations the server holds.
 */
import { useEffect, useMemo } from "react";
import {
  groupRewards,
  teamAgreement,
  teamAssignmentOf,
  teamGroupFacts,
  teamSuggestGold,
  TEAM_GOLD_ANNOTATOR,
  type AnalysisSettings,
  type Annotations,
  type GroupId,
  type RolloutGroup,
  type RolloutId,
  type TeamAgreement,
  type TeamAgreementOptions,
  type TeamAssignment,
  type TeamGoldSuggestion,
  type TeamGroupFacts,
  type TeamWork,
} from "../core/index.ts";
import type { LoadedDataset } from "../io/dataset.ts";
import type { TeamQueueViewReply } from "../io/view/teamApi.ts";
import { useDataset, useLoadedGroups, useSettings } from "./hooks.ts";
import { useStore } from "./index.ts";
import type { TeamPerson } from "./remote/teamClient.ts";
import type { TeamLeadData } from "./slices/teamLeadSlice.ts";
import { selectTeamMode } from "./team/teamSelectors.ts";

/**
 * Every group's facts for a queue filter, in the file's order: its step and rewards as the group
 * browser computes them (the reward weights apply to a parsed group; an indexed group not parsed
 * yet has its logged rewards), passes at the settings' threshold.
 */
export function teamFactsOf(
  dataset: Pick<LoadedDataset, "summaries" | "groups">,
  settings: Pick<AnalysisSettings, "passThreshold" | "rewardWeights">,
): TeamGroupFacts[] {
  const parsed = new Map(dataset.groups.map((g) => [g.id, g]));
  return dataset.summaries.map((s) =>
    teamGroupFacts(
      s.id,
      s.step,
      groupRewards(s.rewards, parsed.get(s.id)?.rollouts, settings.rewardWeights),
      settings.passThreshold,
    ),
  );
}

/** Each person's groups as core's work: every group of their document, submitted or a draft. */
export function teamWorkOf(people: readonly TeamPerson[]): TeamWork[] {
  return people.flatMap((p) =>
    Object.entries(p.annotations.groups).map(([groupId, annotation]) => ({
      user: p.user,
      groupId,
      annotation,
      submitted: Object.hasOwn(p.submitted, groupId),
    })),
  );
}

/** A queue's assignment from its items as the server lists them (queue order, assignees). */
export function teamQueueAssignment(items: TeamQueueViewReply["items"]): TeamAssignment {
  const ordered = [...items].sort((a, b) => a.position - b.position);
  return teamAssignmentOf(
    ordered.map((i) => i.groupId),
    Object.fromEntries(ordered.map((i) => [i.groupId, i.assignees])),
  );
}

/** The rollout ids of the parsed groups: hack marks are compared over every rollout of these. */
export function teamRolloutIds(
  groups: ReadonlyMap<GroupId, RolloutGroup>,
): Map<GroupId, RolloutId[]> {
  return new Map([...groups].map(([id, g]) => [id, g.rollouts.map((r) => r.id)]));
}

/**
 * core's `teamAgreement` options over one queue's overlap (`queue`: its name) or every group
 * (null): a queue's annotators, in the order its items name them, over its overlap groups;
 * otherwise everyone who submitted a group, over every group. Null when the queue is not (or no
 * longer) listed.
 */
export function teamAgreementOptions(
  data: Pick<TeamLeadData, "items">,
  queue: string | null,
  rollouts: ReadonlyMap<GroupId, readonly RolloutId[]>,
): TeamAgreementOptions | null {
  if (queue === null) return { rollouts };
  if (!Object.hasOwn(data.items, queue)) return null;
  const assignment = teamQueueAssignment(data.items[queue]!);
  return { annotators: assignment.annotators, groups: assignment.overlap, rollouts };
}

/**
 * The live agreement over a queue's overlap or every group (null): recomputed whenever the
 * lead's data is read again, which every `team` event asks for.
 */
export function useTeamAgreement(queue: string | null): TeamAgreement | null {
  const data = useStore((s) => s.teamLead.data);
  const groups = useLoadedGroups();
  return useMemo(() => {
    const options = teamAgreementOptions(data, queue, teamRolloutIds(groups ?? new Map()));
    return options === null ? null : teamAgreement(teamWorkOf(data.people), options);
  }, [data, groups, queue]);
}

/** The loaded run's groups as queue candidates' facts. */
export function useTeamFacts(): readonly TeamGroupFacts[] | null {
  const dataset = useDataset();
  const settings = useSettings();
  return useMemo(
    () => (dataset === null ? null : teamFactsOf(dataset, settings)),
    [dataset, settings],
  );
}

/**
 * What the given people's submitted annotations of a group agree on (core's suggestion for the
 * lead's resolution; never gold by itself).
 */
export function teamGoldSuggestionOf(
  people: readonly TeamPerson[],
  groupId: GroupId,
  users: readonly string[],
): TeamGoldSuggestion {
  return teamSuggestGold(groupId, teamWorkOf(people.filter((p) => users.includes(p.user))));
}

/** A human side for calibration that team mode offers a lead: the gold or one person's labels. */
export interface TeamHumanSource {
  /** `team:gold`, or `team:<user>`. */
  readonly value: string;
  readonly label: string;
  readonly annotations: Pick<Annotations, "annotator" | "groups">;
}

/**
 * The human sides a lead can calibrate against besides their own labels: the gold, then each
 * other person who wrote anything, as the lead last read them (every label, submitted or a draft,
 * as the person's document holds it). The page's own person is left out: their labels are the
 * page's own annotations already.
 */
export function teamHumanSources(
  data: Pick<TeamLeadData, "people" | "gold">,
  self: string,
): TeamHumanSource[] {
  const out: TeamHumanSource[] = [];
  if (data.gold !== null)
    out.push({
      value: `team:${TEAM_GOLD_ANNOTATOR}`,
      label: "the gold (the lead's resolutions)",
      annotations: { annotator: TEAM_GOLD_ANNOTATOR, groups: data.gold.annotations.groups },
    });
  for (const p of data.people)
    if (p.user !== self)
      out.push({
        value: `team:${p.user}`,
        label: `labels of ${p.user}`,
        annotations: { annotator: p.user, groups: p.annotations.groups },
      });
  return out;
}

/**
 * For a lead's page, the team's human sides (read, and followed, while a view uses them); an
 * empty list for anyone else, who may read only their own labels.
 */
export function useTeamHumanSources(): readonly TeamHumanSource[] {
  const self = useStore((s) => {
    const mode = selectTeamMode(s);
    return mode !== null && mode.team.role === "lead" ? mode.team.user : null;
  });
  const follow = useStore((s) => s.teamLeadFollow);
  useEffect(() => (self === null ? undefined : follow()), [self, follow]);
  const people = useStore((s) => s.teamLead.data.people);
  const gold = useStore((s) => s.teamLead.data.gold);
  return useMemo(
    () => (self === null ? [] : teamHumanSources({ people, gold }, self)),
    [self, people, gold],
  );
}
