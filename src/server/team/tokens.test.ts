import { describe, expect, it } from "vitest";
import { canonicalJson, documentVersion } from "./groupRows.ts";
import { TOKEN_KDF, tokenHash, tokenNew, tokenParse, tokenVerify } from "./tokens.ts";
import { NO_DOCUMENT_VERSION } from "./types.ts";
import { userNameProblem } from "./users.ts";

describe("tokens", () => {
  it("are <id>.<secret>, URL-safe, fresh each time", () => {
    const a = tokenNew();
    const b = tokenNew();
    expect(a.token).toMatch(/^[A-Za-z0-9_-]{12}\.[A-Za-z0-9_-]{43}$/);
    expect(a.token).toBe(`${a.id}.${a.secret}`);
    expect(new Set([a.id, b.id, a.secret, b.secret]).size).toBe(4);
    expect(tokenParse(a.token)).toEqual({ id: a.id, secret: a.secret });
    for (const bad of [
      null,
      "",
      "x",
      `${a.id}.${a.secret}x`,
      `${a.id}${a.secret}`,
      `${a.id}.${a.secret}.x`,
    ])
      expect(tokenParse(bad)).toBeNull();
  });

  it("a stored hash verifies its secret only; the parameters travel with it", async () => {
    const { secret } = tokenNew();
    const stored = await tokenHash(secret);
    expect(stored.kdf).toBe(TOKEN_KDF);
    expect(stored.hash.toString("hex")).not.toContain(Buffer.from(secret).toString("hex"));
    expect(await tokenVerify(secret, stored)).toBe(true);
    expect(await tokenVerify(tokenNew().secret, stored)).toBe(false);
    expect(await tokenVerify(secret, { ...stored, salt: Buffer.alloc(16) })).toBe(false);
    expect(await tokenVerify(secret, { ...stored, kdf: "scrypt:2048:8:1" })).toBe(false);
    expect(await tokenVerify(secret, { ...stored, kdf: "md5" })).toBe(false);
    // Two hashes of one secret differ (a salt each).
    expect((await tokenHash(secret)).hash.equals(stored.hash)).toBe(false);
  });
});

describe("names and versions", () => {
  it("a person's name: printable, trimmed, not 'gold'", () => {
    expect(userNameProblem("O'Brien, J.")).toBeNull();
    expect(userNameProblem("")).toMatch(/empty/);
    expect(userNameProblem("ann ")).toMatch(/white space/);
    expect(userNameProblem("a\tb")).toMatch(/control/);
    expect(userNameProblem("x".repeat(65))).toMatch(/at most 64/);
    expect(userNameProblem("gold")).toMatch(/gold/);
  });

  it("canonical JSON ignores key order; a document version moves with any group or field version", () => {
    expect(canonicalJson({ b: 1, a: { d: [2, { z: 1, y: 2 }], c: null } })).toBe(
      canonicalJson({ a: { c: null, d: [2, { y: 2, z: 1 }] }, b: 1 }),
    );
    expect(canonicalJson({ a: 1 })).not.toBe(canonicalJson({ a: 2 }));
    expect(documentVersion({}, "0")).toBe(NO_DOCUMENT_VERSION);
    const v = documentVersion({ g1: "1", g2: "3" }, "0");
    expect(v).toMatch(/^[0-9a-f]{16}$/);
    expect(documentVersion({ g2: "3", g1: "1" }, "0")).toBe(v);
    expect(documentVersion({ g1: "2", g2: "3" }, "0")).not.toBe(v);
    expect(documentVersion({ g1: "1", g2: "3" }, "1")).not.toBe(v);
    expect(documentVersion({}, "1")).not.toBe(NO_DOCUMENT_VERSION);
  });
});
