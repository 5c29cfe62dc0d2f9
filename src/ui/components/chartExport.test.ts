import { afterEach, describe, expect, it } from "vitest";
import { chartFileName, escapeXml, exportHeader, svgExport, wrapSvg } from "./chartExport.ts";
import {
  HEATMAP_MAX_GRID,
  heatmapCellAt,
  heatmapRgb,
  heatmapShowsLabels,
  heatmapColor,
  heatmapLayout,
  heatmapSvg,
  type HeatmapModel,
} from "./heatmap.ts";

afterEach(() => {
  document.body.innerHTML = "";
  document.head.innerHTML = "";
});

function parse(text: string): Document {
  const doc = new DOMParser().parseFromString(text, "image/svg+xml");
  expect(doc.querySelector("parsererror")).toBeNull();
  return doc;
}

describe("escapeXml and chartFileName", () => {
  it("escapes markup in data", () => {
    expect(escapeXml(`<img onerror="x">&'`)).toBe("&lt;img onerror=&quot;x&quot;&gt;&amp;&apos;");
  });

  it("names files <chart>-<subject>.<ext> with unsafe characters replaced", () => {
    expect(chartFileName("win-rate", "g12", "png")).toBe("win-rate-g12.png");
    expect(chartFileName("rewards", "task 7/../x", "svg")).toBe("rewards-task_7_.._x.svg");
    expect(chartFileName("rewards", "", "svg")).toBe("rewards-chart.svg");
  });
});

describe("svgExport", () => {
  function chart(): SVGSVGElement {
    document.head.innerHTML = `<style>.bar { fill: rgb(1, 2, 3); }</style>`;
    document.body.innerHTML = `<div class="recharts-wrapper"><svg class="recharts-surface" width="300" height="120" viewBox="0 0 300 120" style="width:100%"><rect class="bar" x="1" y="2" width="10" height="20"/><text x="5" y="100">r&lt;0&gt;</text></svg></div>`;
    return document.querySelector("svg")!;
  }

  it("makes a standalone document: xmlns, size, background, title, legend", () => {
    const out = svgExport(chart(), {
      title: "Rewards <per rollout>",
      legend: [{ label: "resolved", color: "#0072b2" }],
    });
    expect(out.width).toBe(300);
    expect(out.height).toBeGreaterThan(120);
    expect(out.text).toContain("<svg");
    const doc = parse(out.text);
    const root = doc.documentElement;
    expect(root.namespaceURI).toBe("http://www.w3.org/2000/svg");
    expect(root.getAttribute("height")).toBe(String(out.height));
    expect(root.querySelector("rect")!.getAttribute("fill")).toBe("#ffffff");
    const texts = [...root.querySelectorAll("text")].map((t) => t.textContent);
    expect(texts).toContain("Rewards <per rollout>");
    expect(texts).toContain("resolved");
    expect(texts).toContain("r<0>");
  });

  it("inlines computed styles onto a copy and leaves the page alone", () => {
    const svg = chart();
    const out = svgExport(svg, { title: "t" });
    const bar = parse(out.text).querySelector("svg svg rect")!;
    expect(bar.getAttribute("fill")).toBe("rgb(1, 2, 3)");
    expect(bar.hasAttribute("class")).toBe(false);
    expect(svg.querySelector("rect")!.getAttribute("class")).toBe("bar");
    expect(svg.querySelector("rect")!.hasAttribute("fill")).toBe(false);
  });

  it("uses the style source it is given", () => {
    const out = svgExport(chart(), {
      title: "t",
      getStyle: () => {
        const style = document.createElement("span").style;
        style.setProperty("stroke", "red");
        return style;
      },
    });
    expect(parse(out.text).querySelector("svg svg rect")!.getAttribute("stroke")).toBe("red");
  });
});

describe("wrapSvg and exportHeader", () => {
  it("puts the body below the header", () => {
    const header = exportHeader("T", []);
    const out = wrapSvg("<g/>", header, 50, 40, "#000000");
    expect(out.height).toBe(40 + header.height);
    expect(parse(out.text).documentElement.getAttribute("viewBox")).toBe(`0 0 50 ${out.height}`);
  });
});

