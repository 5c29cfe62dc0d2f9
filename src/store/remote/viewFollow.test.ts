import { describe, expect, it } from "vitest";
import type { FilesEvent, ViewRuns } from "../../io/view/viewApi.ts";
import { remoteLoadJob } from "./remoteJob.ts";
import { chooseViewRun, fileChangeNotice } from "./viewFollow.ts";
import { viewSessionFromUrl } from "./viewSession.ts";

const file = (id: string, path: string, step: number) => ({
  id,
  path,
  size: 10 * step,
  mtimeMs: 1,
  step,
  stepSource: "verl-name" as const,
});

const listing: ViewRuns = {
  version: "0.1.0",
  format: null,
  stateDir: "/r/.rollout-studio",
  annotations: { path: "/r/.rollout-studio/annotations.json", version: "none" },
  roots: [{ path: "runs/", kind: "folder" }],
  runs: [
    { root: 0, dir: "a", kind: "verl-steps", files: [file("0123456789abcdef", "a/1.jsonl", 1)] },
    {
      root: 0,
      dir: "b",
      kind: "verl-steps",
      files: [file("1123456789abcdef", "b/1.jsonl", 1), file("2123456789abcdef", "b/2.jsonl", 2)],
    },
  ],
};

describe("viewSessionFromUrl", () => {
  it("takes the token from ?token= and the origin; none without a usable token", () => {
    expect(viewSessionFromUrl("http://127.0.0.1:7575/?token=abcDEF_123-xyz&run=a")).toEqual({
      origin: "http://127.0.0.1:7575",
      token: "abcDEF_123-xyz",
    });
    expect(viewSessionFromUrl("http://127.0.0.1:7575/")).toBeNull();
    expect(viewSessionFromUrl("http://127.0.0.1:7575/?token=short")).toBeNull();
    expect(viewSessionFromUrl("http://127.0.0.1:7575/?token=has%20space%20inside")).toBeNull();
  });
});

describe("chooseViewRun", () => {
  it("picks the run ?run= names, by its shown name or its folder, else the first", () => {
    expect(chooseViewRun(listing, "runs/b")).toBe(1);
    expect(chooseViewRun(listing, "b")).toBe(1);
    expect(chooseViewRun(listing, "nope")).toBe(0);
    expect(chooseViewRun(listing, null)).toBe(0);
  });
});

describe("fileChangeNotice", () => {
  const event = (kind: FilesEvent["kind"]): FilesEvent => ({
    id: "1123456789abcdef",
    kind,
    size: 1,
    mtimeMs: 1,
    path: "b/1.jsonl",
    root: 0,
    run: "b",
    step: 1,
    stepSource: "verl-name",
  });
  it("tells the user when a file is read again or leaves, not when data is added", () => {
    expect(fileChangeNotice(event("added"))).toBeNull();
    expect(fileChangeNotice(event("grown"))).toBeNull();
    expect(fileChangeNotice(event("shrunk"))).toMatch(/b\/1\.jsonl got shorter.*read again/);
    expect(fileChangeNotice(event("rewritten"))).toMatch(/b\/1\.jsonl was rewritten/);
    expect(fileChangeNotice(event("removed"))).toMatch(/removed/);
  });
});

describe("remoteLoadJob", () => {
  it("names each file's bytes URL, its place in the run, and sends the token as a header", () => {
    const session = { origin: "http://127.0.0.1:7575", token: "abcdefgh1234" };
    const job = remoteLoadJob({ session, listing, run: 1, indexThreshold: 0 }, [
      "2123456789abcdef",
    ]);
    expect(job.name).toBe("runs/b");
    expect(job.files.map((f) => f.url)).toEqual([
      "http://127.0.0.1:7575/api/files/1123456789abcdef",
      "http://127.0.0.1:7575/api/files/2123456789abcdef",
    ]);
    expect(job.files[1]!.run).toEqual({
      path: "b/2.jsonl",
      size: 20,
      mtimeMs: 1,
      step: 2,
      stepSource: "verl-name",
    });
    expect(job.headers).toEqual({ Authorization: "Bearer abcdefgh1234" });
    expect(job.reread).toEqual(["2123456789abcdef"]);
    expect(job.indexThreshold).toBe(0);
    expect("format" in job).toBe(false);
    expect(
      remoteLoadJob({ session, listing: { ...listing, format: "verl" }, run: 0 }, []).format,
    ).toBe("verl");
  });
});
