/**
 * Covers: the run view's health (store/runHealth.ts). The groups it reads are every group of a
 * whole load and the parsed ones of an indexed file, each with its summary's step; a job gives
 * core's runHealth of its inputs (here on the main thread: no Worker in node), keeps the result
 * while the same inputs are asked again, recomputes when one changes, and keeps the last result
 * on screen while newer inputs compute.
 */
import { describe, expect, it } from "vitest";
import {
  ANALYSIS_DEFAULTS,
  ANNOTATIONS_EMPTY,
  runHealth,
  type RolloutGroup,
} from "../core/index.ts";
import { testRollout } from "../test/rolloutFixtures.ts";
import { RunHealthJobs, runHealthGroups, type RunHealthInput } from "./runHealth.ts";

function group(id: string, rewards: readonly number[]): RolloutGroup {
  return {
    id,
    rollouts: rewards.map((reward, index) =>
      testRollout({ id: `${id}/${index}`, groupId: id, index, reward, completion: `x ${index}` }),
    ),
  };
}

const summary = (id: string, step: number | null) => ({
  id,
  step,
  rewards: [],
  prompt: "",
  partial: false,
});

const GROUPS = [group("1/a", [1, 0]), group("1/b", [1, 1]), group("2/a", [0, 0])];
const SUMMARIES = [summary("1/a", 1), summary("1/b", 1), summary("2/a", 2)];

describe("runHealthGroups", () => {
  it("reads every group of a whole load with its summary's step", () => {
    const parsed = new Map([[GROUPS[0]!.id, GROUPS[0]!]]);
    expect(
      runHealthGroups({ summaries: SUMMARIES, indexed: false, groups: GROUPS }, parsed),
    ).toEqual([
      { group: GROUPS[0], step: 1 },
      { group: GROUPS[1], step: 1 },
      { group: GROUPS[2], step: 2 },
    ]);
  });

  it("reads only the parsed groups of an indexed file", () => {
    const parsed = new Map([[GROUPS[2]!.id, GROUPS[2]!]]);
    expect(
      runHealthGroups({ summaries: SUMMARIES, indexed: true, groups: [GROUPS[2]!] }, parsed),
    ).toEqual([{ group: GROUPS[2], step: 2 }]);
  });
});

describe("RunHealthJobs", () => {
  const input = (over: Partial<RunHealthInput> = {}): RunHealthInput => ({
    groups: runHealthGroups({ summaries: SUMMARIES, indexed: false, groups: GROUPS }, new Map()),
    settings: ANALYSIS_DEFAULTS,
    clusterSample: 0,
    annotations: ANNOTATIONS_EMPTY,
    ...over,
  });

  it("gives core's runHealth of its inputs, and keeps it for the same inputs", async () => {
    const jobs = new RunHealthJobs();
    let notified = 0;
    jobs.subscribe(() => notified++);
    const first = input();
    jobs.request(first);
    expect(jobs.snapshot().computing).toBe(true);
    await Promise.resolve();
    await Promise.resolve();
    const done = jobs.snapshot();
    expect(done.computing).toBe(false);
    expect(done.error).toBeNull();
    expect(done.result?.health).toEqual(
      runHealth(
        first.groups,
        ANALYSIS_DEFAULTS,
        { clusterSample: 0 },
        {
          annotations: ANNOTATIONS_EMPTY,
          exemplars: [],
        },
      ),
    );
    expect(done.result?.health.steps.map((s) => [s.step, s.groups, s.passes])).toEqual([
      [1, 2, 3],
      [2, 1, 0],
    ]);
    const calls = notified;
    jobs.request(first);
    expect(notified).toBe(calls);
    expect(jobs.snapshot()).toBe(done);
  });

  it("recomputes when an input changes, the last result shown meanwhile", async () => {
    const jobs = new RunHealthJobs();
    const first = input();
    jobs.request(first);
    await Promise.resolve();
    await Promise.resolve();
    const before = jobs.snapshot().result;
    const strict = input({
      groups: first.groups,
      settings: { ...ANALYSIS_DEFAULTS, passThreshold: 2 },
    });
    jobs.request(strict);
    expect(jobs.snapshot()).toMatchObject({ computing: true, result: before });
    await Promise.resolve();
    await Promise.resolve();
    expect(jobs.snapshot().result?.input).toBe(strict);
    expect(jobs.snapshot().result?.health.steps.map((s) => s.passes)).toEqual([0, 0]);
  });
});
