/**
 * Schemas of the annotations document's extras: judge runs, rubrics per task, and the calibration
 * set-up (see core's JudgeRun, RubricBook and CalibrationState). Used by the file parser and to
 * validate what IndexedDB gives back (storage is untrusted input).
 */
import { z } from "zod";
import {
  JUDGE_FAILURE_KINDS,
  JUDGE_MODES,
  SPLIT_NAMES,
  type CalibrationState,
  type JudgeRun,
  type RubricBook,
} from "../../core/index.ts";

const id = z.union([z.string().min(1), z.number()]).transform(String);
const unit = z.number().min(0).max(1);
const count = z.number().int().min(0);

const failureSchema = z.looseObject({
  kind: z.enum(JUDGE_FAILURE_KINDS),
  message: z.string(),
  status: z.number().int().nullable().default(null),
});

const accountingSchema = z.looseObject({
  requests: count,
  successes: count,
  failures: z.looseObject(
    Object.fromEntries(JUDGE_FAILURE_KINDS.map((k) => [k, count.default(0)])) as Record<
      (typeof JUDGE_FAILURE_KINDS)[number],
      z.ZodDefault<typeof count>
    >,
  ),
  retries: count.default(0),
  promptTokens: count.default(0),
  completionTokens: count.default(0),
  requestsWithoutUsage: count.default(0),
});

const groupResultSchema = z.looseObject({
  error: failureSchema.nullable().default(null),
  tiers: z.array(z.array(id)).default([]),
  hacks: z.array(id).default([]),
  scores: z.record(z.string(), z.looseObject({ solution: unit, behavior: unit })).default({}),
  failed: z.array(id).default([]),
  clusters: z.record(z.string(), z.string()).default({}),
  pairs: z
    .array(
      z.looseObject({
        a: id,
        b: id,
        winner: z.enum(["a", "b", "tie"]).nullable(),
        flipped: z.boolean().nullable().default(null),
      }),
    )
    .default([]),
  rubricVersion: z.number().int().min(1).nullable().default(null),
  reason: z.string().nullable().default(null),
});

export const judgeRunSchema = z.looseObject({
  info: z.looseObject({
    id: z.string().min(1),
    mode: z.enum(JUDGE_MODES),
    source: z.enum(["llm", "heuristic"]),
    model: z.string(),
    baseUrl: z.string().default(""),
    promptVersion: z.string(),
    startedAt: z.string(),
    finishedAt: z.string(),
    accounting: accountingSchema,
    costUsd: z.number().min(0).nullable().default(null),
    cancelled: z.boolean().default(false),
    scope: z.string().optional(),
  }),
  groups: z.record(z.string(), groupResultSchema),
});

export const judgeRunsSchema = z.array(judgeRunSchema).superRefine((runs, ctx) => {
  const seen = new Set<string>();
  for (const [i, run] of runs.entries()) {
    if (seen.has(run.info.id))
      ctx.addIssue({
        code: "custom",
        path: [i, "info", "id"],
        message: `repeated run id ${run.info.id}`,
      });
    seen.add(run.info.id);
  }
});

const rubricVersionSchema = z.looseObject({
  version: z.number().int().min(1),
  savedAt: z.string(),
  author: z.enum(["human", "judge"]).default("human"),
  solution: z.array(z.string()),
  behavior: z.array(z.string()),
});

export const rubricBookSchema = z.record(
  z.string(),
  z.looseObject({
    versions: z
      .array(rubricVersionSchema)
      .min(1)
      .superRefine((versions, ctx) => {
        for (const [i, v] of versions.entries()) {
          if (i > 0 && v.version <= versions[i - 1]!.version)
            ctx.addIssue({
              code: "custom",
              path: [i, "version"],
              message: "versions must increase",
            });
        }
      }),
    labelVersions: z.record(z.string(), z.number().int().min(1)).default({}),
  }),
);

