/**
 * `rollout-studio users add|list|revoke` (issue 18): the people of the team store on PostgreSQL.
 * `add` prints the new personal token once, as the last line of its output (a contract: scripts
 * take it with `tail -n 1`); only its id and a scrypt hash are kept. `list` never shows a token;
 * `revoke` stops one at once. The database URL comes from `--db` or ROLLOUT_STUDIO_DB and is only
 * ever shown redacted, in errors too.
 */
import { parseArgs } from "node:util";
import { dbOpen, type Db } from "../../server/db/connect.ts";
import { redactSecrets } from "../../server/db/dbUrl.ts";
import { StoreInvalid, type UserInfo } from "../../server/team/types.ts";
import { roleParse, userAdd, UserExists, userList, userRevoke } from "../../server/team/users.ts";
import { argsRedacted, DB_ENV, dbFailureText, dbFlagUrl } from "../dbFlag.ts";
import { EXIT, UsageError, type CliIo } from "../io.ts";

export const USERS_USAGE = `Usage: rollout-studio users add NAME --role annotator|lead [--db URL]
       rollout-studio users list [--db URL] [--json]
       rollout-studio users revoke NAME [--db URL]

The people of a team store (PostgreSQL; \`rollout-studio view RUN --db URL\` serves it). Each person
has a role and a personal token: an annotator reads and writes only their own annotations, a lead
sees everyone's, makes queues and resolves the gold. The database's tables are made (migrated) on
first use.

  add NAME     add a person and print their token, once, as the last line (only a hash of it is
               kept: a lost token cannot be shown again; revoke it and add the person anew under
               another name)
  list         everyone: name, role, when added, when revoked (never a token)
  revoke NAME  the person's token stops working at once; their annotations stay

Options:
  --db URL       the database, postgres://USER:PASSWORD@HOST:PORT/DATABASE (default: $${DB_ENV});
                 its password is never printed
  --role ROLE    add: annotator or lead
  --json         list: one JSON array of { name, role, createdAt, revokedAt }
  -h, --help     this help

Exit codes: 0 done (revoke: also when already revoked); 1 the database cannot be used, no such
person, or the name is taken; 2 usage error.
`;

interface UsersOptions {
  readonly action: "add" | "list" | "revoke";
  readonly name: string | null;
  readonly role: "annotator" | "lead" | null;
  readonly url: string;
  readonly json: boolean;
}

/** Read `users`' arguments; null after printing --help. @throws UsageError */
export function usersOptions(argv: readonly string[], io: CliIo): UsersOptions | null {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      strict: true,
      options: {
        db: { type: "string" },
        role: { type: "string" },
        json: { type: "boolean" },
        help: { type: "boolean", short: "h" },
      },
    });
  } catch (e) {
    // parseArgs quotes what it was given: a --db value would be echoed with its password.
    throw new UsageError(argsRedacted(e instanceof Error ? e.message : String(e), argv));
  }
  const { values, positionals } = parsed;
  if (values.help === true) {
    io.stdout(USERS_USAGE);
    return null;
  }
  const [action, name, ...extra] = positionals;
  if (action !== "add" && action !== "list" && action !== "revoke")
    throw new UsageError(
      action === undefined
        ? "users needs an action: add, list or revoke"
        : `users has no action "${action}"; the actions are add, list and revoke`,
    );
  const takesName = action !== "list";
  if (takesName && name === undefined) throw new UsageError(`users ${action} needs a NAME`);
  if ((takesName ? extra.length : [name, ...extra].filter((x) => x !== undefined).length) > 0)
    throw new UsageError(
      `users ${action} takes ${takesName ? "one NAME" : "no NAME"}; quote a name with spaces`,
    );
  const role = values.role === undefined ? null : roleParse(values.role);
  if (action === "add" && role === null)
    throw new UsageError(
      values.role === undefined
        ? "users add needs --role annotator or --role lead"
        : `--role is annotator or lead, got "${values.role}"`,
    );
  if (action !== "add" && values.role !== undefined)
    throw new UsageError("--role goes with users add");
  if (action !== "list" && values.json === true)
    throw new UsageError("--json goes with users list");
  const url = dbFlagUrl(values.db, io);
  if (url === null)
    throw new UsageError(`users needs the database: --db URL, or ${DB_ENV} in the environment`);
  return { action, name: name ?? null, role, url, json: values.json === true };
}

function table(users: readonly UserInfo[]): string {
  const rows = [
    ["name", "role", "created", "revoked"],
    ...users.map((u) => [u.name, u.role, u.createdAt, u.revokedAt ?? "-"]),
  ];
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => [...r[i]!].length)));
  return rows
    .map((r) =>
      r.map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd(widths[i]!))).join("  "),
    )
    .join("\n");
}

async function run(options: UsersOptions, db: Db, io: CliIo): Promise<number> {
  const say = (line: string) => io.stdout(`${line}\n`);
  if (options.action === "list") {
    const users = await userList(db.pool);
    if (options.json) say(JSON.stringify(users, null, 2));
    else say(users.length === 0 ? `no one yet in ${db.where}` : table(users));
    return EXIT.ok;
  }
  const name = options.name!;
  if (options.action === "revoke") {
    const revoked = await userRevoke(db.pool, name);
    if (revoked === null) {
      io.stderr(
        `rollout-studio users: no person is named ${JSON.stringify(name)} in ${db.where}\n`,
      );
      return EXIT.failed;
    }
    say(
      revoked.already
        ? `rollout-studio users: ${JSON.stringify(name)} was already revoked (${revoked.revokedAt})`
        : `rollout-studio users: revoked ${JSON.stringify(name)}: their token stops working at once (their annotations stay)`,
    );
    return EXIT.ok;
  }
  const added = await userAdd(db.pool, name, options.role!);
  say(`rollout-studio users: added ${added.user.role} ${JSON.stringify(name)} to ${db.where}`);
  say("Their personal token follows, shown this once (only a hash of it is kept). They open the");
  say(`studio served by \`view --db\` with ?token=TOKEN; \`users revoke ${name}\` stops it.`);
  // The contract: the token is the last line of the output.
  say(added.token);
  return EXIT.ok;
}

export async function usersCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const options = usersOptions(argv, io);
  if (options === null) return EXIT.ok;
  let db: Db | null = null;
  try {
    db = await dbOpen(options.url);
    if (db.applied.length > 0)
      io.stderr(
        `rollout-studio users: prepared ${db.where} (migrations ${db.applied.join(", ")})\n`,
      );
    return await run(options, db, io);
  } catch (e) {
    // A refusal is said in its own words; anything else from the driver in its words after the
    // database's redacted URL; the password masked either way, never thrown on to a handler that
    // would print it as it is.
    const said =
      e instanceof StoreInvalid || e instanceof UserExists
        ? redactSecrets(e.message, options.url)
        : dbFailureText(e, options.url);
    io.stderr(`rollout-studio users: ${said}\n`);
    return EXIT.failed;
  } finally {
    await db?.close();
  }
}
