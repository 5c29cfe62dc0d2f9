/**
 * Keeps the loaded rollouts scored by the applied reward spec. Once per spec change, and once for
 * every group parsed later (an indexed file parses groups on demand), the verifiers run in the
 * worker over every parsed rollout, and the store's dataset is replaced by the same rollouts with
 * the verifiers' components and the totals they give (core `verifierAugmentGroups`). So the group
 * list, the columns, the advantages, GAR, the charts and calibration all read the new components
 * exactly like components loaded from the file, with no change to any of them. The file's own
 * rollouts are kept here (augmented group -> raw group), so a new spec, or none, starts from them.
 * A judge verifier reads the annotations' judge runs: when the run it reads changes (a new run of
 * its mode, a run removed) the data is scored again, and with no run it says "run the judge first".
 *
 * Owned by the verifiers feature (issue 7); started by ./verifierStore.ts.
 */
import {
  rewardComponentNames,
  rolloutReward,
  type JudgeRun,
  type RolloutGroup,
  verifierAugmentGroups,
  verifierFieldsRead,
  verifierFlips,
  verifierGroupInputs,
  verifierJudgeRun,
  verifierLayout,
  verifierLoggedRewardResolve,
  verifierProblemText,
  verifierReadsJudgeRuns,
  verifierSpecActive,
  verifierSpecProblems,
  type LoggedRewardResolution,
  type VerifierFlipReport,
  type VerifierInput,
  type VerifierOutcome,
  type VerifierRun,
  type VerifierSpec,
} from "../../core/index.ts";
import type { LoadState } from "../slices/datasetSlice.ts";

/** What the sync reads of the main store: the load, and the judge runs judge verifiers read. */
export interface MainStoreView {
  readonly load: LoadState;
  readonly annotations: { readonly judgeRuns: readonly JudgeRun[] };
}

/** What the sync reads from and writes to the main store. */
export interface MainStoreApi {
  getState(): MainStoreView;
  setState(partial: { load: LoadState }): void;
  subscribe(listener: (state: MainStoreView, previous: MainStoreView) => void): () => void;
}

export type VerifierStatus =
  /** No spec in force (nothing enabled, the logged reward kept), or no dataset. */
  | { readonly kind: "off" }
  | { readonly kind: "running"; readonly rollouts: number }
  | { readonly kind: "done"; readonly rollouts: number }
  /** The spec does not fit the loaded data; the data is shown without it. */
  | { readonly kind: "invalid"; readonly problems: readonly string[] }
  | { readonly kind: "error"; readonly message: string };

/** The outcomes of the spec in force, by rollout id (rows in `names` order). */
export interface VerifierResults {
  readonly names: readonly string[];
  readonly byRollout: ReadonlyMap<string, readonly VerifierOutcome[]>;
  /** The judge runs the outcomes were scored with (judge verifiers' versions name the run read). */
  readonly judgeRuns: readonly JudgeRun[];
  /** The logged-reward rule applied (`auto` resolved on the file's rollouts); null before a run. */
  readonly resolution: LoggedRewardResolution | null;
  /** Each scored rollout's own reward (the file's, before the verifiers), by id. */
  readonly logged: ReadonlyMap<string, number | null>;
}

export const VERIFIER_RESULTS_EMPTY: VerifierResults = {
  names: [],
  byRollout: new Map(),
  judgeRuns: [],
  resolution: null,
  logged: new Map(),
};

/** What the sync reads from and writes to the verifier store. */
export interface VerifierStoreApi {
  getState(): { readonly spec: VerifierSpec; readonly status: VerifierStatus };
  setState(partial: {
    status?: VerifierStatus;
    results?: VerifierResults;
    fileComponents?: readonly string[];
  }): void;
  subscribe(
    listener: (
      state: { readonly spec: VerifierSpec },
      previous: { readonly spec: VerifierSpec },
    ) => void,
  ): () => void;
}

/** Runs the verifiers over inputs (the worker client, or core directly in tests). */
export type VerifierRunner = (
  spec: VerifierSpec,
  inputs: readonly VerifierInput[],
  signal: AbortSignal,
) => Promise<VerifierRun>;

/**
 * The load with some groups replaced: in the id map, in the dataset's list, and in the group
 * summaries' rewards (what the group list reads with reward weights off).
 */
export function loadWithGroups(
  load: Extract<LoadState, { status: "ready" }>,
  replacements: ReadonlyMap<string, RolloutGroup>,
): Extract<LoadState, { status: "ready" }> {
  const groups = new Map(load.groups);
  for (const [id, g] of replacements) if (groups.has(id)) groups.set(id, g);
  const dataset = load.dataset;
  return {
    ...load,
    groups,
    dataset: {
      ...dataset,
      groups: dataset.groups.map((g) => replacements.get(g.id) ?? g),
      summaries: dataset.summaries.map((s) => {
        const g = replacements.get(s.id);
        return g === undefined
          ? s
          : { ...s, rewards: g.rollouts.map((r) => rolloutReward(r, null)) };
      }),
    },
  };
}

