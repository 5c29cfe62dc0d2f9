import { describe, expect, it } from "vitest";
import {
  compareLines,
  viewDataset,
  viewOptions,
  viewStateDir,
  VIEW_USAGE,
} from "./commands/view.ts";
import type { CatalogRoot } from "../server/catalog.ts";
import { UsageError, type CliIo } from "./io.ts";

const out: string[] = [];
const io: CliIo = { stdout: (t) => out.push(t), stderr: () => undefined, cwd: "/work" };

describe("view's flags", () => {
  it("defaults: loopback, port 7575, a fresh random token, detected format", () => {
    const a = viewOptions(["run/"], io)!;
    const b = viewOptions(["run/"], io)!;
    expect([a.host, a.port, a.stateDir, a.format]).toEqual(["127.0.0.1", 7575, null, null]);
    expect(a.token).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(a.token).not.toBe(b.token);
  });

  it("takes several PATHs and every flag", () => {
    const o = viewOptions(
      [
        "a/",
        "b.jsonl",
        "--host",
        "0.0.0.0",
        "--port",
        "0",
        "--token",
        "abcdefgh12",
        "--state",
        "s",
        "--format",
        "trl",
        "--no-open",
      ],
      io,
    )!;
    expect(o).toEqual({
      paths: ["a/", "b.jsonl"],
      host: "0.0.0.0",
      port: 0,
      token: "abcdefgh12",
      stateDir: "s",
      format: "trl",
      compare: false,
    });
  });

  it("--compare takes exactly two PATHs, run A then run B", () => {
    expect(viewOptions(["a/", "b/", "--compare"], io)!).toMatchObject({
      paths: ["a/", "b/"],
      compare: true,
    });
    expect(viewOptions(["a/"], io)!.compare).toBe(false);
    for (const argv of [
      ["a/", "--compare"],
      ["a/", "b/", "c/", "--compare"],
    ])
      expect(() => viewOptions(argv, io)).toThrow(/--compare takes exactly two PATHs/);
    expect(VIEW_USAGE).toContain("rollout-studio view RUN_A RUN_B --compare");
  });

  it("--no-token only on loopback", () => {
    expect(viewOptions(["a", "--no-token"], io)!.token).toBeNull();
    expect(viewOptions(["a", "--no-token", "--host", "localhost"], io)!.token).toBeNull();
    expect(() => viewOptions(["a", "--no-token", "--host", "0.0.0.0"], io)).toThrow(
      /--no-token is refused/,
    );
    expect(() => viewOptions(["a", "--no-token", "--host", "10.0.0.5"], io)).toThrow(UsageError);
  });

  it.each([
    [[], /at least one PATH/],
    [["a", "--port", "70000"], /--port/],
    [["a", "--port", "-1"], /--port/],
    [["a", "--port", "x"], /--port/],
    [["a", "--token", "short"], /--token/],
    [["a", "--token", "abcdefgh12", "--no-token"], /exclude/],
    [["a", "--format", "nope"], /--format/],
    [["a", "--bogus"], /bogus/],
  ])("refuses %j", (argv, message) => {
    expect(() => viewOptions(argv, io)).toThrow(message);
  });

  it("--help prints the usage", () => {
    out.length = 0;
    expect(viewOptions(["--help"], io)).toBeNull();
    expect(out.join("")).toBe(VIEW_USAGE);
    expect(VIEW_USAGE).toContain("--no-token");
  });
});

describe("viewStateDir", () => {
  const root = (kind: CatalogRoot["kind"], abs: string): CatalogRoot => ({
    arg: abs,
    kind,
    abs,
    real: abs,
  });
  it("is .rollout-studio inside the first folder, beside the first file, or --state", () => {
    expect(viewStateDir(null, [root("folder", "/runs/a"), root("file", "/x/y.jsonl")], "/w")).toBe(
      "/runs/a/.rollout-studio",
    );
    expect(viewStateDir(null, [root("file", "/x/y.jsonl")], "/w")).toBe("/x/.rollout-studio");
    expect(viewStateDir(null, [root("glob", "/runs/b")], "/w")).toBe("/runs/b/.rollout-studio");
    expect(viewStateDir("state", [root("folder", "/runs/a")], "/w")).toBe("/w/state");
  });
});

