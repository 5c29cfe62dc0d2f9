/**
 * A connection pool to the team store's PostgreSQL database, opened with its migrations applied,
 * and the one way the store writes: `inTransaction`. Every error that leaves here is a DbError
 * whose message names the database by its redacted URL and never carries its password.
 */
import pg from "pg";
import { redactDbUrl, redactSecrets } from "./dbUrl.ts";
import { DbError, dbErrorText } from "./errors.ts";
import { migrate } from "./migrate.ts";

export { DbError, dbErrorText } from "./errors.ts";

export interface Db {
  readonly pool: pg.Pool;
  /** The URL as it may be shown. */
  readonly where: string;
  /** The migrations this open applied (none when the database was up to date). */
  readonly applied: readonly number[];
  close(): Promise<void>;
}

export interface DbOpenOptions {
  /** Connections at most (default 10). */
  readonly max?: number;
  /** A connection that drops while idle (the server restarted): for a log line. */
  readonly warn?: (message: string) => void;
}

/**
 * Connect to `url`, apply the migrations it lacks, and return the pool.
 *
 * @throws DbError when the server cannot be reached, refuses the login, or a migration fails
 */
export async function dbOpen(url: string, options: DbOpenOptions = {}): Promise<Db> {
  const where = redactDbUrl(url);
  const pool = new pg.Pool({
    connectionString: url,
    max: options.max ?? 10,
    connectionTimeoutMillis: 10_000,
    idleTimeoutMillis: 30_000,
  });
  // An idle connection that breaks emits here; without a listener it would end the process.
  pool.on("error", (e) =>
    options.warn?.(`the database connection to ${where} dropped: ${dbErrorText(e, url)}`),
  );
  let applied: readonly number[];
  try {
    applied = await migrate(pool);
  } catch (e) {
    await pool.end().catch(() => undefined);
    if (e instanceof DbError) throw new DbError(redactSecrets(e.message, url));
    throw new DbError(`cannot use the database at ${where}: ${dbErrorText(e, url)}`);
  }
  return { pool, where, applied, close: () => pool.end() };
}

/**
 * Run `body` in one transaction on one connection: COMMIT when it returns, ROLLBACK when it
 * throws (and the error is thrown on). A write the caller was told succeeded has committed.
 */
export async function inTransaction<T>(
  pool: pg.Pool,
  body: (client: pg.PoolClient) => Promise<T>,
): Promise<T> {
  const client = await pool.connect();
  let broken = false;
  try {
    await client.query("BEGIN");
    const result = await body(client);
    await client.query("COMMIT");
    return result;
  } catch (e) {
    await client.query("ROLLBACK").catch(() => {
      broken = true;
    });
    throw e;
  } finally {
    // A connection that could not even roll back is dropped, not handed to the next caller.
    client.release(broken);
  }
}
