/**
 * fast-check arbitraries of whole annotation states (issue 8 part 5): every field of core's
 * `Annotations` (rankings with ties, hacks with details, labels, notes, rollout notes, reviewed
 * flags, pairwise sessions part-way through, judge runs, rubric books, the calibration set-up),
 * built only through shapes the studio itself produces, so a state that fails to round-trip is a
 * bug in the round trip, not in the generator. Ids include the names an object's prototype owns
 * ("constructor", "toString"), which a careless `in` or assignment mistakes for data.
 * Used by io/annotations/annotationsFile.prop.test.ts and store/persistence/annotationsDb.prop.test.ts.
 */
import { fc } from "@fast-check/vitest";
import {
  JUDGE_FAILURE_KINDS,
  JUDGE_MODES,
  PAIRWISE_SCHEDULES,
  SPLIT_NAMES,
  pairwiseChoose,
  pairwiseNext,
  pairwiseStart,
  pairwiseTotal,
  type Annotations,
  type CalibrationState,
  type GroupAnnotation,
  type HumanLabel,
  type JudgeGroupResult,
  type JudgeRun,
  type PairwiseSession,
  type RubricBook,
  type TaskRubric,
} from "../core/index.ts";

/** Rollout and group ids: plain, unicode, hostile-looking, and the prototype's own names. */
export const annotationId: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom("r0", "r1", "g/2", "7", "constructor", "toString", "hasOwnProperty", "é😀"),
  fc.string({ minLength: 1, maxLength: 6 }).filter((s) => s !== "__proto__"),
);

const text: fc.Arbitrary<string> = fc.oneof(
  fc.string({ maxLength: 20 }),
  fc.constantFrom("", "<img src=x onerror=alert(1)>", "line\nbreak", "\u202e\u200b", '"quoted"'),
);

/** A record with arbitrary own keys (built with fromEntries, as the store's spreads do). */
function recordOf<T>(value: fc.Arbitrary<T>, maxKeys = 4): fc.Arbitrary<Record<string, T>> {
  return fc
    .uniqueArray(fc.tuple(annotationId, value), { maxLength: maxKeys, selector: ([k]) => k })
    .map((entries) => Object.fromEntries(entries));
}

const label: fc.Arbitrary<HumanLabel> = fc.constantFrom("pass", "fail", "defer");

/** A pairwise session as the Compare view leaves it: started, with some matches judged. */
const pairwise: fc.Arbitrary<PairwiseSession> = fc
  .record({
    schedule: fc.constantFrom(...PAIRWISE_SCHEDULES),
    players: fc.uniqueArray(annotationId, { minLength: 2, maxLength: 5 }),
    seed: fc.integer(),
    choices: fc.array(fc.constantFrom("left" as const, "right" as const, "tie" as const), {
      maxLength: 12,
    }),
  })
  .map(({ schedule, players, seed, choices }) => {
    let session = pairwiseStart(schedule, players, seed);
    const total = pairwiseTotal(schedule, players.length);
    for (const choice of choices.slice(0, total)) {
      if (pairwiseNext(session).kind === "done") break;
      session = pairwiseChoose(session, choice);
    }
    return session;
  });

export const groupAnnotation: fc.Arbitrary<GroupAnnotation> = fc
  .record({
    ranked: fc.uniqueArray(annotationId, { maxLength: 6 }),
    cuts: fc.array(fc.boolean(), { maxLength: 6 }),
    hacks: fc.uniqueArray(annotationId, { maxLength: 3 }),
    details: fc.array(fc.record({ reason: text, note: text, quote: text }), { maxLength: 3 }),
    labels: recordOf(label),
    notes: text,
    reviewed: fc.boolean(),
    rolloutNotes: recordOf(text),
    pairwise: fc.option(pairwise, { nil: null }),
  })
  .map(({ ranked, cuts, hacks, details, labels, notes, reviewed, rolloutNotes, pairwise }) => {
    // Best-first tiers: the ranked ids cut into runs (a tie is a tier of several).
    const ranking: string[][] = [];
    ranked.forEach((id, i) => {
      if (i === 0 || cuts[i] !== false) ranking.push([id]);
      else ranking[ranking.length - 1]!.push(id);
    });
    return {
      ranking,
      hacks,
      labels,
      notes,
      reviewed,
      hackDetails: Object.fromEntries(
        hacks.flatMap((h, i) => (details[i] === undefined ? [] : [[h, details[i]]])),
      ),
      rolloutNotes,
      pairwise,
    };
  });

const count = fc.nat({ max: 10_000 });
/** A number in [0, 1] that survives JSON exactly (never -0, which JSON writes as 0). */
const unit = fc.double({ min: 0, max: 1, noNaN: true }).map((x) => x + 0);
const iso = fc.integer({ min: 0, max: 4_102_444_800_000 }).map((ms) => new Date(ms).toISOString());

