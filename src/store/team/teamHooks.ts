/**
 * Team mode's hooks (issue 18): who the page is, and what blind mode lets the viewer see. Every
 * view that shows a reward, something computed from rewards or a judge's verdict asks here first
 * (`useRewardsShown` / `useJudgeShown` for one group, `useDatasetRewardsShown` for a view over the
 * whole dataset); out of team mode they say "shown". The rule is core's `teamVisibility`, read
 * through teamSelectors.ts.
 */
import { useMemo } from "react";
import { teamVisibility, teamVisibilityNote, type TeamVisibility } from "../../core/index.ts";
import { useStore } from "../index.ts";
import {
  selectBlindPending,
  selectJudgeShown,
  selectRewardsShown,
  selectTeamGroupContext,
  selectTeamMode,
  type TeamMode,
} from "./teamSelectors.ts";

/** The dataset's team mode (session and person), or null out of team mode. */
export function useTeamMode(): TeamMode | null {
  const load = useStore((s) => s.load);
  return useMemo(() => selectTeamMode({ load, teamState: null }), [load]);
}

/** What the viewer may see of a group (core's `teamVisibility`), or null out of team mode. */
export function useTeamVisibility(groupId: string | null): TeamVisibility | null {
  // A primitive from the selector (a new object each call would render forever).
  const context = useStore((s) => {
    if (groupId === null) return "";
    const c = selectTeamGroupContext(s, groupId);
    return c === null ? "" : `${c.role} ${c.blind ? 1 : 0} ${c.submitted ? 1 : 0}`;
  });
  return useMemo(() => {
    if (context === "") return null;
    const [role, blind, submitted] = context.split(" ");
    return teamVisibility({
      role: role === "lead" ? "lead" : "annotator",
      blind: blind === "1",
      submitted: submitted === "1",
    });
  }, [context]);
}

/** core's `teamVisibilityNote` for the group: the blind note, or null when nothing is hidden. */
export function useTeamVisibilityNote(groupId: string | null): string | null {
  const visibility = useTeamVisibility(groupId);
  return visibility === null ? null : teamVisibilityNote(visibility);
}

/** The group's rewards and what is computed from them may be shown (null group: true). */
export function useRewardsShown(groupId: string | null): boolean {
  return useStore((s) => groupId === null || selectRewardsShown(s, groupId));
}

/** The group's judge verdicts may be shown (null group: true). */
export function useJudgeShown(groupId: string | null): boolean {
  return useStore((s) => groupId === null || selectJudgeShown(s, groupId));
}

/** Blind groups the viewer has not submitted (teamSelectors.ts `selectBlindPending`). */
export function useBlindPending(): number | null {
  return useStore(selectBlindPending);
}

/** Views over the whole dataset's rewards or verdicts may be shown. */
export function useDatasetRewardsShown(): boolean {
  return useStore((s) => selectBlindPending(s) === 0);
}

/**
 * For lists of many groups: a predicate saying whether a group's rewards may be shown, or null
 * when every group's may (out of team mode, or a lead), so a list of 100k groups is not walked.
 */
export function useRewardsShownOf(): ((groupId: string) => boolean) | null {
  const load = useStore((s) => s.load);
  const teamState = useStore((s) => s.teamState);
  return useMemo(() => {
    const state = { load, teamState };
    const mode = selectTeamMode(state);
    if (mode === null || mode.team.role === "lead") return null;
    return (groupId: string) => selectRewardsShown(state, groupId);
  }, [load, teamState]);
}
