/**
 * Keeps the loaded rollouts scored by the applied reward spec, as an overlay: the load keeps the
 * file's own rollouts, and the verifiers' scored groups (the same rollouts with the verifiers'
 * components and the totals they give, core `verifierAugmentGroups`) go to the verifier slice's
 * overlay, from which every view's rollouts are derived (slices/verifierSlice.ts `selectViewLoad`).
 * So the group list, the columns, the advantages, GAR, the charts and calibration read the new
 * components exactly like components loaded from the file, and a new spec, or none, starts from
 * the file's rollouts. The verifiers run in the worker once per spec change, and once for every
 * group parsed later (an indexed file parses groups on demand). A judge verifier reads the
 * annotations' judge runs: when the run it reads changes (a new run of its mode, a run removed)
 * the data is scored again, and with no run it says "run the judge first".
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
import {
  VERIFIER_OVERLAY_EMPTY,
  type ScoredGroup,
  type VerifierOverlay,
  type VerifierResults,
  type VerifierSlice,
  type VerifierState,
  type VerifierStatus,
} from "../slices/verifierSlice.ts";

export {
  VERIFIER_RESULTS_EMPTY,
  type VerifierResults,
  type VerifierStatus,
} from "../slices/verifierSlice.ts";

/** What the sync reads of the store: the load, the judge runs judge verifiers read, the slice. */
export interface VerifierSyncView {
  readonly load: LoadState;
  readonly annotations: { readonly judgeRuns: readonly JudgeRun[] };
  readonly verifiers: VerifierState;
}

/** The store the sync reads the file's data from and writes the verifiers' slice to. */
export interface VerifierSyncStore {
  getState(): VerifierSyncView & Pick<VerifierSlice, "updateVerifiers">;
  subscribe(listener: (state: VerifierSyncView, previous: VerifierSyncView) => void): () => void;
}

/** Runs the verifiers over inputs (the worker client, or core directly in tests). */
export type VerifierRunner = (
  spec: VerifierSpec,
  inputs: readonly VerifierInput[],
  signal: AbortSignal,
) => Promise<VerifierRun>;

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

type Ready = Extract<LoadState, { status: "ready" }>;

/**
 * What the scores depend on: the spec, and the run each judge verifier reads (a number per judge
 * run object, so a key names the exact runs a spec's judges read).
 */
