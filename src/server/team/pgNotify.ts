/**
 * The team store's channel between server processes on one database (PostgreSQL LISTEN/NOTIFY):
 * several `view --db` processes serving one database tell each other what changed, so every
 * person's event stream hears of a write whichever process took it. One channel for the whole
 * database; what travels on it is a short text the relay (../teamRelay.ts) makes and checks.
 *
 * A listener holds one connection of the pool for as long as it listens. When that connection
 * breaks, it connects again (after 1 s, doubling to 30 s); what was sent meanwhile is not heard
 * (NOTIFY keeps nothing for a listener that is not there).
 */
import type pg from "pg";

/** The channel's name: a constant identifier (LISTEN cannot take it as a parameter). */
export const TEAM_CHANNEL = "rollout_studio_team";

/** PostgreSQL refuses a payload of 8000 bytes or more. */
export const NOTIFY_MAX_BYTES = 7999;

const RETRY_FIRST_MS = 1_000;
const RETRY_MAX_MS = 30_000;

/** Send `text` to every process listening on the database (this one too). */
export async function pgNotify(pool: pg.Pool, text: string): Promise<void> {
  await pool.query("SELECT pg_notify($1, $2)", [TEAM_CHANNEL, text]);
}

/**
 * Listen on the channel; `onText` gets each notification's text. Resolves once listening (throws
 * if the first connection fails), with the function that stops listening and gives the
 * connection back.
 */
export async function pgListen(
  pool: pg.Pool,
  onText: (text: string) => void,
  warn: (message: string) => void,
): Promise<() => Promise<void>> {
  let client: pg.PoolClient | null = null;
  let stopped = false;
  let retryMs = RETRY_FIRST_MS;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const onNotification = (m: pg.Notification) => {
    if (m.channel === TEAM_CHANNEL && m.payload !== undefined) onText(m.payload);
  };
  const connect = async (): Promise<void> => {
    const c = await pool.connect();
    c.on("notification", onNotification);
    c.on("error", (e) => lost(c, e));
    try {
      await c.query(`LISTEN ${TEAM_CHANNEL}`);
    } catch (e) {
      c.release(true);
      throw e;
    }
    if (stopped) {
      c.release(true);
      return;
    }
    client = c;
    retryMs = RETRY_FIRST_MS;
  };
  const retry = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      connect().catch((e: unknown) => {
        warn(
          `listening for other servers' events failed again: ${e instanceof Error ? e.message : String(e)}`,
        );
        retryMs = Math.min(retryMs * 2, RETRY_MAX_MS);
        retry();
      });
    }, retryMs);
  };
  function lost(c: pg.PoolClient, e: Error): void {
    if (client !== c) return;
    client = null;
    c.release(true);
    if (stopped) return;
    warn(`the connection listening for other servers' events broke (${e.message}); reconnecting`);
    retry();
  }

  await connect();
  return () => {
    stopped = true;
    clearTimeout(timer);
    const c = client;
    client = null;
    if (c !== null) {
      c.off("notification", onNotification);
      // Dropped, not reused: a pooled connection must not stay subscribed to the channel.
      c.release(true);
    }
    return Promise.resolve();
  };
}