const judgeGroupResult: fc.Arbitrary<JudgeGroupResult> = fc.record({
  error: fc.option(
    fc.record({
      kind: fc.constantFrom(...JUDGE_FAILURE_KINDS),
      message: text,
      status: fc.option(fc.integer({ min: 100, max: 599 }), { nil: null }),
    }),
    { nil: null },
  ),
  tiers: fc.array(fc.array(annotationId, { minLength: 1, maxLength: 3 }), { maxLength: 3 }),
  hacks: fc.array(annotationId, { maxLength: 2 }),
  scores: recordOf(fc.record({ solution: unit, behavior: unit })),
  failed: fc.array(annotationId, { maxLength: 2 }),
  clusters: recordOf(fc.string({ maxLength: 4 })),
  pairs: fc.array(
    fc.record({
      a: annotationId,
      b: annotationId,
      winner: fc.constantFrom("a" as const, "b" as const, "tie" as const, null),
      flipped: fc.constantFrom(true, false, null),
    }),
    { maxLength: 3 },
  ),
  rubricVersion: fc.option(fc.integer({ min: 1, max: 9 }), { nil: null }),
  reason: fc.option(text, { nil: null }),
});

const judgeRun = (id: string): fc.Arbitrary<JudgeRun> =>
  fc.record({
    info: fc.record({
      id: fc.constant(id),
      mode: fc.constantFrom(...JUDGE_MODES),
      source: fc.constantFrom("llm" as const, "heuristic" as const),
      model: fc.string({ maxLength: 10 }),
      baseUrl: fc.constantFrom("", "https://api.example.test/v1"),
      promptVersion: fc.string({ maxLength: 8 }),
      startedAt: iso,
      finishedAt: iso,
      accounting: fc.record({
        requests: count,
        successes: count,
        failures: fc.tuple(...JUDGE_FAILURE_KINDS.map(() => count)).map((ns) =>
          // Every kind, in the canonical order the parser writes them.
          Object.fromEntries(JUDGE_FAILURE_KINDS.map((k, i) => [k, ns[i]!])),
        ) as fc.Arbitrary<JudgeRun["info"]["accounting"]["failures"]>,
        retries: count,
        promptTokens: count,
        completionTokens: count,
        requestsWithoutUsage: count,
      }),
      costUsd: fc.option(
        fc.double({ min: 0, max: 1000, noNaN: true }).map((x) => x + 0),
        {
          nil: null,
        },
      ),
      cancelled: fc.boolean(),
    }),
    groups: recordOf(judgeGroupResult, 3),
  });

const judgeRuns: fc.Arbitrary<JudgeRun[]> = fc
  .uniqueArray(fc.string({ minLength: 1, maxLength: 8 }), { maxLength: 3 })
  .chain((ids) => (ids.length === 0 ? fc.constant([]) : fc.tuple(...ids.map(judgeRun))));

const taskRubric: fc.Arbitrary<TaskRubric> = fc
  .record({
    steps: fc.uniqueArray(fc.integer({ min: 1, max: 50 }), { minLength: 1, maxLength: 3 }),
    savedAt: iso,
    author: fc.constantFrom("human" as const, "judge" as const),
    solution: fc.array(text, { maxLength: 3 }),
    behavior: fc.array(text, { maxLength: 3 }),
    labelVersions: recordOf(fc.integer({ min: 1, max: 50 })),
  })
  .map(({ steps, savedAt, author, solution, behavior, labelVersions }) => ({
    versions: [...steps]
      .sort((a, b) => a - b)
      .map((version) => ({ version, savedAt, author, solution, behavior })),
    labelVersions,
  }));

const rubrics: fc.Arbitrary<RubricBook> = recordOf(taskRubric, 3);

const calibration: fc.Arbitrary<CalibrationState> = fc.record({
  seed: fc.integer(),
  fractions: fc
    .tuple(fc.nat({ max: 100 }), fc.nat({ max: 100 }))
    .map(([a, b]) => [Math.min(a, b), Math.max(a, b)] as const)
    .map(([a, b]) => ({ train: a / 100, dev: (b - a) / 100, test: (100 - b) / 100 })),
  assignments: recordOf(fc.constantFrom(...SPLIT_NAMES)),
  unsealed: fc.option(fc.record({ at: iso, judge: text, promptVersion: text }), { nil: null }),
  log: fc.array(
    fc.record({
      at: iso,
      event: fc.constantFrom("unseal" as const, "rerun-after-unseal" as const, "resplit" as const),
      message: text,
    }),
    { maxLength: 3 },
  ),
});

/** A whole annotations document. */
export const annotationsState: fc.Arbitrary<Annotations> = fc.record({
  version: fc.constant(1 as const),
  annotator: text,
  hackReasons: fc.uniqueArray(fc.string({ minLength: 1, maxLength: 12 }), {
    minLength: 1,
    maxLength: 5,
  }),
  groups: recordOf(groupAnnotation, 5),
  judgeRuns,
  rubrics,
  calibration,
});