function judgeRunKeys(): (spec: VerifierSpec, runs: readonly JudgeRun[]) => string {
  const runIds = new WeakMap<JudgeRun, number>();
  let nextRunId = 1;
  return (spec, runs) => {
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
}

/** The outcomes gathered for one key over one file (groups parsed later add to them). */
interface Gathered {
  readonly key: string;
  readonly file: File;
  readonly byRollout: Map<string, readonly VerifierOutcome[]>;
  readonly logged: Map<string, number | null>;
  names: readonly string[];
  readonly judgeRuns: readonly JudgeRun[];
  readonly resolution: LoggedRewardResolution;
}

function resultsOf(g: Gathered): VerifierResults {
  return {
    names: g.names,
    byRollout: new Map(g.byRollout),
    judgeRuns: g.judgeRuns,
    resolution: g.resolution,
    logged: new Map(g.logged),
  };
}

/** A spec's check before it is applied, over the file's own rollouts. */
async function previewSpec(
  view: VerifierSyncView,
  run: VerifierRunner,
  spec: VerifierSpec,
  settings: PassRuleSettings,
  signal: AbortSignal,
): Promise<VerifierPreview> {
  const load = view.load;
  if (load.status !== "ready") return { kind: "invalid", problems: ["no dataset is loaded"] };
  const raw = [...load.groups.values()];
  const runs = view.annotations.judgeRuns;
  const problems = verifierSpecProblems(spec, rewardComponentNames(raw), runs);
  if (problems.length > 0)
    return { kind: "invalid", problems: problems.map((p) => verifierProblemText(spec, p)) };
  const resolution = verifierLoggedRewardResolve(spec.loggedReward, raw);
  let after: readonly RolloutGroup[] = raw;
  if (verifierSpecActive(spec)) {
    const paths = verifierFieldsRead(spec);
    const inputs = raw.flatMap((g) => verifierGroupInputs(g, spec, runs, paths));
    const result = await run(spec, inputs, signal);
    after = verifierAugmentGroups(raw, spec, result, resolution.rule);
  }
  const added = verifierLayout(spec, resolution.rule).emitted;
  return {
    kind: "ok",
    resolution,
    report: verifierFlips(raw, after, settings, added, resolution.rule),
  };
}

/**
 * The overlay after a run: the scored groups added to those of the same key, keeping only groups
 * the load still holds as they were scored (an evicted or re-parsed group drops out).
 */
function overlayAfterRun(
  before: VerifierOverlay,
  load: Ready,
  key: string,
  scored: readonly ScoredGroup[],
): VerifierOverlay {
  const groups = new Map<string, ScoredGroup>();
  if (before.key === key && before.file === load.file)
    for (const [id, g] of before.groups) if (load.groups.get(id) === g.raw) groups.set(id, g);
  for (const g of scored) if (load.groups.get(g.raw.id) === g.raw) groups.set(g.raw.id, g);
  return { key, file: load.file, groups };
}

/** The sync's writes to the verifier slice, each only when it changes something. */
function sliceWriters(store: VerifierSyncStore) {
  const update: VerifierSlice["updateVerifiers"] = (partial) =>
    store.getState().updateVerifiers(partial);
  return {
    update,
    setStatus: (status: VerifierStatus): void => {
      const now = store.getState().verifiers.status;
      if (JSON.stringify(now) !== JSON.stringify(status)) update({ status });
    },
    /** Show the file's own rollouts. */
    clearOverlay: (): void => {
      if (store.getState().verifiers.overlay.groups.size > 0)
        update({ overlay: VERIFIER_OVERLAY_EMPTY });
    },
  };
}

/**
 * Start keeping the store's verifier overlay scored by its applied spec.
 *
 * @param previewRun runs a check before a spec is applied (its own worker, so it never stops the
 *   run that keeps the data scored); `run` when not given
 * @returns `stop` unsubscribes and cancels a run in flight (the overlay stays as it is); `cancel`
 *   stops the run in flight at the user's word and shows the file's rollouts without the spec;
 *   `preview` scores a spec over the file's own rollouts without applying it and says who would
 *   pass differently (core `verifierFlips`)
 */
export function startVerifierSync(
  store: VerifierSyncStore,
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
  const keyOf = judgeRunKeys();
  let generation = 0;
  let controller: AbortController | null = null;
  let gathered: Gathered | null = null;

  const { update, setStatus, clearOverlay } = sliceWriters(store);

  const score = (
    mine: number,
    load: Ready,
    spec: VerifierSpec,
    runs: readonly JudgeRun[],
    rule: LoggedRewardResolution,
    key: string,
    todo: readonly RolloutGroup[],
  ): void => {
    const paths = verifierFieldsRead(spec);
    const inputs = todo.flatMap((g) => verifierGroupInputs(g, spec, runs, paths));
    setStatus({ kind: "running", rollouts: inputs.length });
    const abort = new AbortController();
    controller = abort;
    run(spec, inputs, abort.signal).then(
      (result) => {
        if (mine !== generation || gathered === null) return;
        controller = null;
        const now = store.getState().load;
        if (now.status !== "ready" || now.file !== load.file) return;
        const scored = verifierAugmentGroups(todo, spec, result, rule.rule);
        let row = 0;
        for (const raw of todo)
          for (const r of raw.rollouts) {
            gathered.byRollout.set(r.id, result.outcomes[row++] ?? []);
            const x = rolloutReward(r, null);
            gathered.logged.set(r.id, Number.isNaN(x) ? null : x);
          }
        gathered.names = result.names;
        const overlay = store.getState().verifiers.overlay;
        update({
          results: resultsOf(gathered),
          overlay: overlayAfterRun(
            overlay,
            now,
            key,
            scored.map((g, i) => ({ raw: todo[i]!, scored: g })),
          ),
          status: { kind: "done", rollouts: gathered.byRollout.size },
        });
      },
      (e: unknown) => {
        if (mine !== generation || isAbort(e)) return;
        controller = null;
        setStatus({ kind: "error", message: e instanceof Error ? e.message : String(e) });
      },
    );
  };

  const refresh = (): void => {
    const mine = ++generation;
    controller?.abort();
    controller = null;
    const { load, verifiers, annotations } = store.getState();
    const spec = verifiers.spec;
    if (load.status !== "ready") {
      setStatus({ kind: "off" });
      return;
    }
    const current = [...load.groups.values()];
    const fileComponents = rewardComponentNames(current);
    if (JSON.stringify(fileComponents) !== JSON.stringify(verifiers.fileComponents))
      update({ fileComponents });
    const runs = annotations.judgeRuns;
    // "auto" reads the file's own rewards: a group parsed later may change it (and so the key).
    const rule = verifierLoggedRewardResolve(spec.loggedReward, current);
    const key = `${keyOf(spec, runs)}:${rule.rule}`;
    if (gathered?.key !== key || gathered.file !== load.file) {
      gathered = {
        key,
        file: load.file,
        byRollout: new Map(),
        logged: new Map(),
        names: [],
        judgeRuns: runs,
        resolution: rule,
      };
      update({ results: resultsOf(gathered) });
    }
    if (!verifierSpecActive(spec)) {
      clearOverlay();
      setStatus({ kind: "off" });
      return;
    }
    const problems = verifierSpecProblems(spec, fileComponents, runs);
    if (problems.length > 0) {
      clearOverlay();
      setStatus({ kind: "invalid", problems: problems.map((p) => verifierProblemText(spec, p)) });
      return;
    }
    const overlay = store.getState().verifiers.overlay;
    const same = overlay.key === key && overlay.file === load.file;
    const todo = current.filter((g) => !same || overlay.groups.get(g.id)?.raw !== g);
    if (todo.length === 0) setStatus({ kind: "done", rollouts: gathered.byRollout.size });
    else score(mine, load, spec, runs, rule, key, todo);
  };

  const unsubscribe = store.subscribe((state, previous) => {
    if (state.load !== previous.load || state.verifiers.spec !== previous.verifiers.spec) refresh();
    else if (
      state.annotations.judgeRuns !== previous.annotations.judgeRuns &&
      verifierReadsJudgeRuns(state.verifiers.spec)
    )
      refresh();
  });
  refresh();

  return {
    preview: (spec, settings, signal) =>
      previewSpec(store.getState(), previewRun, spec, settings, signal),
    stop: () => {
      unsubscribe();
      generation++;
      controller?.abort();
    },
    cancel: () => {
      if (controller === null) return;
      generation++;
      controller.abort();
      controller = null;
      clearOverlay();
      setStatus({
        kind: "error",
        message: "stopped; the rollouts are shown without the verifiers",
      });
    },
  };
}
