/**
 * The annotations file: the studio's export, versioned (foundation issue). Validated here once;
 * after this boundary the shape is core's `Annotations`.
 *
 * `{ "version": 1, "groups": { "<group id>": { "ranking": [["r1"], ["r0", "r2"]], "hacks": ["r3"],
 *   "labels": { "r0": "pass" }, "notes": "" } } }`, and optionally `judgeRuns`, `rubrics` and
 * `calibration` (see ./extrasSchema.ts); a file without them reads as having none.
 */
import { z } from "zod";
import {
  CALIBRATION_STATE_EMPTY,
  HACK_REASONS_DEFAULT,
  PAIRWISE_SCHEDULES,
  pairwiseNext,
  type Annotations,
  type GroupAnnotation,
} from "../../core/index.ts";
import type { ParseIssue, Result } from "../issues.ts";
import { zodIssues } from "../formats/zodIssues.ts";
import {
  calibrationFromParsed,
  calibrationSchema,
  judgeRunFromParsed,
  judgeRunsSchema,
  rubricBookFromParsed,
  rubricBookSchema,
} from "./extrasSchema.ts";

const id = z.union([z.string().min(1), z.number()]).transform(String);

const hackDetailSchema = z.looseObject({
  reason: z.string().default("other"),
  note: z.string().default(""),
  quote: z.string().default(""),
});

const pairwiseSchema = z.looseObject({
  schedule: z.enum(PAIRWISE_SCHEDULES),
  seed: z.number().int(),
  players: z.array(id),
  judgements: z
    .array(z.looseObject({ a: id, b: id, verdict: z.enum(["a", "b", "tie"]) }))
    .default([]),
});

const groupSchema = z.looseObject({
  ranking: z.array(z.union([id.transform((x) => [x]), z.array(id)])).default([]),
  hacks: z.array(id).default([]),
  labels: z.record(z.string(), z.enum(["pass", "fail", "defer"])).default({}),
  notes: z.string().default(""),
  reviewed: z.boolean().default(false),
  hackDetails: z.record(z.string(), hackDetailSchema).default({}),
  rolloutNotes: z.record(z.string(), z.string()).default({}),
  pairwise: pairwiseSchema
    .nullable()
    .default(null)
    .superRefine((session, ctx) => {
      if (session === null) return;
      try {
        pairwiseNext(session);
      } catch (e) {
        ctx.addIssue({ code: "custom", message: e instanceof Error ? e.message : String(e) });
      }
    }),
});

type ParsedGroup = z.infer<typeof groupSchema>;

function groupFromParsed(g: ParsedGroup): GroupAnnotation {
  return {
    ranking: g.ranking,
    hacks: g.hacks,
    labels: g.labels,
    notes: g.notes,
    reviewed: g.reviewed,
    hackDetails: Object.fromEntries(
      Object.entries(g.hackDetails).map(([k, d]) => [
        k,
        { reason: d.reason, note: d.note, quote: d.quote },
      ]),
    ),
    rolloutNotes: g.rolloutNotes,
    pairwise:
      g.pairwise === null
        ? null
        : {
            schedule: g.pairwise.schedule,
            seed: g.pairwise.seed,
            players: g.pairwise.players,
            judgements: g.pairwise.judgements.map((j) => ({ a: j.a, b: j.b, verdict: j.verdict })),
          },
  };
}

const fileSchema = z.looseObject({
  version: z.literal(1, {
    error: (i) =>
      `unsupported annotations version ${JSON.stringify(i.input)}; this studio reads version 1`,
  }),
  annotator: z.string().default(""),
  hackReasons: z.array(z.string().min(1)).default([...HACK_REASONS_DEFAULT]),
  groups: z.record(z.string(), groupSchema),
  judgeRuns: judgeRunsSchema.default([]),
  rubrics: rubricBookSchema.default({}),
  calibration: calibrationSchema.nullable().default(null),
});

/** Parse and validate an annotations file's text. */
export function annotationsParse(file: string, text: string): Result<Annotations> {
  let raw: unknown;
  try {
    raw = JSON.parse(text) as unknown;
  } catch (e) {
    const issue: ParseIssue = {
      file,
      line: 0,
      message: `not valid JSON (${e instanceof Error ? e.message : String(e)})`,
    };
    return { ok: false, issues: [issue] };
  }
  const parsed = fileSchema.safeParse(raw);
  if (!parsed.success) return { ok: false, issues: zodIssues({ file, line: 0 }, parsed.error) };
  const groups: Record<string, GroupAnnotation> = {};
  for (const [groupId, g] of Object.entries(parsed.data.groups))
    groups[groupId] = groupFromParsed(g);
  return {
    ok: true,
    value: {
      version: 1,
      annotator: parsed.data.annotator,
      hackReasons: parsed.data.hackReasons,
      groups,
      judgeRuns: parsed.data.judgeRuns.map(judgeRunFromParsed),
      rubrics: rubricBookFromParsed(parsed.data.rubrics),
      calibration:
        parsed.data.calibration === null
          ? CALIBRATION_STATE_EMPTY
          : calibrationFromParsed(parsed.data.calibration),
    },
  };
}

/** Serialise annotations in the versioned file format. */
export function annotationsToJson(annotations: Annotations): string {
  return `${JSON.stringify(annotations, null, 2)}\n`;
}

/**
 * One group's annotation read back from storage (untrusted: another version of the studio, or a
 * user's edits, may have written it). Null when it does not validate.
 */
export function groupAnnotationFromUnknown(value: unknown): GroupAnnotation | null {
  const parsed = groupSchema.safeParse(value);
  return parsed.success ? groupFromParsed(parsed.data) : null;
}
