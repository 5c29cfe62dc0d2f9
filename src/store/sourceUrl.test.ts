import { afterEach, describe, expect, it } from "vitest";
import { createStore } from "zustand/vanilla";
import type { LoadedDataset } from "../io/dataset.ts";
import type { LoadState } from "./slices/datasetSlice.ts";
import { startSourceUrlSync } from "./sourceUrl.ts";
import { FINGERPRINT_PREFIX, searchWithSource, sourceFromSearch } from "./url.ts";

describe("the data in the URL", () => {
  it("reads the demo, a file with its fingerprint, or a run; ?demo wins", () => {
    expect(sourceFromSearch("?demo&group=g1")).toEqual({ kind: "demo" });
    expect(sourceFromSearch("?file=a%20b.jsonl&fp=00FF12&group=g")).toEqual({
      kind: "file",
      name: "a b.jsonl",
      fingerprint: "00ff12",
    });
    // A fingerprint that is not hex is dropped, the name kept.
    expect(sourceFromSearch("?file=x.jsonl&fp=<script>")).toEqual({
      kind: "file",
      name: "x.jsonl",
      fingerprint: "",
    });
    expect(sourceFromSearch("?run=runs%2F2026-12-01")).toEqual({
      kind: "run",
      path: "runs/2026-12-01",
    });
    expect(sourceFromSearch("?demo&file=x.jsonl")).toEqual({ kind: "demo" });
    expect(sourceFromSearch("?group=g")).toBeNull();
  });

  it("writes one data parameter first, replacing the others and keeping the rest", () => {
    const fp = "0123456789abcdef";
    const search = searchWithSource("?demo&group=g%2F1&sort=mean:desc", {
      kind: "file",
      name: "my run.jsonl",
      fingerprint: fp,
    });
    expect(search).toBe(
      `?file=my%20run.jsonl&fp=${fp.slice(0, FINGERPRINT_PREFIX)}&group=g%2F1&sort=mean%3Adesc`,
    );
    expect(sourceFromSearch(search)).toEqual({
      kind: "file",
      name: "my run.jsonl",
      fingerprint: fp.slice(0, FINGERPRINT_PREFIX),
    });
    expect(searchWithSource(search, { kind: "demo" })).toBe("?demo&group=g%2F1&sort=mean%3Adesc");
    expect(searchWithSource("?file=a&fp=1", { kind: "file", name: "b", fingerprint: "" })).toBe(
      "?file=b",
    );
  });
});

describe("startSourceUrlSync", () => {
  afterEach(() => window.history.replaceState(null, "", "/"));

  it("names an opened file and then its fingerprint, keeping the group", async () => {
    window.history.replaceState(null, "", "/?demo&group=g1");
    const store = createStore<{ load: LoadState }>(() => ({ load: { status: "idle" } }));
    const stop = startSourceUrlSync(store);
    const file = new File(['{"group_id":"g1","completion":"c","reward":1}\n'], "mine.jsonl");
    const dataset = {
      file: "mine.jsonl",
      format: "native",
      groupKey: "group_id",
      summaries: [],
    } as unknown as LoadedDataset;
    store.setState({ load: { status: "ready", file, dataset, groups: new Map() } });
    expect(window.location.search).toBe("?file=mine.jsonl&group=g1");
    await expect
      .poll(() => new URLSearchParams(window.location.search).get("fp"))
      .toMatch(new RegExp(`^[0-9a-f]{${FINGERPRINT_PREFIX}}$`));
    expect(new URLSearchParams(window.location.search).get("group")).toBe("g1");
    stop();
  });
});
