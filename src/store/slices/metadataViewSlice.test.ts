/**
 * The metadata view (the group browser's metadata columns and `field = value` filter) lives in the
 * URL: read from `?col=` and `?meta=`, written back by the action; other parameters stay.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createPlainStore } from "../createStore.ts";
import { MAX_METADATA_COLUMNS, metadataViewFromSearch, NO_METADATA_VIEW } from "../url.ts";

/** A fresh store per test: nothing persisted, nothing left over from the test before. */
let useStore = createPlainStore();
beforeEach(() => {
  useStore = createPlainStore();
});

beforeEach(() => {
  window.history.replaceState(null, "", "/?demo&filter=mixed");
});

afterEach(() => {
  useStore.setState({ metadataView: NO_METADATA_VIEW });
});

describe("metadataViewFromSearch", () => {
  it("reads the columns in order and the filter split at the first =", () => {
    expect(metadataViewFromSearch("?col=strategy&col=info.task.user_id&meta=note%3Da%3Db")).toEqual(
      {
        columns: ["strategy", "info.task.user_id"],
        filter: { path: "note", value: "a=b" },
      },
    );
  });
  it("drops empty and repeated columns, caps them, and ignores a filter without a field", () => {
    const many = Array.from({ length: MAX_METADATA_COLUMNS + 3 }, (_, i) => `col=f${i}`).join("&");
    const view = metadataViewFromSearch(`?col=&col=a&col=a&${many}&meta=%3Dx`);
    expect(view.columns[0]).toBe("a");
    expect(view.columns).toHaveLength(MAX_METADATA_COLUMNS);
    expect(view.filter).toBeNull();
    expect(metadataViewFromSearch("")).toEqual(NO_METADATA_VIEW);
  });
  it("keeps a field chosen without a value", () => {
    expect(metadataViewFromSearch("?meta=strategy%3D").filter).toEqual({
      path: "strategy",
      value: "",
    });
  });
});

describe("setMetadataView", () => {
  it("writes ?col= and ?meta= and keeps the other parameters", () => {
    useStore.getState().setMetadataView({
      columns: ["scenario", "strategy", "scenario"],
      filter: { path: "strategy", value: "verify_account_first" },
    });
    const params = new URLSearchParams(window.location.search);
    expect(params.getAll("col")).toEqual(["scenario", "strategy"]);
    expect(params.get("meta")).toBe("strategy=verify_account_first");
    expect(params.has("demo")).toBe(true);
    expect(params.get("filter")).toBe("mixed");
    expect(metadataViewFromSearch(window.location.search)).toEqual(
      useStore.getState().metadataView,
    );
    useStore.getState().setMetadataView(NO_METADATA_VIEW);
    const after = new URLSearchParams(window.location.search);
    expect([...after.keys()]).toEqual(["demo", "filter"]);
  });
});
