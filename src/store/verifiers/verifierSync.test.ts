/**
 * Covers: the verifier sync and the verifier slice's overlay. Applying a spec never rewrites the
 * loaded data: the store's load keeps the file's rollouts, and the view (`selectViewLoad`) shows
 * the scored groups (and the group summaries with their totals), giving the CLI's numbers;
 * switching every verifier off, or a spec that does not fit the data, shows the file's rollouts
 * again; a group parsed later is scored too; a stale run's result is dropped; cancel stops and
 * restores. A judge verifier says
 * "run the judge first" until a run of its mode is stored, is scored when one appears, again when a
 * newer one appears or the one it reads is removed, and not for a run of another mode.
 */
import { File as NodeFile } from "node:buffer";
import { describe, expect, it } from "vitest";
import {
  analyzeDataset,
  JUDGE_VERIFIER_DEFAULT,
  type JudgeMode,
  type JudgeRun,
  type RolloutGroup,
  verifierApply,
  verifierScore,
  VERIFIER_SPEC_EMPTY,
  type VerifierRun,
  type VerifierSpec,
} from "../../core/index.ts";
import { datasetFromLoad, loadText } from "../../io/index.ts";
import { createPlainStore } from "../createStore.ts";
import type { LoadState } from "../slices/datasetSlice.ts";
import { selectViewLoad } from "../slices/verifierSlice.ts";
import { startVerifierSync, type VerifierRunner } from "./verifierSync.ts";
import { testJudgeRun } from "../../test/judgeRunFixtures.ts";

/** A row of the fixture file: its judge component is its reward, its ground truth in `meta.gold`. */
const row = (group_id: string, completion: string, reward: number, gold: string) => ({
  group_id,
  completion,
  reward,
  rewards: { judge: reward },
  meta: { gold },
});
const ROWS = [
  row("a", "<answer>4</answer>", 1, "4"),
  row("a", "<answer>5</answer>", 1, "4"),
  row("a", "4", 0, "4"),
  row("b", "<answer>x</answer>", 0, "x"),
  row("b", "<answer>y</answer>", 0, "x"),
];
const TEXT = ROWS.map((r) => `${JSON.stringify(r)}\n`).join("");

const exact: VerifierSpec = {
  ...VERIFIER_SPEC_EMPTY,
  loggedReward: "keep",
  verifiers: [
    {
      kind: "exact-match",
      name: "exact",
      enabled: true,
      weight: 2,
      field: "gold",
      pattern: null,
      flags: "",
      normalize: { trim: true, ignoreCase: false, collapseWhitespace: false, numeric: false },
    },
  ],
};

type Ready = Extract<LoadState, { status: "ready" }>;

