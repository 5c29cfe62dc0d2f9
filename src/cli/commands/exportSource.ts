/**
 * Where `export` takes its annotations from: the studio's annotations file (`--annotations
 * A.json`), or the team store's database (issue 18: `--db URL` or ROLLOUT_STUDIO_DB, with
 * `--annotator NAME|gold`): one person's annotations, or the gold a lead resolved, read as the
 * same version-1 document the file holds, so every export is built from it by the same code.
 *
 * The CLI holds the database URL, so it reads by name without a person's token (as `users add`
 * makes people): server/team/trustedRead.ts. The gold holds groups only; the judge runs (and the
 * rubrics and calibration splits beside them) live in the document of whoever ran the judge, so
 * `--judge-from NAME` takes those document fields from NAME's while the human side stays the
 * chosen one's.
 */
import { TEAM_GOLD_ANNOTATOR, type Annotations, type ExportKind } from "../../core/index.ts";
import { LoadError } from "../../io/index.ts";
import { catalogRoots } from "../../server/catalog.ts";
import { DbError } from "../../server/db/errors.ts";
import { StoreNotFound } from "../../server/team/types.ts";
import { readAnnotationsFile } from "../annotationsFile.ts";
import { datasetFlag, DB_ENV, dbFailureText, dbFlagUrl, viewDataset } from "../dbFlag.ts";
import { UsageError, type CliIo } from "../io.ts";

/** The name `--annotator` takes for the gold annotations (the gold document's annotator). */
const GOLD = TEAM_GOLD_ANNOTATOR;

export type ExportSource =
  | { readonly kind: "file"; readonly file: string }
  | {
      readonly kind: "db";
      readonly url: string;
      /** A person's name, or "gold". */
      readonly annotator: string;
      /** null: the first PATH's name, as `view --db` names the dataset. */
      readonly dataset: string | null;
      /** Whose judge runs, rubrics and calibration splits to use instead (null: the annotator's). */
      readonly judgeFrom: string | null;
    };

export interface SourceFlags {
  readonly annotations?: string;
  readonly db?: string;
  readonly annotator?: string;
  readonly dataset?: string;
  readonly "judge-from"?: string;
}

function nameFlag(flag: string, value: string | undefined): string | null {
  if (value === undefined) return null;
  if (value.trim() === "") throw new UsageError(`--${flag} needs a name`);
  return value;
}

/**
 * The source the flags name: exactly one of `--annotations A.json` or a database (`--db`, else
 * ROLLOUT_STUDIO_DB) with `--annotator`. With `--annotations`, ROLLOUT_STUDIO_DB is not read.
 *
 * @throws UsageError for both or neither, --annotator without a database, a database without
 *   --annotator, or a database flag with --annotations
 */
export function exportSourceFromFlags(
  values: SourceFlags,
  kind: ExportKind,
  io: CliIo,
): ExportSource {
  const annotator = nameFlag("annotator", values.annotator);
  const judgeFrom = nameFlag("judge-from", values["judge-from"]);
  const dataset = datasetFlag(values.dataset);
  if (values.annotations !== undefined) {
    if (values.annotations.trim() === "") throw new UsageError("export needs --annotations");
    const dbFlags = [
      ["db", values.db],
      ["annotator", annotator],
      ["dataset", dataset],
      ["judge-from", judgeFrom],
    ] as const;
    const given = dbFlags.filter(([, v]) => v !== undefined && v !== null).map(([f]) => `--${f}`);
    if (given.length > 0)
      throw new UsageError(
        `--annotations reads a file; ${given.join(", ")} read${given.length === 1 ? "s" : ""} the database: give one or the other`,
      );
    return { kind: "file", file: values.annotations };
  }
  const url = dbFlagUrl(values.db, io);
  if (url === null) {
    if (annotator !== null)
      throw new UsageError(
        `--annotator reads the team store's database: give --db URL, or ${DB_ENV} in the environment`,
      );
    for (const [flag, v] of [
      ["dataset", dataset],
      ["judge-from", judgeFrom],
    ] as const)
      if (v !== null) throw new UsageError(`--${flag} goes with --db and --annotator`);
    throw new UsageError(
      "export needs --annotations A.json, or --db URL with --annotator NAME|gold",
    );
  }
  if (annotator === null)
    throw new UsageError(
      values.db !== undefined
        ? "--db needs --annotator NAME|gold: whose annotations to export, or the gold"
        : `export needs --annotations A.json, or --annotator NAME|gold to read the database in ${DB_ENV}`,
    );
  if (judgeFrom !== null) {
    if (kind === "annotations")
      throw new UsageError(
        "--judge-from does not go with --kind annotations: that writes one document as it is stored",
      );
    if (judgeFrom === GOLD)
      throw new UsageError("--judge-from names a person: the gold holds no judge runs");
  }
  return { kind: "db", url, annotator, dataset, judgeFrom };
}

