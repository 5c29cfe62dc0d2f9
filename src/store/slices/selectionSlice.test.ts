/**
 * The selection slice mirrors the view in the URL through its actions: the open group, the
 * browser's filters and its sort, so a link opens the same view. Other parameters stay.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createPlainStore } from "../createStore.ts";
import { filtersFromSearch, NO_FILTERS, sortFromSearch } from "../url.ts";

/** A fresh store per test: nothing persisted, nothing left over from the test before. */
let useStore = createPlainStore();
beforeEach(() => {
  useStore = createPlainStore();
});

const search = () => window.location.search;

beforeEach(() => {
  window.history.replaceState(null, "", "/?demo&index-threshold=0");
});

afterEach(() => {
  useStore.setState({ selectedGroupId: null, filters: NO_FILTERS, groupSort: null });
});

describe("URL parsing", () => {
  it("reads every filter, the query, and ignores unknown names", () => {
    expect(
      filtersFromSearch("?filter=mixed,zero-std,hacks,unreviewed,tool-errors,bogus&q=Refund%20x"),
    ).toEqual({
      mixedOnly: true,
      zeroStdOnly: true,
      hacksOnly: true,
      unreviewedOnly: true,
      toolErrorsOnly: true,
      query: "Refund x",
      steps: null,
    });
    expect(filtersFromSearch("?filter=hacks")).toEqual({ ...NO_FILTERS, hacksOnly: true });
    expect(filtersFromSearch("")).toEqual(NO_FILTERS);
  });

  it("reads a sort of a known column; anything else is file order", () => {
    expect(sortFromSearch("?sort=mean:desc")).toEqual({ key: "mean", desc: true });
    expect(sortFromSearch("?sort=id:asc")).toEqual({ key: "id", desc: false });
    expect(sortFromSearch("?sort=id")).toEqual({ key: "id", desc: false });
    expect(sortFromSearch("?sort=toolErrors:desc")).toEqual({ key: "toolErrors", desc: true });
    expect(sortFromSearch("?sort=clusters:asc")).toBeNull();
    expect(sortFromSearch("?sort=mean:sideways")).toBeNull();
    expect(sortFromSearch("?sort=__proto__:asc")).toBeNull();
    expect(sortFromSearch("")).toBeNull();
  });
});

describe("selection slice", () => {
  it("writes the filters to the URL and reads them back", () => {
    const filters = { ...NO_FILTERS, mixedOnly: true, unreviewedOnly: true, query: "a&b" };
    useStore.getState().setFilters(filters);
    expect(useStore.getState().filters).toEqual(filters);
    expect(new URLSearchParams(search()).get("filter")).toBe("mixed,unreviewed");
    expect(filtersFromSearch(search())).toEqual(filters);
    useStore.getState().setFilters(NO_FILTERS);
    expect(search()).toBe("?demo=&index-threshold=0");
  });

  it("writes the step filter as ?step=N or ?steps=A-B and reads it back (issue 14)", () => {
    useStore.getState().setFilters({ ...NO_FILTERS, steps: { from: 40, to: 40 } });
    expect(new URLSearchParams(search()).get("step")).toBe("40");
    expect(filtersFromSearch(search()).steps).toEqual({ from: 40, to: 40 });
    useStore.getState().setFilters({ ...NO_FILTERS, steps: { from: 10, to: 40 } });
    expect(new URLSearchParams(search()).get("steps")).toBe("10-40");
    expect(new URLSearchParams(search()).has("step")).toBe(false);
    expect(filtersFromSearch(search()).steps).toEqual({ from: 10, to: 40 });
    expect(filtersFromSearch("?steps=40-10").steps).toEqual({ from: 10, to: 40 });
    expect(filtersFromSearch("?step=abc").steps).toBeNull();
    useStore.getState().setFilters(NO_FILTERS);
    expect(search()).toBe("?demo=&index-threshold=0");
  });

  it("writes the sort and the group, keeping the other parameters", () => {
    useStore.getState().setGroupSort({ key: "std", desc: true });
    useStore.getState().selectGroup("g/7 ü");
    const params = new URLSearchParams(search());
    expect(params.get("sort")).toBe("std:desc");
    expect(params.get("group")).toBe("g/7 ü");
    expect(params.has("demo")).toBe(true);
    expect(params.get("index-threshold")).toBe("0");
    expect(sortFromSearch(search())).toEqual(useStore.getState().groupSort);
    useStore.getState().setGroupSort(null);
    useStore.getState().selectGroup(null);
    expect(new URLSearchParams(search()).has("sort")).toBe(false);
    expect(new URLSearchParams(search()).has("group")).toBe(false);
    expect(useStore.getState().selectedGroupId).toBeNull();
  });
});
