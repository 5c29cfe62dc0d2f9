import { describe, expect, it } from "vitest";
import { ANALYSIS_FLAGS, commandArgs, GAR_FLAGS, MAPPING_FLAGS } from "./args.ts";
import type { CliIo } from "./io.ts";
import { UsageError } from "./settings.ts";

function io(): CliIo & { out: string[] } {
  const out: string[] = [];
  return { out, stdout: (t) => out.push(t), stderr: () => undefined, cwd: "/" };
}

const FLAGS = { json: { type: "boolean" }, ...MAPPING_FLAGS, ...GAR_FLAGS } as const;

describe("commandArgs", () => {
  it("reads the shared flag groups and the PATHs", () => {
    const args = commandArgs(
      "x",
      ["f.jsonl", "--weight", "a=2", "--weight", "b=0", "--group-key", "task", "--json"],
      FLAGS,
      "usage",
      io(),
    );
    expect(args).toEqual({
      file: "f.jsonl",
      paths: ["f.jsonl"],
      values: { weight: ["a=2", "b=0"], "group-key": "task", json: true },
    });
  });

  it("prints the usage for --help and -h and returns null", () => {
    for (const flag of ["--help", "-h"]) {
      const sink = io();
      expect(commandArgs("x", [flag], FLAGS, "Usage: x FILE\n", sink)).toBeNull();
      expect(sink.out).toEqual(["Usage: x FILE\n"]);
    }
  });

  it("refuses an unknown flag, a flag of another group, and no PATH", () => {
    expect(() => commandArgs("x", ["f", "--nope"], FLAGS, "", io())).toThrow(UsageError);
    // ANALYSIS_FLAGS are not among this command's flags.
    expect(() => commandArgs("x", ["f", "--scale", "none"], FLAGS, "", io())).toThrow(/scale/);
    expect(() =>
      commandArgs("x", ["f", "--scale", "none"], { ...FLAGS, ...ANALYSIS_FLAGS }, "", io()),
    ).not.toThrow();
    expect(() => commandArgs("x", [], FLAGS, "", io())).toThrow(
      "x takes a FILE, several files, a folder or a glob; got none",
    );
    expect(commandArgs("x", ["a", "b"], FLAGS, "", io())).toMatchObject({
      file: "a b",
      paths: ["a", "b"],
    });
  });
});
