/**
 * The installable package (issue 14): `npm pack` of this repository, installed offline into an
 * empty folder, gives a working `rollout-studio`: `--help`, `analyze`, and `view` serving the
 * bundled studio and the API. Nothing is fetched (the package has no runtime dependencies) and
 * nothing is compiled at run time.
 *
 * The studio is built here (dist/, production mode) and the CLI by the unit tests' globalSetup;
 * the pack runs with --ignore-scripts so that prepack's rebuild does not empty dist-cli/ under
 * the other tests that spawn it.
 */
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { rawGet, viewStart } from "../../scripts/viewProcess.ts";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const run = promisify(execFile);
const FIXTURE = join(ROOT, "src/io/__fixtures__/benchmax/group-rollouts.jsonl");

describe("the packed tarball, installed into an empty folder", () => {
  it("runs --help, analyze and view from there", { timeout: 300_000 }, async () => {
    await run(
      process.execPath,
      [join(ROOT, "node_modules/vite/bin/vite.js"), "build", "--logLevel", "error"],
      {
        cwd: ROOT,
        env: { ...process.env, NODE_ENV: "production" },
      },
    );
    const out = mkdtempSync(join(tmpdir(), "rollout-studio-pack-"));
    const { stdout: packed } = await run(
      "npm",
      ["pack", "--ignore-scripts", "--json", "--pack-destination", out],
      {
        cwd: ROOT,
      },
    );
    const [tarball] = JSON.parse(packed) as { filename: string; files: { path: string }[] }[];
    const shipped = tarball!.files.map((f) => f.path);
    expect(shipped).toContain("dist-cli/rollout-studio.mjs");
    expect(shipped).toContain("dist/index.html");
    expect(shipped.filter((p) => p.startsWith("src/"))).toEqual([]);

    const app = join(out, "app");
    mkdirSync(app);
    writeFileSync(join(app, "package.json"), '{ "name": "pack-test", "private": true }\n');
    await run(
      "npm",
      ["install", "--offline", "--no-audit", "--no-fund", join(out, tarball!.filename)],
      { cwd: app },
    );
    const manifest = JSON.parse(
      readFileSync(join(app, "node_modules/rollout-studio/package.json"), "utf8"),
    ) as {
      dependencies?: object;
    };
    expect(manifest.dependencies ?? {}).toEqual({});
    const bin = join(app, "node_modules/.bin/rollout-studio");

    const help = await run(bin, ["--help"], { cwd: app });
    expect(help.stdout).toMatch(/view .*\n.*analyze/s);

    const analyzed = await run(bin, ["analyze", FIXTURE, "--json"], { cwd: app });
    const doc = JSON.parse(analyzed.stdout) as { summary: { rollouts: number }; groups: unknown[] };
    expect(doc.summary.rollouts).toBeGreaterThan(0);
    expect(doc.groups.length).toBeGreaterThan(0);

    // The built analyze threads (dist-cli/analyze-thread.mjs) give what the main thread gives.
    const native = join(ROOT, "src/io/__fixtures__/native/basic.jsonl");
    const indexed = { ...process.env, ROLLOUT_STUDIO_INDEX_THRESHOLD: "0" };
    const alone = await run(bin, ["analyze", native, "--json"], { cwd: app, env: indexed });
    const threaded = await run(bin, ["analyze", native, "--json"], {
      cwd: app,
      env: { ...indexed, ROLLOUT_STUDIO_ANALYZE_THREADS: "2" },
    });
    expect(JSON.parse(threaded.stdout)).toEqual(JSON.parse(alone.stdout));

    const data = join(out, "data");
    mkdirSync(data);
    writeFileSync(join(data, "0.jsonl"), readFileSync(FIXTURE));
    const view = await viewStart(bin, ["view", data, "--port", "0", "--no-open"], { cwd: app });
    try {
      const page = await rawGet(view.origin, "/");
      expect(page.status).toBe(200);
      expect(page.body).toContain("<title>Rollout Studio</title>");
      const script = /src="(\/assets\/[^"]+\.js)"/.exec(page.body)?.[1];
      expect((await rawGet(view.origin, script!)).status).toBe(200);
      const runs = await rawGet(view.origin, "/api/runs", {
        authorization: `Bearer ${view.token!}`,
      });
      expect(runs.status).toBe(200);
      expect((JSON.parse(runs.body) as { runs: unknown[] }).runs).toHaveLength(1);
      expect((await rawGet(view.origin, "/api/runs")).status).toBe(401);
    } finally {
      expect(await view.stop("SIGTERM")).toBe(0);
    }
  });
});