describe("compareLines", () => {
  const run = (root: number, dir: string) => ({ root, dir });
  it("names run A and run B, the first run of a PATH holding several, and a PATH with none", () => {
    expect(compareLines({ compare: false, paths: ["a", "b"] }, { runs: [] })).toEqual([]);
    const runs = [run(0, ""), run(1, "x"), run(1, "y")];
    expect(compareLines({ compare: true, paths: ["a/", "b/"] }, { runs })).toEqual([
      "  Compare: run B b/x (the first of its 2 runs) against run A a/",
    ]);
    expect(
      compareLines({ compare: true, paths: ["a.jsonl", "b/"] }, { runs: [run(0, "")] }),
    ).toEqual(["  Compare: run B b/ (no data file yet) against run A a.jsonl"]);
  });
});

describe("view's team mode flags (--db, ROLLOUT_STUDIO_DB, --dataset)", () => {
  const env = (vars: Record<string, string>): CliIo => ({ ...io, env: vars });
  const URL = "postgres://studio:pw-123@db:5432/lab";

  it("--db or ROLLOUT_STUDIO_DB turns it on: personal tokens, no session token", () => {
    const flag = viewOptions(["run/", "--db", URL, "--dataset", "run-7"], env({}))!;
    expect(flag.team).toEqual({ url: URL, dataset: "run-7" });
    expect(flag.token).toBeNull();
    const fromEnv = viewOptions(["run/"], env({ ROLLOUT_STUDIO_DB: URL }))!;
    expect(fromEnv.team).toEqual({ url: URL, dataset: null });
    // Every interface is fine: each request still needs a person's token.
    expect(viewOptions(["run/", "--db", URL, "--host", "0.0.0.0"], env({}))!.host).toBe("0.0.0.0");
    expect(viewOptions(["run/"], env({}))!.team).toBeUndefined();
  });

  it("refuses --token and --no-token with a database, --dataset without one, and a URL that is not postgres://", () => {
    const cases: [string[], RegExp][] = [
      [
        ["run/", "--db", URL, "--token", "abcdefgh12"],
        /each person opens the studio with their own token/,
      ],
      [["run/", "--db", URL, "--no-token"], /--token and --no-token do not apply/],
      [["run/", "--dataset", "x"], /--dataset goes with --db/],
      [["run/", "--db", URL, "--dataset", " "], /--dataset needs a name/],
      [
        ["run/", "--db", "mysql://root:pw-123@h/x"],
        /postgres:\/\/ URL; got mysql:\/\/root:\*\*\*@h\/x/,
      ],
    ];
    for (const [argv, message] of cases) {
      let error: unknown = null;
      try {
        viewOptions(argv, env({}));
      } catch (e) {
        error = e;
      }
      expect(error, argv.join(" ")).toBeInstanceOf(UsageError);
      expect((error as Error).message).toMatch(message);
      expect((error as Error).message).not.toContain("pw-123");
    }
    expect(VIEW_USAGE).toContain("--db URL");
  });

  it("the dataset is the first folder's or file's name unless --dataset says", () => {
    const folder: CatalogRoot = {
      arg: "runs/a/",
      kind: "folder",
      abs: "/w/runs/a",
      real: "/w/runs/a",
    };
    const file: CatalogRoot = {
      arg: "x.jsonl",
      kind: "file",
      abs: "/w/x.jsonl",
      real: "/w/x.jsonl",
    };
    expect(viewDataset([folder, file])).toBe("a");
    expect(viewDataset([file])).toBe("x.jsonl");
  });
});