export interface SourceRead {
  readonly annotations: Annotations;
  /** What messages call the annotations: the file, or whose and which dataset. */
  readonly label: string;
  /** The split note's words: whose calibration splits these are, and how to keep new ones. */
  readonly splits: { readonly in: string; readonly keep: string };
}

const whose = (name: string): string =>
  name === GOLD ? "the gold" : `${JSON.stringify(name)}'s annotations`;

/**
 * The annotations the source names. From the database: one read-only snapshot of the annotator's
 * document (and --judge-from's), the dataset by default the first PATH's name.
 *
 * @throws LoadError for a missing or invalid file, or a dataset or person the database does not
 *   have; CatalogPathError for a missing PATH (naming the dataset); DbError (password masked) when
 *   the database cannot be used
 */
export async function exportSourceRead(
  source: ExportSource,
  paths: readonly string[],
  io: CliIo,
): Promise<SourceRead> {
  if (source.kind === "file")
    return {
      annotations: readAnnotationsFile(io, source.file),
      label: source.file,
      splits: { in: source.file, keep: "export the annotations from the studio to keep them" },
    };
  const dataset = source.dataset ?? viewDataset(await catalogRoots(paths, io.cwd));
  // Loaded only here: the database client stays out of a file export's start.
  const { dbOpen } = await import("../../server/db/connect.ts");
  const { documentsRead, DatasetNotFound } = await import("../../server/team/trustedRead.ts");
  const names = [source.annotator, ...(source.judgeFrom === null ? [] : [source.judgeFrom])];
  let db: Awaited<ReturnType<typeof dbOpen>> | null = null;
  try {
    db = await dbOpen(source.url, { max: 1 });
    if (db.applied.length > 0)
      io.stderr(`rollout-studio: prepared ${db.where} (migrations ${db.applied.join(", ")})\n`);
    const documents = await documentsRead(db.pool, dataset, names);
    const human = documents[0]!;
    const judge = documents[1];
    const of = ` of dataset ${JSON.stringify(dataset)}`;
    const label = `${whose(source.annotator)}${of}`;
    if (Object.keys(human.annotations.groups).length === 0)
      io.stderr(`rollout-studio: note: ${label}: no annotated group yet\n`);
    const from = judge === undefined ? null : judge.annotations;
    return {
      annotations:
        from === null
          ? human.annotations
          : {
              ...human.annotations,
              judgeRuns: from.judgeRuns,
              rubrics: from.rubrics,
              calibration: from.calibration,
            },
      label:
        from === null ? label : `${label} with ${JSON.stringify(source.judgeFrom)}'s judge runs`,
      splits: {
        in: `${whose(source.judgeFrom ?? source.annotator)}${of}`,
        keep: "the export does not write them to the database",
      },
    };
  } catch (e) {
    if (e instanceof DatasetNotFound)
      throw new LoadError(
        db?.where ?? "the database",
        `${e.message}${source.dataset === null ? ` (the dataset is the first PATH's name, as view --db names it; --dataset NAME reads another)` : ""}`,
      );
    if (e instanceof StoreNotFound) throw new LoadError(db?.where ?? "the database", e.message);
    throw new DbError(dbFailureText(e, source.url));
  } finally {
    await db?.close();
  }
}
