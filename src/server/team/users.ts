/**
 * People in the team store: add (a fresh token, shown once, stored as a hash), list (never a
 * token), revoke (the token fails from the next request on), and the check every request makes
 * (`authenticateToken`: no cache, so a revocation takes effect at once). `rollout-studio users`
 * and the PostgreSQL store build on these; every query is parameterised.
 */
import type pg from "pg";
import { tokenHash, tokenNew, tokenParse, tokenVerify, tokenVerifyNothing } from "./tokens.ts";
import { ROLES, StoreInvalid, type Role, type StoreUser, type UserInfo } from "./types.ts";

/** The longest name `users add` takes. */
export const USER_NAME_MAX = 64;

/** Why a name cannot be a person's name, or null when it can. */
export function userNameProblem(name: string): string | null {
  if (name === "") return "a name cannot be empty";
  if (name.trim() !== name) return "a name cannot start or end with white space";
  if ([...name].length > USER_NAME_MAX) return `a name has at most ${USER_NAME_MAX} characters`;
  // Control characters would garble `users list` and the studio's lists.
  if (/\p{Cc}/u.test(name)) return "a name cannot hold control characters";
  if (name === "gold") return '"gold" names the adjudicated annotations; choose another name';
  return null;
}

export function roleParse(value: string): Role | null {
  return ROLES.find((r) => r === value) ?? null;
}

const iso = (d: Date | null): string | null => (d === null ? null : d.toISOString());

/** A name already taken (by a person present or revoked: names are never reused). */
export class UserExists extends Error {
  override name = "UserExists";
}

/**
 * Add a person. The token is returned once, here; only its id and a hash of its secret are kept.
 *
 * @throws StoreInvalid for a bad name; UserExists when the name is taken
 */
export async function userAdd(
  pool: pg.Pool,
  name: string,
  role: Role,
): Promise<{ readonly user: StoreUser; readonly token: string }> {
  const problem = userNameProblem(name);
  if (problem !== null) throw new StoreInvalid(problem);
  const token = tokenNew();
  const hash = await tokenHash(token.secret);
  try {
    const result = await pool.query<{ id: string }>(
      `INSERT INTO users (name, role, token_id, token_hash, token_salt, token_kdf)
       VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
      [name, role, token.id, hash.hash, hash.salt, hash.kdf],
    );
    return { user: { id: result.rows[0]!.id, name, role }, token: token.token };
  } catch (e) {
    if (typeof e === "object" && e !== null && "code" in e && e.code === "23505")
      throw new UserExists(`there is already a person named ${JSON.stringify(name)}`);
    throw e;
  }
}

interface UserRow {
  name: string;
  role: Role;
  created_at: Date;
  revoked_at: Date | null;
}

/** Everyone, oldest first. */
export async function userList(pool: pg.Pool | pg.PoolClient): Promise<UserInfo[]> {
  const result = await pool.query<UserRow>(
    "SELECT name, role, created_at, revoked_at FROM users ORDER BY created_at, id",
  );
  return result.rows.map((r) => ({
    name: r.name,
    role: r.role,
    createdAt: r.created_at.toISOString(),
    revokedAt: iso(r.revoked_at),
  }));
}

/**
 * Revoke a person's token: it fails from the next request on. Their annotations stay.
 *
 * @returns when it was revoked and whether it already was; null for no such person
 */
export async function userRevoke(
  pool: pg.Pool,
  name: string,
): Promise<{ readonly revokedAt: string; readonly already: boolean } | null> {
  const result = await pool.query<{ revoked_at: Date; already: boolean }>(
    `UPDATE users SET revoked_at = COALESCE(revoked_at, now())
     WHERE name = $1
     RETURNING revoked_at, (revoked_at < now()) AS already`,
    [name],
  );
  const row = result.rows[0];
  return row === undefined
    ? null
    : { revokedAt: row.revoked_at.toISOString(), already: row.already };
}

interface TokenRow {
  id: string;
  name: string;
  role: Role;
  token_hash: Buffer;
  token_salt: Buffer;
  token_kdf: string;
  revoked_at: Date | null;
}

/** The person a token names; null for a malformed, unknown or revoked one. */
export async function authenticateToken(
  pool: pg.Pool,
  token: string | null,
): Promise<StoreUser | null> {
  const parts = tokenParse(token);
  if (parts === null) return null;
  const result = await pool.query<TokenRow>(
    `SELECT id, name, role, token_hash, token_salt, token_kdf, revoked_at
     FROM users WHERE token_id = $1`,
    [parts.id],
  );
  const row = result.rows[0];
  if (row === undefined) {
    await tokenVerifyNothing(parts.secret);
    return null;
  }
  const ok = await tokenVerify(parts.secret, {
    hash: row.token_hash,
    salt: row.token_salt,
    kdf: row.token_kdf,
  });
  return ok && row.revoked_at === null ? { id: row.id, name: row.name, role: row.role } : null;
}