export const calibrationSchema = z.looseObject({
  seed: z.number().int(),
  fractions: z
    .looseObject({ train: unit, dev: unit, test: unit })
    .refine((f) => Math.abs(f.train + f.dev + f.test - 1) <= 1e-9, "fractions must sum to 1"),
  assignments: z.record(z.string(), z.enum(SPLIT_NAMES)).default({}),
  unsealed: z
    .looseObject({ at: z.string(), judge: z.string(), promptVersion: z.string() })
    .nullable()
    .default(null),
  log: z
    .array(
      z.looseObject({
        at: z.string(),
        event: z.enum(["unseal", "rerun-after-unseal", "resplit"]),
        message: z.string(),
      }),
    )
    .default([]),
});

type ParsedRun = z.infer<typeof judgeRunSchema>;

/** Core's JudgeRun from a parsed one (drops unknown keys kept by the loose schemas). */
export function judgeRunFromParsed(r: ParsedRun): JudgeRun {
  const i = r.info;
  const a = i.accounting;
  return {
    info: {
      id: i.id,
      mode: i.mode,
      source: i.source,
      model: i.model,
      baseUrl: i.baseUrl,
      promptVersion: i.promptVersion,
      startedAt: i.startedAt,
      finishedAt: i.finishedAt,
      accounting: {
        requests: a.requests,
        successes: a.successes,
        failures: Object.fromEntries(JUDGE_FAILURE_KINDS.map((k) => [k, a.failures[k]])) as Record<
          (typeof JUDGE_FAILURE_KINDS)[number],
          number
        >,
        retries: a.retries,
        promptTokens: a.promptTokens,
        completionTokens: a.completionTokens,
        requestsWithoutUsage: a.requestsWithoutUsage,
      },
      costUsd: i.costUsd,
      cancelled: i.cancelled,
      ...(i.scope === undefined ? {} : { scope: i.scope }),
    },
    groups: Object.fromEntries(
      Object.entries(r.groups).map(([g, x]) => [
        g,
        {
          error:
            x.error === null
              ? null
              : { kind: x.error.kind, message: x.error.message, status: x.error.status },
          tiers: x.tiers,
          hacks: x.hacks,
          scores: Object.fromEntries(
            Object.entries(x.scores).map(([k, s]) => [
              k,
              { solution: s.solution, behavior: s.behavior },
            ]),
          ),
          failed: x.failed,
          clusters: x.clusters,
          pairs: x.pairs.map((p) => ({ a: p.a, b: p.b, winner: p.winner, flipped: p.flipped })),
          rubricVersion: x.rubricVersion,
          reason: x.reason,
        },
      ]),
    ),
  };
}

export function rubricBookFromParsed(b: z.infer<typeof rubricBookSchema>): RubricBook {
  return Object.fromEntries(
    Object.entries(b).map(([task, t]) => [
      task,
      {
        versions: t.versions.map((v) => ({
          version: v.version,
          savedAt: v.savedAt,
          author: v.author,
          solution: v.solution,
          behavior: v.behavior,
        })),
        labelVersions: t.labelVersions,
      },
    ]),
  );
}

export function calibrationFromParsed(c: z.infer<typeof calibrationSchema>): CalibrationState {
  return {
    seed: c.seed,
    fractions: { train: c.fractions.train, dev: c.fractions.dev, test: c.fractions.test },
    assignments: c.assignments,
    unsealed:
      c.unsealed === null
        ? null
        : { at: c.unsealed.at, judge: c.unsealed.judge, promptVersion: c.unsealed.promptVersion },
    log: c.log.map((e) => ({ at: e.at, event: e.event, message: e.message })),
  };
}

/** The extras from storage: each one validated on its own, null when it does not validate. */
export function judgeRunsFromUnknown(value: unknown): JudgeRun[] | null {
  const parsed = judgeRunsSchema.safeParse(value);
  return parsed.success ? parsed.data.map(judgeRunFromParsed) : null;
}

export function rubricBookFromUnknown(value: unknown): RubricBook | null {
  const parsed = rubricBookSchema.safeParse(value);
  return parsed.success ? rubricBookFromParsed(parsed.data) : null;
}

export function calibrationFromUnknown(value: unknown): CalibrationState | null {
  const parsed = calibrationSchema.safeParse(value);
  return parsed.success ? calibrationFromParsed(parsed.data) : null;
}
