import { cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { ANALYSIS_DEFAULTS } from "../../../core/index.ts";
import type { GroupSort } from "../../../store/url.ts";
import GroupTable from "./GroupTable.tsx";
import { prepareGroupRows } from "./prepareGroupRows.ts";

afterEach(cleanup);

// jsdom has no layout: the virtualiser reads the scroller's client size, so give every element
// the size of a 540 px scroller, as Chromium would.
beforeAll(() => {
  vi.spyOn(Element.prototype, "clientHeight", "get").mockReturnValue(540);
  vi.spyOn(Element.prototype, "clientWidth", "get").mockReturnValue(1100);
});
afterAll(() => vi.restoreAllMocks());

const rows = prepareGroupRows(
  Array.from({ length: 5000 }, (_, i) => ({
    id: `g${i}`,
    rewards: [i % 2, 1],
    prompt: `prompt ${i}`,
    partial: false,
    step: null,
  })),
  new Map(),
  ANALYSIS_DEFAULTS,
);

function setup(sort: GroupSort | null = null, selectedId: string | null = "g1") {
  const onSortChange = vi.fn<(s: GroupSort | null) => void>();
  const onSelect = vi.fn<(id: string) => void>();
  const onOpen = vi.fn<(id: string) => void>();
  render(
    <GroupTable
      rows={rows}
      sort={sort}
      selectedId={selectedId}
      onSortChange={onSortChange}
      onSelect={onSelect}
      onOpen={onOpen}
    />,
  );
  return { onSortChange, onSelect, onOpen, grid: screen.getByTestId("groups.table") };
}

describe("GroupTable", () => {
  it("renders only the rows in view, with their position among all rows", () => {
    const { grid } = setup();
    const shown = screen.getAllByTestId("group-row");
    expect(shown.length).toBeGreaterThan(10);
    expect(shown.length).toBeLessThan(60);
    expect(grid.getAttribute("aria-rowcount")).toBe("5001");
    expect(shown[0]?.getAttribute("aria-rowindex")).toBe("2");
    expect(shown[1]?.getAttribute("data-group-id")).toBe("g1");
    expect(shown[1]?.getAttribute("aria-selected")).toBe("true");
    expect(grid.getAttribute("aria-activedescendant")).toBe(shown[1]?.id);
    expect(within(shown[0]!).getByTestId("groups.row.id").textContent).toBe("g0");
  });

  it("clears the sort after ascending on a descending-first column", () => {
    const { onSortChange } = setup({ key: "mean", desc: false });
    fireEvent.click(screen.getByTestId("groups.sort.mean"));
    expect(onSortChange).toHaveBeenLastCalledWith(null);
    fireEvent.click(screen.getByTestId("groups.sort.passes"));
    expect(onSortChange).toHaveBeenLastCalledWith({ key: "passes", desc: true });
  });

  it("sorts from the header buttons and shows aria-sort", () => {
    const { onSortChange } = setup({ key: "mean", desc: true });
    const mean = screen.getByTestId("groups.sort.mean");
    expect(mean.closest("th")?.getAttribute("aria-sort")).toBe("descending");
    expect(screen.getByTestId("groups.sort.id").closest("th")?.getAttribute("aria-sort")).toBe(
      "none",
    );
    fireEvent.click(screen.getByTestId("groups.sort.id"));
    expect(onSortChange).toHaveBeenLastCalledWith({ key: "id", desc: false });
    // Numbers sort descending first: from descending, the next click is ascending.
    fireEvent.click(mean);
    expect(onSortChange).toHaveBeenLastCalledWith({ key: "mean", desc: false });
  });

  it("moves the selection with the keyboard and opens with Enter", () => {
    const { onSelect, onOpen, grid } = setup();
    fireEvent.keyDown(grid, { key: "ArrowDown" });
    expect(onSelect).toHaveBeenLastCalledWith("g2");
    fireEvent.keyDown(grid, { key: "k" });
    expect(onSelect).toHaveBeenLastCalledWith("g0");
    fireEvent.keyDown(grid, { key: "End" });
    expect(onSelect).toHaveBeenLastCalledWith("g4999");
    fireEvent.keyDown(grid, { key: "ArrowDown", ctrlKey: true });
    expect(onSelect).toHaveBeenCalledTimes(3);
    fireEvent.keyDown(grid, { key: "Enter" });
    expect(onOpen).toHaveBeenLastCalledWith("g1");
  });

  it("selects a row on click", () => {
    const { onSelect } = setup();
    fireEvent.click(screen.getAllByTestId("group-row")[3]!.querySelector("td:nth-child(2)")!);
    expect(onSelect).toHaveBeenLastCalledWith("g3");
  });
});
