import { describe, expect, it } from "vitest";
import { GROUP_ANNOTATION_EMPTY, ANNOTATIONS_EMPTY } from "../../core/index.ts";
import type { TeamStateReply } from "../../io/view/teamApi.ts";
import {
  datasetHiddenNote,
  selectBlindPending,
  selectDatasetRewardsShown,
  selectJudgeShown,
  selectRewardsShown,
  selectTeamMode,
  selectTeamVisibility,
  teamItemStatus,
  teamModeKey,
  type TeamReadable,
} from "./teamSelectors.ts";

const session = { origin: "http://127.0.0.1:7575", token: "abcdefgh.ijklmnop" };

function readable(
  role: "annotator" | "lead" | null,
  teamState: TeamStateReply | null,
): TeamReadable {
  const listing = role === null ? {} : { team: { user: "ann", role, dataset: "run-7" } };
  return { load: { status: "ready", remote: { session, listing } }, teamState };
}

const state = (submitted: Record<string, string>): TeamStateReply => ({
  user: "ann",
  role: "annotator",
  dataset: "run-7",
  versions: {},
  submitted,
  blind: ["g1", "g2"],
});

describe("team selectors", () => {
  it("are out of team mode for the file mode, a hand-opened file and nothing loaded", () => {
    expect(selectTeamMode(readable(null, null))).toBeNull();
    expect(selectTeamMode({ load: { status: "idle" }, teamState: null })).toBeNull();
    expect(selectTeamMode({ load: { status: "ready" }, teamState: null })).toBeNull();
    const file = readable(null, null);
    expect(selectTeamVisibility(file, "g1")).toBeNull();
    expect(selectRewardsShown(file, "g1")).toBe(true);
    expect(selectJudgeShown(file, "g1")).toBe(true);
    expect(selectBlindPending(file)).toBe(0);
    expect(teamModeKey(null)).toBeNull();
  });

  it("hide a blind group's rewards and verdicts from an annotator until they submit it", () => {
    const before = readable("annotator", state({}));
    expect(selectTeamVisibility(before, "g1")).toMatchObject({
      rewards: false,
      judgeVerdicts: false,
      reason: "blind until submitted",
    });
    expect(selectRewardsShown(before, "g1")).toBe(false);
    expect(selectJudgeShown(before, "g2")).toBe(false);
    // Not in a blind queue: shown.
    expect(selectRewardsShown(before, "g3")).toBe(true);
    expect(selectTeamVisibility(before, "g3")?.reason).toBe("open queue");
    const after = readable("annotator", state({ g1: "2026-12-04T06:00:00Z" }));
    expect(selectTeamVisibility(after, "g1")).toMatchObject({
      rewards: true,
      judgeVerdicts: true,
      reason: "submitted",
    });
    expect(selectRewardsShown(after, "g2")).toBe(false);
  });

  it("fail closed for an annotator whose state is not read yet; a lead sees everything", () => {
    const unread = readable("annotator", null);
    expect(selectRewardsShown(unread, "g3")).toBe(false);
    expect(selectBlindPending(unread)).toBeNull();
    expect(selectDatasetRewardsShown(unread)).toBe(false);
    const lead = readable("lead", null);
    expect(selectRewardsShown(lead, "g1")).toBe(true);
    expect(selectTeamVisibility(lead, "g1")?.reason).toBe("lead");
    expect(selectBlindPending(lead)).toBe(0);
  });

  it("count the blind groups not submitted: the dataset-wide views show at 0", () => {
    expect(selectBlindPending(readable("annotator", state({})))).toBe(2);
    const one = readable("annotator", state({ g2: "t" }));
    expect(selectBlindPending(one)).toBe(1);
    expect(selectDatasetRewardsShown(one)).toBe(false);
    const both = readable("annotator", state({ g1: "t", g2: "t", g9: "t" }));
    expect(selectBlindPending(both)).toBe(0);
    expect(selectDatasetRewardsShown(both)).toBe(true);
    expect(datasetHiddenNote(1)).toContain("1 group of a blind queue is not submitted by you");
    expect(datasetHiddenNote(3)).toContain("3 groups of a blind queue are not submitted");
  });

  it("key the mode by server, token, person, role and dataset", () => {
    const a = selectTeamMode(readable("annotator", null));
    expect(teamModeKey(a)).toBe(teamModeKey(selectTeamMode(readable("annotator", state({})))));
    expect(teamModeKey(a)).not.toBe(teamModeKey(selectTeamMode(readable("lead", null))));
  });

  it("say a queue item is submitted, a draft or still to do", () => {
    const annotations = {
      ...ANNOTATIONS_EMPTY,
      groups: {
        g2: { ...GROUP_ANNOTATION_EMPTY, labels: { r1: "pass" as const } },
        g3: GROUP_ANNOTATION_EMPTY,
      },
    };
    const s = state({ g1: "t" });
    expect(teamItemStatus("g1", s, annotations)).toBe("submitted");
    expect(teamItemStatus("g2", s, annotations)).toBe("draft");
    expect(teamItemStatus("g3", s, annotations)).toBe("todo");
    expect(teamItemStatus("g4", null, annotations)).toBe("todo");
    // An id such as "constructor" is not read from the prototype.
    expect(teamItemStatus("constructor", s, annotations)).toBe("todo");
  });
});
