/**
 * The team store's database as the commands that use it (`users`, `view`, `export`) read it: the
 * URL from `--db`, else ROLLOUT_STUDIO_DB, checked to be PostgreSQL's, a failure said with the URL
 * redacted, and the dataset a run's annotations are kept under. One place, so every command takes
 * the database alike, none prints its password, and `view RUN --db` and `export RUN --db` meet on
 * the same dataset.
 */
import { basename } from "node:path";
import type { CatalogRoot } from "../server/catalog.ts";
import { DbError, dbErrorText } from "../server/db/errors.ts";
import { dbUrlChosen, dbUrlIsPostgres, redactDbUrl, redactSecrets } from "../server/db/dbUrl.ts";
import { UsageError, type CliIo } from "./io.ts";

export { DB_ENV } from "../server/db/dbUrl.ts";

/**
 * The database a command was given: `--db`, else ROLLOUT_STUDIO_DB from the command's
 * environment; null when neither is set.
 *
 * @throws UsageError for a URL that is not postgres:// (shown redacted)
 */
export function dbFlagUrl(flag: string | undefined, io: CliIo): string | null {
  const url = dbUrlChosen(flag, io.env ?? process.env);
  if (url === null) return null;
  if (!dbUrlIsPostgres(url))
    throw new UsageError(`the database is a postgres:// URL; got ${redactDbUrl(url)}`);
  return url;
}

/**
 * A failure while using the database, in words fit to print: a DbError's own (its URL already
 * redacted), or the driver's with the database named by its redacted URL; the password masked
 * either way.
 */
export function dbFailureText(e: unknown, url: string): string {
  if (e instanceof DbError) return redactSecrets(e.message, url);
  return `${redactDbUrl(url)}: ${dbErrorText(e, url)}`;
}

/**
 * A message about the command line (parseArgs quotes what it was given) with every URL in the
 * arguments shown redacted and its password masked: a `--db` value holds the password.
 */
export function argsRedacted(message: string, argv: readonly string[]): string {
  let out = message;
  for (const arg of argv) {
    const value = arg.replace(/^--[\w-]+=/, "");
    if (value.includes("://")) out = redactSecrets(out, value);
  }
  return out;
}

/** `--dataset`'s value: null when not given. @throws UsageError for an empty name */
export function datasetFlag(value: string | undefined): string | null {
  if (value === undefined) return null;
  if (value.trim() === "") throw new UsageError("--dataset needs a name");
  return value;
}

/**
 * The dataset a run's annotations are kept under when --dataset is not given: the first PATH's
 * name (a folder's, a file's with its extension, a glob's starting folder's).
 */
export function viewDataset(roots: readonly Pick<CatalogRoot, "abs">[]): string {
  return basename(roots[0]!.abs) || roots[0]!.abs;
}
