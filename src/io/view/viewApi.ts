/**
 * The `rollout-studio view` API as the page reads it (src/server/README.md is the reference): the
 * shapes of `GET /api/runs`, of the `files` and `annotations` events and of the annotations
 * replies, as zod schemas. Replies are parsed, never trusted: a server of another version, or a
 * proxy's error page, gives a clear message instead of a wrong dataset.
 */
import { z } from "zod";
import { viewTeamSchema } from "./teamApi.ts";

const STEP_SOURCES = ["trl-name", "verl-name", "step-name", "file-order"] as const;

export const viewFileSchema = z.object({
  id: z.string().regex(/^[0-9a-f]{16}$/),
  path: z.string(),
  size: z.number().int().nonnegative(),
  mtimeMs: z.number(),
  step: z.number(),
  stepSource: z.enum(STEP_SOURCES),
});

export const viewRunSchema = z.object({
  root: z.number().int().nonnegative(),
  dir: z.string(),
  kind: z.string(),
  files: z.array(viewFileSchema),
});

export const viewRunsSchema = z.object({
  version: z.string(),
  format: z.string().nullable(),
  /** `view --compare`: root 0's first run is run A, root 1's is run B (absent before issue 19). */
  compare: z.boolean().optional(),
  stateDir: z.string(),
  annotations: z.object({ path: z.string(), version: z.string() }),
  roots: z.array(z.object({ path: z.string(), kind: z.string() })),
  runs: z.array(viewRunSchema),
  /** Team mode (`view --db`, issue 18): who the page is; absent in the file mode. */
  team: viewTeamSchema.optional(),
});

export type ViewFile = z.infer<typeof viewFileSchema>;
export type ViewRun = z.infer<typeof viewRunSchema>;
export type ViewRuns = z.infer<typeof viewRunsSchema>;

export const FILE_CHANGE_KINDS = ["added", "grown", "shrunk", "rewritten", "removed"] as const;
export type FileChangeKind = (typeof FILE_CHANGE_KINDS)[number];

export const filesEventSchema = z.object({
  id: z.string(),
  kind: z.enum(FILE_CHANGE_KINDS),
  size: z.number(),
  mtimeMs: z.number(),
  path: z.string(),
  root: z.number(),
  run: z.string().nullable(),
  step: z.number().nullable(),
  stepSource: z.enum(STEP_SOURCES).nullable(),
});

export type FilesEvent = z.infer<typeof filesEventSchema>;

export const annotationsEventSchema = z.object({ version: z.string() });

/** The first event of every stream: the annotations version when it (re)opened. */
export const helloEventSchema = z.object({ annotations: z.object({ version: z.string() }) });

/** `PUT /api/annotations` 200 and 409 replies (`current` is checked by the annotations parser). */
export const annotationsWrittenSchema = z.object({ version: z.string() });
export const annotationsConflictSchema = z.object({
  error: z.string(),
  version: z.string(),
  current: z.unknown(),
});

/** `GET /api/annotations` 422: the file on disk does not validate. */
export const annotationsInvalidSchema = z.object({
  error: z.string(),
  version: z.string(),
  issues: z.array(z.object({ file: z.string(), line: z.number(), message: z.string() })),
});

export { viewRunName } from "./viewNames.ts";
export * from "./teamApi.ts";

/** Parse a reply body with a schema; the error names the route and the first bad field. */
export function parseViewReply<T>(route: string, schema: z.ZodType<T>, value: unknown): T {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const at = issue === undefined || issue.path.length === 0 ? "" : ` at ${issue.path.join(".")}`;
  throw new Error(`${route}: unexpected reply${at} (${issue?.message ?? "invalid"})`);
}
