/**
 * Personal tokens (issue 18): `<id>.<secret>`, 12 and 43 base64url characters (9 and 32 random
 * bytes), so a token fits a URL's query (`?token=`) and view's token rule. The database keeps the
 * id in clear (to find the row) and only a scrypt hash of the secret, salted per person; a check
 * hashes the secret given with the row's salt and compares in constant time.
 *
 * The cost: scrypt N=1024, r=8, p=1, a few milliseconds. The secret is 256 random bits, so no
 * guessing is feasible at any cost; scrypt's work factor guards passwords people choose, which
 * these are not, and every API request is checked afresh (no cache: a revoked token stops at
 * once), so a cheap check keeps the server fast. The parameters are stored with each hash
 * (`scrypt:N:r:p`), so a later build can raise them without voiding the tokens given out.
 */
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from "node:crypto";

export interface TokenParts {
  readonly id: string;
  readonly secret: string;
}

export interface TokenHash {
  readonly hash: Buffer;
  readonly salt: Buffer;
  /** `scrypt:N:r:p`. */
  readonly kdf: string;
}

const KEY_LENGTH = 32;
export const TOKEN_KDF = "scrypt:1024:8:1";

const TOKEN = /^([A-Za-z0-9_-]{12})\.([A-Za-z0-9_-]{43})$/;

/** A fresh token and its parts. */
export function tokenNew(): TokenParts & { readonly token: string } {
  const id = randomBytes(9).toString("base64url");
  const secret = randomBytes(32).toString("base64url");
  return { token: `${id}.${secret}`, id, secret };
}

/** The parts of a well-formed token; null for anything else (it cannot match any row). */
export function tokenParse(token: string | null): TokenParts | null {
  const m = token === null ? null : TOKEN.exec(token);
  return m === null ? null : { id: m[1]!, secret: m[2]! };
}

function kdfOptions(kdf: string): ScryptOptions | null {
  const m = /^scrypt:(\d+):(\d+):(\d+)$/.exec(kdf);
  if (m === null) return null;
  const [N, r, p] = [Number(m[1]), Number(m[2]), Number(m[3])];
  return { N, r, p, maxmem: 256 * N * r + 1024 * 1024 };
}

function scryptKey(secret: string, salt: Buffer, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(secret, salt, KEY_LENGTH, options, (e, key) => (e === null ? resolve(key) : reject(e))),
  );
}

/** The hash to store for a token's secret, with a fresh salt. */
export async function tokenHash(secret: string): Promise<TokenHash> {
  const salt = randomBytes(16);
  const options = kdfOptions(TOKEN_KDF)!;
  return { hash: await scryptKey(secret, salt, options), salt, kdf: TOKEN_KDF };
}

/** True when `secret` hashes to the stored hash (constant-time compare). */
export async function tokenVerify(secret: string, stored: TokenHash): Promise<boolean> {
  const options = kdfOptions(stored.kdf);
  if (options === null) return false;
  const key = await scryptKey(secret, stored.salt, options);
  return key.length === stored.hash.length && timingSafeEqual(key, stored.hash);
}

/** The work of one check, done for a token whose id matches no row (so timing tells nothing). */
export async function tokenVerifyNothing(secret: string): Promise<void> {
  await scryptKey(secret, Buffer.alloc(16), kdfOptions(TOKEN_KDF)!);
}
