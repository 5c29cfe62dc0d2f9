/**
 * Covers: `rollout-studio view` as users run it (the built CLI on a real port), from outside:
 * no token gives 401; path traversal (plain, URL-encoded, double-encoded, absolute, through a
 * symbolic link) serves nothing outside the paths given; a foreign Host is refused (DNS
 * rebinding); `--host 0.0.0.0 --no-token` exits 2 without serving; SIGTERM and SIGINT exit 0.
 * No browser: these are HTTP checks (the unit tests in src/server cover the same routes in process).
 */
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rawGet, viewStart, type ViewProcess } from "../scripts/viewProcess.ts";

const BIN = fileURLToPath(new URL("../bin/rollout-studio.mjs", import.meta.url));
const SECRET = "SECRET-OUTSIDE-THE-RUN";

const base = mkdtempSync(join(tmpdir(), "view-security-"));
const run = join(base, "run");
mkdirSync(join(run, "completions"), { recursive: true });
writeFileSync(
  join(run, "completions", "completions_00010.jsonl"),
  '{"prompt":"p","completion":"c","reward":1}\n',
);
writeFileSync(join(base, "secret.jsonl"), `{"s":"${SECRET}"}\n`);
symlinkSync(join(base, "secret.jsonl"), join(run, "completions", "completions_00020.jsonl"));
symlinkSync(base, join(run, "up"));

let view: ViewProcess;

beforeAll(async () => {
  view = await viewStart(process.execPath, [BIN, "view", run, "--port", "0", "--no-open"]);
});

afterAll(async () => {
  if (view.child.exitCode === null) await view.stop("SIGKILL");
});

const auth = () => ({ authorization: `Bearer ${view.token!}` });

describe("rollout-studio view, from outside", () => {
  it("prints the URL with the token and the ssh line", () => {
    expect(view.token).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    expect(view.stdout()).toContain(`${view.origin}/?token=${view.token!}`);
    expect(view.stdout()).toMatch(
      new RegExp(`ssh -N -L ${view.port}:127\\.0\\.0\\.1:${view.port} \\S+@\\S+`),
    );
  });

  it("serves the studio at / with its CSP", async () => {
    const page = await rawGet(view.origin, "/");
    expect(page.status).toBe(200);
    expect(page.body).toContain('<div id="root">');
    expect(page.headers["content-security-policy"]).toContain("script-src 'self'");
  });

  it("any /api/ request without the token gets 401", async () => {
    for (const path of [
      "/api/runs",
      "/api/annotations",
      "/api/events",
      "/api/files/0123456789abcdef",
      "/api/x",
    ]) {
      expect((await rawGet(view.origin, path)).status, path).toBe(401);
      expect((await rawGet(view.origin, `${path}?token=wrong`)).status, path).toBe(401);
    }
    expect((await rawGet(view.origin, "/api/runs", auth())).status).toBe(200);
  });

  it("lists the run, not the link that leads outside", async () => {
    const body = JSON.parse((await rawGet(view.origin, "/api/runs", auth())).body) as {
      runs: { files: { path: string }[] }[];
    };
    expect(body.runs.flatMap((r) => r.files.map((f) => f.path))).toEqual([
      "completions/completions_00010.jsonl",
    ]);
  });

  it("path traversal serves nothing outside the paths: plain, encoded, double-encoded, absolute, links", async () => {
    const secretAbs = join(base, "secret.jsonl");
    const paths = [
      "/api/files/../../secret.jsonl",
      "/api/files/..%2f..%2fsecret.jsonl",
      "/api/files/%2e%2e%2f%2e%2e%2fsecret.jsonl",
      "/api/files/%252e%252e%252f%252e%252e%252fsecret.jsonl",
      `/api/files/${secretAbs}`,
      `/api/files/${encodeURIComponent(secretAbs)}`,
      "/api/files/completions%2fcompletions_00020.jsonl",
      "/api/files/up%2fsecret.jsonl",
      "/../secret.jsonl",
      "/..%2fsecret.jsonl",
      "/%2e%2e%2fsecret.jsonl",
      "/%252e%252e%252fsecret.jsonl",
      `/${secretAbs}`,
      "/assets/../../secret.jsonl",
    ];
    for (const path of paths) {
      const res = await rawGet(view.origin, path, auth());
      expect([400, 404], path).toContain(res.status);
      expect(res.body, path).not.toContain(SECRET);
      const query = await rawGet(view.origin, `${path}?token=${view.token!}`);
      expect(query.body, path).not.toContain(SECRET);
    }
  });

  it("a foreign Host is refused, for the page and the API", async () => {
    for (const path of ["/", "/api/runs"]) {
      const res = await rawGet(view.origin, path, {
        ...auth(),
        host: `attacker.example:${view.port}`,
      });
      expect(res.status, path).toBe(403);
    }
    expect((await rawGet(view.origin, "/", { host: `localhost:${view.port}` })).status).toBe(200);
  });

  it("takes the next free port when the one asked for is taken, and says so", async () => {
    const second = await viewStart(process.execPath, [
      BIN,
      "view",
      run,
      "--port",
      String(view.port),
      "--no-open",
    ]);
    try {
      expect(second.port).not.toBe(view.port);
      await expect
        .poll(() => second.stderr())
        .toContain(`port ${view.port} is taken; using ${second.port}`);
      expect((await rawGet(second.origin, "/")).status).toBe(200);
    } finally {
      expect(await second.stop("SIGTERM")).toBe(0);
    }
  });

  it("SIGTERM stops it with exit 0", async () => {
    expect(await view.stop("SIGTERM")).toBe(0);
  });

  it("SIGINT stops it with exit 0", async () => {
    const other = await viewStart(process.execPath, [BIN, "view", run, "--port", "0", "--no-open"]);
    expect((await rawGet(other.origin, "/")).status).toBe(200);
    expect(await other.stop("SIGINT")).toBe(0);
  });

  it("--host 0.0.0.0 --no-token exits 2 without serving", async () => {
    const result = await promisify(execFile)(process.execPath, [
      BIN,
      "view",
      run,
      "--host",
      "0.0.0.0",
      "--no-token",
      "--port",
      "0",
      "--no-open",
    ]).catch((e: { code?: number; stdout?: string; stderr?: string }) => e);
    expect("code" in result ? result.code : 0).toBe(2);
    expect(result.stdout ?? "").not.toContain("http://");
    expect(result.stderr ?? "").toContain("--no-token is refused");
  });
});
