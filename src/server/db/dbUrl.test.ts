import { describe, expect, it } from "vitest";
import { dbUrlChosen, dbUrlIsPostgres, redactDbUrl, redactSecrets } from "./dbUrl.ts";
import { dbErrorText } from "./errors.ts";

describe("redactDbUrl", () => {
  it("masks the password and keeps what says where the database is", () => {
    expect(redactDbUrl("postgres://studio:s3cret@db.lab:5432/annotations")).toBe(
      "postgres://studio:***@db.lab:5432/annotations",
    );
    expect(redactDbUrl("postgresql://studio@localhost/x")).toBe("postgresql://studio@localhost/x");
    expect(redactDbUrl("postgres://db.lab/x")).toBe("postgres://db.lab/x");
  });

  it("masks a password given as a parameter, and an encoded one", () => {
    expect(redactDbUrl("postgres://u@h/db?sslmode=require&password=p%40ss")).toBe(
      "postgres://u@h/db?sslmode=require&password=***",
    );
    const out = redactDbUrl("postgres://u:p%40ss%3Aword@h:1/db");
    expect(out).toBe("postgres://u:***@h:1/db");
    expect(out).not.toMatch(/p%40ss|p@ss/);
  });

  it("shows nothing of a URL that does not parse", () => {
    const out = redactDbUrl("postgres://u:hunter2@[bad");
    expect(out).not.toContain("hunter2");
    expect(out).toMatch(/does not parse/);
  });
});

describe("redactSecrets", () => {
  const url = "postgres://studio:p%40ss%2Fword@db:5432/x";

  it("replaces the URL by its redacted form and the password wherever it appears, raw or decoded", () => {
    const text = `connect to ${url} failed; password p%40ss%2Fword or p@ss/word was refused`;
    const out = redactSecrets(text, url);
    expect(out).toBe(
      "connect to postgres://studio:***@db:5432/x failed; password *** or *** was refused",
    );
  });

  it("leaves a text without secrets as it is", () => {
    expect(redactSecrets("connect ECONNREFUSED 127.0.0.1:1", url)).toBe(
      "connect ECONNREFUSED 127.0.0.1:1",
    );
  });

  it("dbErrorText keeps the driver's words and code, with secrets masked", () => {
    const e = Object.assign(new Error("password authentication failed for p@ss/word"), {
      code: "28P01",
    });
    expect(dbErrorText(e, url)).toBe("password authentication failed for *** (28P01)");
    const refused = new AggregateError(
      [
        new Error("connect ECONNREFUSED ::1:5432"),
        new Error("connect ECONNREFUSED 127.0.0.1:5432"),
      ],
      "",
    );
    expect(dbErrorText(refused, url)).toBe(
      "connect ECONNREFUSED ::1:5432; connect ECONNREFUSED 127.0.0.1:5432",
    );
  });
});

describe("dbUrlChosen", () => {
  it("--db wins, then ROLLOUT_STUDIO_DB; empty counts as unset", () => {
    const env = { ROLLOUT_STUDIO_DB: "postgres://env/x" };
    expect(dbUrlChosen("postgres://flag/x", env)).toBe("postgres://flag/x");
    expect(dbUrlChosen(undefined, env)).toBe("postgres://env/x");
    expect(dbUrlChosen("", env)).toBe("postgres://env/x");
    expect(dbUrlChosen(undefined, { ROLLOUT_STUDIO_DB: " " })).toBeNull();
    expect(dbUrlChosen(undefined, {})).toBeNull();
  });

  it("dbUrlIsPostgres takes postgres:// and postgresql:// only", () => {
    expect(dbUrlIsPostgres("postgres://h/x")).toBe(true);
    expect(dbUrlIsPostgres("PostgreSQL://h/x")).toBe(true);
    expect(dbUrlIsPostgres("mysql://h/x")).toBe(false);
    expect(dbUrlIsPostgres("h/x")).toBe(false);
  });
});
