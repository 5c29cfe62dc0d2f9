/**
 * The team store's migrations in order. A migration is applied once, in one transaction, and
 * recorded in schema_migrations (migrate.ts); a released migration is never edited: a change to
 * the schema is the next number. README.md beside this file documents the resulting schema.
 */
import { sql as team } from "./migrations/001_team.ts";

export interface Migration {
  /** 1, 2, 3 ...: the order they apply in. */
  readonly version: number;
  /** A short name, recorded beside the version. */
  readonly name: string;
  readonly sql: string;
}

export const MIGRATIONS: readonly Migration[] = [{ version: 1, name: "team", sql: team }];
