import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";

import HeatmapCanvas from "./HeatmapCanvas.tsx";
import type { HeatmapModel } from "./heatmap.ts";

afterEach(cleanup);

function model(n: number): HeatmapModel {
  const values = new Float64Array(n * n);
  for (let i = 0; i < n * n; i++) values[i] = ((i * 37) % 101) / 100;
  return {
    labels: Array.from({ length: n }, (_, i) => `r${i}`),
    labelColors: null,
    values,
    scheme: "diverging",
    valueName: "share of points",
    missing: "no comparison",
  };
}

function open(details: HTMLElement): void {
  (details as HTMLDetailsElement).open = true;
  fireEvent(details, new Event("toggle"));
}

describe("HeatmapCanvas", () => {
  it("builds no table cell until the table of values is opened", () => {
    render(<HeatmapCanvas model={model(512)} summary="Win rates" testId="hm" />);
    expect(screen.queryByTestId("hm.table")).toBeNull();
    expect(document.querySelectorAll("td")).toHaveLength(0);
  });

  it("builds the opened table 64 rows at a time, every value in place", () => {
    const m = model(150);
    render(<HeatmapCanvas model={m} summary="Win rates" testId="hm" />);
    open(screen.getByTestId("hm.values"));
    const table = screen.getByTestId("hm.table");
    expect(table.querySelectorAll("tbody tr")).toHaveLength(64);
    const row5 = table.querySelectorAll("tbody tr")[5]!;
    expect(row5.querySelectorAll("td")[7]!.textContent).toBe(
      (m.values[5 * 150 + 7] ?? 0).toFixed(2),
    );
    fireEvent.click(screen.getByTestId("hm.table-more"));
    expect(table.querySelectorAll("tbody tr")).toHaveLength(128);
    expect(screen.getByTestId("hm.table-more").textContent).toBe(
      "Show 22 more rows (128 of 150 shown)",
    );
    fireEvent.click(screen.getByTestId("hm.table-more"));
    expect(table.querySelectorAll("tbody tr")).toHaveLength(150);
    expect(screen.queryByTestId("hm.table-more")).toBeNull();
  });

  it("shows a small table whole once opened", () => {
    render(<HeatmapCanvas model={model(3)} summary="Win rates" testId="hm" />);
    open(screen.getByTestId("hm.values"));
    expect(screen.getByTestId("hm.table").querySelectorAll("td")).toHaveLength(9);
    expect(screen.queryByTestId("hm.table-more")).toBeNull();
  });
});