function isAbort(e: unknown): boolean {
  return e instanceof DOMException && e.name === "AbortError";
}

/** What a spec would do before it is applied: who passes differently, and by which rule. */
export type VerifierPreview =
  | {
      readonly kind: "ok";
      readonly resolution: LoggedRewardResolution;
      readonly report: VerifierFlipReport;
    }
  /** The spec does not fit the data (or there is none): it cannot be applied. */
  | { readonly kind: "invalid"; readonly problems: readonly string[] };

/** The settings the pass rule reads. */
export type PassRuleSettings = Parameters<typeof verifierFlips>[2];

/**
 * Start keeping the main store's dataset scored by the verifier store's spec.
 *
 * @param previewRun runs a check before a spec is applied (its own worker, so it never stops the
 *   run that keeps the data scored); `run` when not given
 * @returns `stop` unsubscribes and cancels a run in flight (the data stays as it is); `cancel`
 *   stops the run in flight at the user's word and shows the file's rollouts without the spec;
 *   `preview` scores a spec over the file's own rollouts without applying it and says who would
 *   pass differently (./combine.ts `verifierFlips`)
 */
export function startVerifierSync(
  main: MainStoreApi,
  verifiers: VerifierStoreApi,
  run: VerifierRunner,
  previewRun: VerifierRunner = run,
): {
  readonly stop: () => void;
  readonly cancel: () => void;
  readonly preview: (
    spec: VerifierSpec,
    settings: PassRuleSettings,
    signal: AbortSignal,
  ) => Promise<VerifierPreview>;
} {
  /** Augmented group -> the file's group and the spec it was scored with. */
  const augmented = new WeakMap<
    RolloutGroup,
    { readonly raw: RolloutGroup; readonly key: string }
  >();
  const rawOf = (g: RolloutGroup): RolloutGroup => augmented.get(g)?.raw ?? g;
  let generation = 0;
  let controller: AbortController | null = null;
  let written: LoadState | null = null;
  let results = new Map<string, readonly VerifierOutcome[]>();
  let logged = new Map<string, number | null>();
  let resolution: LoggedRewardResolution | null = null;
  let resultsFor: { key: string; file: File } | null = null;
  let names: readonly string[] = [];
  let runsUsed: readonly JudgeRun[] = [];
  let fileComponentsNow: readonly string[] = [];
  /** A number per judge run object, so a key names the exact runs a spec's judges read. */
  const runIds = new WeakMap<JudgeRun, number>();
  let nextRunId = 1;
  /** What the scores depend on: the spec, and the run each judge verifier reads. */
  const keyOf = (spec: VerifierSpec, runs: readonly JudgeRun[]): string => {
    const read = spec.verifiers.map((v) => {
      if (v.kind !== "judge") return null;
      const run = verifierJudgeRun(v, runs);
      if (run === null) return 0;
      let id = runIds.get(run);
      if (id === undefined) {
        id = nextRunId++;
        runIds.set(run, id);
      }
      return id;
    });
    return JSON.stringify([spec, read]);
  };
  /** The reward components of the file's own rollouts (not the verifiers'). */
  const fileComponentsOf = (groups: readonly RolloutGroup[]): string[] =>
    rewardComponentNames(groups.map(rawOf));

  const write = (load: LoadState): void => {
    written = load;
    main.setState({ load });
  };
  const setStatus = (status: VerifierStatus): void => {
    const now = verifiers.getState().status;
    if (JSON.stringify(now) !== JSON.stringify(status)) verifiers.setState({ status });
  };
  /** Put the file's own groups back. */
  const restore = (load: Extract<LoadState, { status: "ready" }>): void => {
    const back = new Map<string, RolloutGroup>();
    for (const g of load.groups.values()) if (augmented.has(g)) back.set(g.id, rawOf(g));
    if (back.size > 0) write(loadWithGroups(load, back));
  };

  const refresh = (): void => {
    const mine = ++generation;
    controller?.abort();
    controller = null;
    const load = main.getState().load;
    const spec = verifiers.getState().spec;
    if (load.status !== "ready") {
      setStatus({ kind: "off" });
      return;
    }
    const fileComponents = fileComponentsOf([...load.groups.values()]);
    if (JSON.stringify(fileComponents) !== JSON.stringify(fileComponentsNow)) {
      fileComponentsNow = fileComponents;
      verifiers.setState({ fileComponents });
    }
    const runs = main.getState().annotations.judgeRuns;
    // "auto" reads the file's own rewards: a group parsed later may change it (and so the key).
    const rule = verifierLoggedRewardResolve(
      spec.loggedReward,
      [...load.groups.values()].map(rawOf),
    );
    const key = `${keyOf(spec, runs)}:${rule.rule}`;
    if (resultsFor?.key !== key || resultsFor.file !== load.file) {
      results = new Map();
      logged = new Map();
      names = [];
      runsUsed = runs;
      resolution = rule;
      resultsFor = { key, file: load.file };
      verifiers.setState({
        results: { names, byRollout: results, judgeRuns: runsUsed, resolution, logged },
      });
    }
    if (!verifierSpecActive(spec)) {
      restore(load);
      setStatus({ kind: "off" });
      return;
    }
    const current = [...load.groups.values()];
    const problems = verifierSpecProblems(spec, fileComponentsOf(current), runs);
    if (problems.length > 0) {
      restore(load);
      setStatus({ kind: "invalid", problems: problems.map((p) => verifierProblemText(spec, p)) });
      return;
    }
    const todo = current.filter((g) => augmented.get(g)?.key !== key).map(rawOf);
    if (todo.length === 0) {
      setStatus({ kind: "done", rollouts: results.size });
      return;
    }
    const paths = verifierFieldsRead(spec);
    const inputs = todo.flatMap((g) => verifierGroupInputs(g, spec, runs, paths));
    setStatus({ kind: "running", rollouts: inputs.length });
    const abort = new AbortController();
    controller = abort;
    run(spec, inputs, abort.signal).then(
      (result) => {
        if (mine !== generation) return;
        controller = null;
        const now = main.getState().load;
        if (now.status !== "ready" || now.file !== load.file) return;
        const scored = verifierAugmentGroups(todo, spec, result, rule.rule);
        const replacements = new Map<string, RolloutGroup>();
        let row = 0;
        scored.forEach((g, i) => {
          const raw = todo[i]!;
          for (const r of raw.rollouts) {
            results.set(r.id, result.outcomes[row++] ?? []);
            const x = rolloutReward(r, null);
            logged.set(r.id, Number.isNaN(x) ? null : x);
          }
          const there = now.groups.get(raw.id);
          // Only where the group is still the one scored (not re-parsed meanwhile).
          if (there !== undefined && rawOf(there) === raw) {
            augmented.set(g, { raw, key });
            replacements.set(g.id, g);
          }
        });
        names = result.names;
        verifiers.setState({
          results: {
            names,
            byRollout: new Map(results),
            judgeRuns: runsUsed,
            resolution,
            logged: new Map(logged),
          },
        });
        write(loadWithGroups(now, replacements));
        setStatus({ kind: "done", rollouts: results.size });
      },
      (e: unknown) => {
        if (mine !== generation || isAbort(e)) return;
        controller = null;
        setStatus({ kind: "error", message: e instanceof Error ? e.message : String(e) });
      },
    );
  };

  const unsubscribeMain = main.subscribe((state, previous) => {
    if (state.load !== previous.load && state.load !== written) refresh();
    else if (
      state.annotations.judgeRuns !== previous.annotations.judgeRuns &&
      verifierReadsJudgeRuns(verifiers.getState().spec)
    )
      refresh();
  });
  const unsubscribeSpec = verifiers.subscribe((state, previous) => {
    if (state.spec !== previous.spec) refresh();
  });
  refresh();
  const preview = async (
    spec: VerifierSpec,
    settings: PassRuleSettings,
    signal: AbortSignal,
  ): Promise<VerifierPreview> => {
    const load = main.getState().load;
    if (load.status !== "ready") return { kind: "invalid", problems: ["no dataset is loaded"] };
    const raw = [...load.groups.values()].map(rawOf);
    const runs = main.getState().annotations.judgeRuns;
    const problems = verifierSpecProblems(spec, rewardComponentNames(raw), runs);
    if (problems.length > 0)
      return { kind: "invalid", problems: problems.map((p) => verifierProblemText(spec, p)) };
    const resolution = verifierLoggedRewardResolve(spec.loggedReward, raw);
    let after: readonly RolloutGroup[] = raw;
    if (verifierSpecActive(spec)) {
      const paths = verifierFieldsRead(spec);
      const inputs = raw.flatMap((g) => verifierGroupInputs(g, spec, runs, paths));
      const result = await previewRun(spec, inputs, signal);
      after = verifierAugmentGroups(raw, spec, result, resolution.rule);
    }
    const added = verifierLayout(spec, resolution.rule).emitted;
    return {
      kind: "ok",
      resolution,
      report: verifierFlips(raw, after, settings, added, resolution.rule),
    };
  };

  return {
    preview,
    stop: () => {
      unsubscribeMain();
      unsubscribeSpec();
      generation++;
      controller?.abort();
    },
    cancel: () => {
      if (controller === null) return;
      generation++;
      controller.abort();
      controller = null;
      const load = main.getState().load;
      if (load.status === "ready") restore(load);
      setStatus({
        kind: "error",
        message: "stopped; the rollouts are shown without the verifiers",
      });
    },
  };
}