describe("heatmap", () => {
  const model: HeatmapModel = {
    labels: ["<b>a</b>", "b", "c"],
    labelColors: ["#0072b2", null, null],
    values: [NaN, 1, 0.5, 0, NaN, 0, 0.5, 1, NaN],
    scheme: "diverging",
    valueName: "share of points",
    missing: "no comparison",
  };

  it("exports one rect per cell, labels as text, and a title", () => {
    const out = heatmapSvg(model, "Win rate");
    const doc = parse(out.text);
    const cells = [...doc.querySelectorAll("rect")].filter((r) => r.querySelector("title"));
    expect(cells).toHaveLength(9);
    expect(cells[1]!.getAttribute("fill")).toBe(heatmapColor("diverging", 1));
    expect(cells[0]!.getAttribute("fill")).toBe(heatmapColor("diverging", NaN));
    expect(cells[0]!.querySelector("title")!.textContent).toBe(
      "<b>a</b> vs <b>a</b>: no comparison",
    );
    const texts = [...doc.querySelectorAll("text")].map((t) => t.textContent);
    expect(texts).toContain("Win rate");
    expect(texts).toContain("<b>a</b>");
    expect(doc.querySelector("b")).toBeNull();
  });

  it("colours 0, 0.5 and 1 apart and NaN as a gap", () => {
    const colors = [0, 0.5, 1, NaN].map((v) => heatmapColor("diverging", v));
    expect(new Set(colors).size).toBe(4);
    expect(heatmapColor("sequential", 0)).not.toBe(heatmapColor("sequential", 1));
  });

  it("keeps a 512-rollout grid within one screen, without labels, and a small one labelled", () => {
    const labels = (n: number) => Array.from({ length: n }, (_, i) => `rollout-${i}`);
    const big = heatmapLayout(labels(512));
    expect(big.n * big.cell).toBeLessThanOrEqual(HEATMAP_MAX_GRID);
    expect(big.cell).toBeGreaterThanOrEqual(1);
    expect(heatmapShowsLabels(big.cell)).toBe(false);
    expect(heatmapCellAt(big, big.label + 511 * big.cell, big.label)).toEqual({ row: 0, col: 511 });
    const small = heatmapLayout(labels(8));
    expect(heatmapShowsLabels(small.cell)).toBe(true);
    expect(small.cell).toBeGreaterThanOrEqual(12);
    for (let n = 1; n <= 600; n += 7) {
      const l = heatmapLayout(labels(n));
      expect(l.n * l.cell).toBeLessThanOrEqual(Math.max(HEATMAP_MAX_GRID, 420));
    }
  });

  it("gives the canvas's byte colours and the SVG's colour strings the same colour", () => {
    const hex = (c: number[]) => `#${c.map((x) => x.toString(16).padStart(2, "0")).join("")}`;
    for (const scheme of ["diverging", "sequential"] as const) {
      for (const v of [0, 0.1, 0.25, 0.5, 0.51, 0.9, 1, -3, 7]) {
        const [r, g, b] = heatmapRgb(scheme, v);
        expect(heatmapColor(scheme, v)).toBe(`rgb(${r}, ${g}, ${b})`);
      }
      expect(hex(heatmapRgb(scheme, NaN))).toBe(heatmapColor(scheme, NaN));
    }
    expect(heatmapRgb("diverging", -3)).toEqual(heatmapRgb("diverging", 0));
    expect(heatmapRgb("diverging", 7)).toEqual(heatmapRgb("diverging", 1));
  });

  it("finds the cell under a point", () => {
    const layout = heatmapLayout(model.labels);
    const at = (i: number) => layout.label + i * layout.cell + 1;
    expect(heatmapCellAt(layout, at(2), at(1))).toEqual({ row: 1, col: 2 });
    expect(heatmapCellAt(layout, 0, 0)).toBeNull();
    expect(heatmapCellAt(layout, at(3), at(0))).toBeNull();
  });
});