async function setup(
  runner: VerifierRunner = (spec, inputs) => Promise.resolve(verifierScore(spec, inputs)),
) {
  const result = await loadText("rows.jsonl", TEXT);
  const dataset = datasetFromLoad(result);
  const file = new File([TEXT], "rows.jsonl");
  const load: Ready = {
    status: "ready",
    file,
    dataset,
    groups: new Map(dataset.groups.map((g) => [g.id, g])),
  };
  const store = createPlainStore();
  store.setState({ load });
  // The two sides the tests drive: the file's data and judge runs, and the applied spec.
  const main = {
    setState: (p: { load?: LoadState; annotations?: { judgeRuns: readonly JudgeRun[] } }) => {
      if (p.load !== undefined) store.setState({ load: p.load });
      if (p.annotations !== undefined) {
        const judgeRuns = p.annotations.judgeRuns;
        store.setState((st) => ({ annotations: { ...st.annotations, judgeRuns } }));
      }
    },
  };
  const verifiers = {
    getState: () => store.getState().verifiers,
    setState: (p: { spec: VerifierSpec }) => store.getState().applyVerifierSpec(p.spec),
  };
  const sync = startVerifierSync(store, runner);
  /** The data as views show it. */
  const ready = (): Ready => {
    const l = selectViewLoad(store.getState());
    if (l.status !== "ready") throw new Error("not ready");
    return l;
  };
  /** The loaded data itself. */
  const loaded = (): Ready => {
    const l = store.getState().load;
    if (l.status !== "ready") throw new Error("not ready");
    return l;
  };
  return { raw: dataset.groups, main, verifiers, sync, ready, loaded, store };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
const rewards = (groups: readonly RolloutGroup[]) =>
  groups.map((g) => g.rollouts.map((r) => r.reward));

describe("startVerifierSync", () => {
  it("scores the dataset with the applied spec: components, totals, summaries, the CLI's numbers", async () => {
    const { raw, verifiers, ready, loaded } = await setup();
    const before = loaded();
    expect(verifiers.getState().status).toEqual({ kind: "off" });
    verifiers.setState({ spec: exact });
    expect(verifiers.getState().status).toEqual({ kind: "running", rollouts: 5 });
    await settle();
    expect(verifiers.getState().status).toEqual({ kind: "done", rollouts: 5 });
    const load = ready();
    expect(load.groups.get("a")!.rollouts.map((r) => r.rewards)).toEqual([
      { judge: 1, exact: 2 },
      { judge: 1, exact: 0 },
      { judge: 0, exact: 0 },
    ]);
    expect(rewards(load.dataset.groups)).toEqual([
      [3, 1, 0],
      [2, 0],
    ]);
    expect(load.dataset.summaries.map((s) => s.rewards)).toEqual([
      [3, 1, 0],
      [2, 0],
    ]);
    const applied = verifierApply(raw, exact);
    if (!applied.ok) throw new Error("rejected");
    expect(analyzeDataset(load.dataset.groups)).toEqual(analyzeDataset(applied.groups));
    // The loaded data is the file's, untouched.
    expect(loaded()).toBe(before);
    expect(loaded().dataset.groups).toEqual(raw);
    const results = verifiers.getState().results;
    expect(results.names).toEqual(["exact"]);
    expect(results.byRollout.get("a/1")).toEqual([
      { value: 0, pass: false, note: '"5" is not "4"' },
    ]);
  });

  it("puts the file's rollouts back when nothing is enabled, and re-scores from them on a new spec", async () => {
    const { raw, verifiers, ready } = await setup();
    verifiers.setState({ spec: exact });
    await settle();
    const off = { ...exact, verifiers: exact.verifiers.map((v) => ({ ...v, enabled: false })) };
    verifiers.setState({ spec: off });
    expect(ready().dataset.groups).toEqual(raw);
    expect(ready().groups.get("a")).toBe(raw[0]);
    expect(ready().dataset.summaries.map((s) => s.rewards)).toEqual([
      [1, 1, 0],
      [0, 0],
    ]);
    verifiers.setState({ spec: { ...exact, loggedReward: "drop" } });
    await settle();
    expect(rewards(ready().dataset.groups)).toEqual([
      [2, 0, 0],
      [2, 0],
    ]);
  });

  it("a spec that does not fit the data is not applied, and says why", async () => {
    const { raw, verifiers, ready } = await setup();
    verifiers.setState({ spec: exact });
    await settle();
    verifiers.setState({
      spec: { ...exact, verifiers: [{ ...exact.verifiers[0]!, name: "judge" }] },
    });
    expect(verifiers.getState().status).toEqual({
      kind: "invalid",
      problems: ['verifier 1 ("judge"): the file already has a reward component of that name'],
    });
    expect(ready().dataset.groups).toEqual(raw);
  });

  it("scores a group parsed later, and only that one", async () => {
    const calls: number[] = [];
    const { main, verifiers, ready, loaded } = await setup((spec, inputs) => {
      calls.push(inputs.length);
      return Promise.resolve(verifierScore(spec, inputs));
    });
    // As an indexed file: only group a is parsed at first.
    const start = ready();
    const onlyA = new Map([["a", start.groups.get("a")!]]);
    main.setState({ load: { ...start, groups: onlyA } });
    verifiers.setState({ spec: exact });
    await settle();
    expect(calls).toEqual([3]);
    const b = start.groups.get("b")!;
    const now = loaded();
    main.setState({ load: { ...now, groups: new Map([...now.groups, ["b", b]]) } });
    await settle();
    expect(calls).toEqual([3, 2]);
    expect(
      ready()
        .groups.get("b")!
        .rollouts.map((r) => r.rewards.exact),
    ).toEqual([2, 0]);
    expect(
      ready()
        .groups.get("a")!
        .rollouts.map((r) => r.rewards.exact),
    ).toEqual([2, 0, 0]);
    expect(verifiers.getState().status).toEqual({ kind: "done", rollouts: 5 });
  });

  it("drops a stale run's result and cancels it", async () => {
    const pending: { resolve: (r: VerifierRun) => void; signal: AbortSignal; run: VerifierRun }[] =
      [];
    const { verifiers, ready, sync } = await setup((spec, inputs, signal) => {
      const run = verifierScore(spec, inputs);
      return new Promise((resolve) => pending.push({ resolve, signal, run }));
    });
    verifiers.setState({ spec: exact });
    verifiers.setState({ spec: { ...exact, loggedReward: "drop" } });
    expect(pending[0]!.signal.aborted).toBe(true);
    pending[0]!.resolve(pending[0]!.run);
    await settle();
    expect(verifiers.getState().status.kind).toBe("running");
    pending[1]!.resolve(pending[1]!.run);
    await settle();
    expect(rewards(ready().dataset.groups)).toEqual([
      [2, 0, 0],
      [2, 0],
    ]);
    // Cancel at the user's word: the run stops and the data goes back to the file's.
    verifiers.setState({ spec: exact });
    sync.cancel();
    expect(pending[2]!.signal.aborted).toBe(true);
    expect(verifiers.getState().status.kind).toBe("error");
    expect(rewards(ready().dataset.groups)).toEqual([
      [1, 1, 0],
      [0, 0],
    ]);
  });

  it("a failing run reports its error and leaves the data alone", async () => {
    const { raw, verifiers, ready } = await setup(() => Promise.reject(new Error("worker died")));
    verifiers.setState({ spec: exact });
    await settle();
    expect(verifiers.getState().status).toEqual({ kind: "error", message: "worker died" });
    expect(ready().dataset.groups).toEqual(raw);
  });
});

/** A stored judge run that passes the rollouts in `pass` and scores the other passes low. */
function judgeRun(id: string, mode: JudgeMode, pass: readonly string[]): JudgeRun {
  return testJudgeRun(
    { id, mode },
    {
      a: {
        scores: Object.fromEntries(
          ["a/0", "a/1"].map((r) => [r, { solution: pass.includes(r) ? 1 : 0.1, behavior: 1 }]),
        ),
      },
    },
  );
}

describe("startVerifierSync with a judge verifier", () => {
  const judgeSpec: VerifierSpec = {
    ...VERIFIER_SPEC_EMPTY,
    verifiers: [
      { kind: "judge", name: "rubric", enabled: true, weight: 1, ...JUDGE_VERIFIER_DEFAULT },
    ],
  };
  const values = (load: Ready) =>
    [...load.groups.values()].map((g) => g.rollouts.map((r) => r.rewards.rubric));

  it("says run the judge first without a run, and scores when one is stored", async () => {
    const { raw, main, verifiers, ready } = await setup();
    verifiers.setState({ spec: judgeSpec });
    expect(verifiers.getState().status).toEqual({
      kind: "invalid",
      problems: [
        'verifier 1 ("rubric"): there is no rubric judge run yet: run the judge first (the LLM judge panel, or rollout-studio judge --mode rubric)',
      ],
    });
    expect(ready().dataset.groups).toEqual(raw);
    // A run of another mode changes nothing.
    main.setState({ annotations: { judgeRuns: [judgeRun("gar-1", "gar", [])] } });
    expect(verifiers.getState().status.kind).toBe("invalid");
    const first = judgeRun("rubric-1", "rubric", ["a/0"]);
    main.setState({ annotations: { judgeRuns: [judgeRun("gar-1", "gar", []), first] } });
    expect(verifiers.getState().status).toEqual({ kind: "running", rollouts: 5 });
    await settle();
    expect(verifiers.getState().status).toEqual({ kind: "done", rollouts: 5 });
    // a/0 passes, a/1 fails, a/2 fails (reward 0), group b was not judged: n/a.
    expect(values(ready())).toEqual([
      [1, 0, 0],
      [null, null],
    ]);
    expect(verifiers.getState().results.judgeRuns).toContain(first);
    expect(verifiers.getState().results.byRollout.get("b/0")).toEqual([
      { value: null, pass: null, note: "rubric-1 (heuristic) did not judge this group" },
    ]);
  });

  it("scores again when a newer run of its mode appears or the run it reads is removed", async () => {
    const calls: number[] = [];
    const { main, verifiers, ready } = await setup((spec, inputs) => {
      calls.push(inputs.length);
      return Promise.resolve(verifierScore(spec, inputs));
    });
    const first = judgeRun("rubric-1", "rubric", ["a/0"]);
    main.setState({ annotations: { judgeRuns: [first] } });
    verifiers.setState({ spec: judgeSpec });
    await settle();
    expect(calls).toEqual([5]);
    const second = judgeRun("rubric-2", "rubric", ["a/1"]);
    main.setState({ annotations: { judgeRuns: [first, second] } });
    await settle();
    expect(calls).toEqual([5, 5]);
    expect(values(ready())[0]).toEqual([0, 1, 0]);
    // An unrelated run: the run read is the same, nothing is scored again.
    main.setState({ annotations: { judgeRuns: [first, second, judgeRun("gar-1", "gar", [])] } });
    await settle();
    expect(calls).toEqual([5, 5]);
    expect(verifiers.getState().status.kind).toBe("done");
    // The newest is removed: back to the first run's verdicts.
    main.setState({ annotations: { judgeRuns: [first] } });
    await settle();
    expect(calls).toEqual([5, 5, 5]);
    expect(values(ready())[0]).toEqual([1, 0, 0]);
    // Every run removed: run the judge first, and the file's rollouts are back.
    main.setState({ annotations: { judgeRuns: [] } });
    expect(verifiers.getState().status.kind).toBe("invalid");
    expect(values(ready())[0]).toEqual([undefined, undefined, undefined]);
  });
});

describe("the verifier overlay over a loaded file", () => {
  it("a file loaded through the store keeps its rollouts while the view shows the verifier's component", async () => {
    const store = createPlainStore();
    // Node's File: jsdom's (this project's environment) has no stream() for the loader to read.
    store.getState().loadFile(new NodeFile([TEXT], "rows.jsonl") as unknown as File);
    for (let i = 0; i < 200 && store.getState().load.status !== "ready"; i++) await settle();
    const load = store.getState().load;
    if (load.status !== "ready") throw new Error(`not loaded: ${JSON.stringify(load)}`);
    const file = datasetFromLoad(await loadText("rows.jsonl", TEXT));
    startVerifierSync(store, (spec, inputs) => Promise.resolve(verifierScore(spec, inputs)));
    store.getState().applyVerifierSpec(exact);
    await settle();
    expect(store.getState().verifiers.status).toEqual({ kind: "done", rollouts: 5 });
    // The store's loaded rollouts are the file's, as loaded ...
    expect(store.getState().load).toBe(load);
    expect([...load.groups.values()]).toEqual(file.groups);
    expect(load.dataset.groups.flatMap((g) => g.rollouts.map((r) => r.rewards))).toEqual(
      file.groups.flatMap((g) => g.rollouts.map((r) => r.rewards)),
    );
    // ... while the view shows the verifier's component in every rollout and total.
    const view = selectViewLoad(store.getState());
    if (view.status !== "ready") throw new Error("no view");
    expect(view.dataset.groups.map((g) => g.rollouts.map((r) => r.rewards.exact))).toEqual([
      [2, 0, 0],
      [2, 0],
    ]);
    expect(view.dataset.summaries.map((s) => s.rewards)).toEqual([
      [3, 1, 0],
      [2, 0],
    ]);
    // The same view object while nothing changes (selectors compare by identity).
    expect(selectViewLoad(store.getState())).toBe(view);
    // Switching the spec off shows the file's rollouts again, without touching the load.
    store.getState().applyVerifierSpec(VERIFIER_SPEC_EMPTY);
    expect(selectViewLoad(store.getState())).toBe(load);
  });
});
