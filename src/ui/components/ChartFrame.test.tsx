import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";

import ChartFrame from "./ChartFrame.tsx";

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

function captureDownloads(): { blobs: Blob[]; names: string[] } {
  const blobs: Blob[] = [];
  const names: string[] = [];
  URL.createObjectURL = (blob: Blob | MediaSource) => {
    if (blob instanceof Blob) blobs.push(blob);
    return "blob:test";
  };
  URL.revokeObjectURL = () => undefined;
  vi.spyOn(HTMLAnchorElement.prototype, "click").mockImplementation(function (
    this: HTMLAnchorElement,
  ) {
    names.push(this.download);
  });
  return { blobs, names };
}

describe("ChartFrame", () => {
  it("names the chart, says how it was computed, and saves its recharts svg as SVG", async () => {
    const downloads = captureDownloads();
    render(
      <ChartFrame name="rewards" title="Rewards" how="R: the logged reward" subject="g/1">
        <div className="recharts-wrapper">
          <svg width="200" height="100">
            <text x="1" y="10">
              {"<img onerror=alert(1)>"}
            </text>
          </svg>
        </div>
      </ChartFrame>,
    );
    const frame = screen.getByTestId("chart");
    expect(frame.getAttribute("data-chart")).toBe("rewards");
    expect(screen.getByTestId("chart.how").textContent).toBe("R: the logged reward");
    fireEvent.click(screen.getByTestId("chart-save-svg"));
    await waitFor(() => expect(downloads.names).toEqual(["rewards-g_1.svg"]));
    const text = await downloads.blobs[0]!.text();
    expect(text).toContain("<svg");
    expect(text).toContain("&lt;img onerror=alert(1)&gt;");
    expect(screen.getByTestId("chart.status").textContent).toBe("Saved rewards-g_1.svg");
  });

  it("uses the chart's own SVG builder when it has one, and hides saving when empty", async () => {
    const downloads = captureDownloads();
    const { rerender } = render(
      <ChartFrame
        name="win-rate"
        title="W"
        how="h"
        subject="g"
        toSvg={() => ({ text: "<svg xmlns='http://www.w3.org/2000/svg'/>", width: 1, height: 1 })}
      >
        <p>canvas here</p>
      </ChartFrame>,
    );
    fireEvent.click(screen.getByTestId("chart-save-svg"));
    await waitFor(() => expect(downloads.names).toEqual(["win-rate-g.svg"]));
    expect(await downloads.blobs[0]!.text()).toBe("<svg xmlns='http://www.w3.org/2000/svg'/>");
    rerender(
      <ChartFrame name="x" title="X" how="h" subject="g" empty>
        <p>nothing</p>
      </ChartFrame>,
    );
    expect(screen.queryByTestId("chart-save-png")).toBeNull();
  });

  it("reports a chart that cannot be saved instead of failing silently", async () => {
    captureDownloads();
    render(
      <ChartFrame name="x" title="X" how="h" subject="g">
        <p>no svg</p>
      </ChartFrame>,
    );
    fireEvent.click(screen.getByTestId("chart-save-svg"));
    await waitFor(() =>
      expect(screen.getByTestId("chart.status").textContent).toBe(
        "Could not save: the chart has not been drawn yet",
      ),
    );
  });
});
