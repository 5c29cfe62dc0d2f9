/**
 * A k x k heatmap on one canvas (performance.md section 6: a 64 x 64 grid of divs costs more per
 * frame). Hovering a cell names it and its value; a table of every value is the accessible
 * fallback. The geometry and colours come from heatmap.ts, which the SVG export shares.
 */
import { useEffect, useMemo, useRef, useState } from "react";
import {
  HEATMAP_MISSING_COLOR,
  HEATMAP_VALUE_MIN_CELL,
  heatmapCellAt,
  heatmapCellText,
  heatmapColor,
  heatmapKeyStops,
  heatmapLabel,
  heatmapLayout,
  heatmapTextColor,
  heatmapValueText,
  type HeatmapLayout,
  type HeatmapModel,
} from "./heatmap.ts";
import styles from "./Charts.module.css";

/** Device pixels per CSS pixel of the canvas: at least 2, so the PNG export is sharp. */
export function heatmapScale(): number {
  return Math.max(2, Math.ceil(window.devicePixelRatio || 1));
}

const TEXT = "#1c2430";
const FONT = "11px ui-monospace, 'DejaVu Sans Mono', Menlo, Consolas, monospace";

function draw(canvas: HTMLCanvasElement, model: HeatmapModel, layout: HeatmapLayout): void {
  const scale = heatmapScale();
  canvas.width = layout.width * scale;
  canvas.height = layout.height * scale;
  const ctx = canvas.getContext("2d");
  if (ctx === null) return;
  ctx.setTransform(scale, 0, 0, scale, 0, 0);
  ctx.fillStyle = "#ffffff";
  ctx.fillRect(0, 0, layout.width, layout.height);
  const { n, cell, label } = layout;
  ctx.font = FONT;
  ctx.textBaseline = "middle";
  model.labels.forEach((name, i) => {
    const mid = label + i * cell + cell / 2;
    ctx.fillStyle = model.labelColors?.[i] ?? TEXT;
    ctx.textAlign = "right";
    ctx.fillText(heatmapLabel(name), label - 4, mid);
    ctx.save();
    ctx.translate(mid, label - 4);
    ctx.rotate(-Math.PI / 2);
    ctx.textAlign = "left";
    ctx.fillText(heatmapLabel(name), 0, 0);
    ctx.restore();
  });
  ctx.textAlign = "center";
  for (let r = 0; r < n; r++)
    for (let c = 0; c < n; c++) {
      const v = model.values[r * n + c] ?? NaN;
      const x = label + c * cell;
      const y = label + r * cell;
      ctx.fillStyle = heatmapColor(model.scheme, v);
      ctx.fillRect(x + 0.5, y + 0.5, cell - 1, cell - 1);
      if (cell >= HEATMAP_VALUE_MIN_CELL && Number.isFinite(v)) {
        ctx.fillStyle = heatmapTextColor(model.scheme, v);
        ctx.fillText(v.toFixed(2), x + cell / 2, y + cell / 2);
      }
    }
  const keyY = label + n * cell + 10;
  const keyW = Math.min(160, n * cell);
  const gradient = ctx.createLinearGradient(label, 0, label + keyW, 0);
  for (const s of heatmapKeyStops(model.scheme)) gradient.addColorStop(s.offset, s.color);
  ctx.fillStyle = gradient;
  ctx.fillRect(label, keyY, keyW, 10);
  ctx.fillStyle = TEXT;
  ctx.textAlign = "left";
  ctx.fillText("0", label, keyY + 18);
  ctx.textAlign = "right";
  ctx.fillText("1", label + keyW, keyY + 18);
  ctx.fillStyle = HEATMAP_MISSING_COLOR;
  ctx.fillRect(label + keyW + 12, keyY, 10, 10);
  ctx.fillStyle = TEXT;
  ctx.textAlign = "left";
  ctx.fillText(model.missing, label + keyW + 26, keyY + 5);
}

export default function HeatmapCanvas({
  model,
  summary,
  testId = "heatmap",
}: {
  model: HeatmapModel;
  /** One sentence for screen readers: what the grid shows and how it was computed. */
  summary: string;
  testId?: string;
}) {
  const ref = useRef<HTMLCanvasElement>(null);
  const layout = useMemo(() => heatmapLayout(model.labels), [model.labels]);
  const [hover, setHover] = useState<{ row: number; col: number } | null>(null);
  // The canvas is outside React: paint it after every commit that changes the model.
  useEffect(() => {
    const canvas = ref.current;
    if (canvas === null) return;
    draw(canvas, model, layout);
    canvas.dataset.drawn = "true";
  }, [model, layout]);
  const n = model.labels.length;
  const hovered = hover !== null && hover.row < n && hover.col < n ? hover : null;
  return (
    <div className={styles.heatmap}>
      <canvas
        ref={ref}
        role="img"
        aria-label={summary}
        data-testid={`${testId}.canvas`}
        style={{ width: layout.width, height: layout.height }}
        onMouseMove={(e) => {
          const box = e.currentTarget.getBoundingClientRect();
          setHover(heatmapCellAt(layout, e.clientX - box.left, e.clientY - box.top));
        }}
        onMouseLeave={() => setHover(null)}
      />
      <p className={styles.hover} role="status" data-testid={`${testId}.hover`}>
        {hovered === null
          ? "Hover a cell for its value."
          : heatmapCellText(model, hovered.row, hovered.col)}
      </p>
      <details className={styles.fallback}>
        <summary>Table of values</summary>
        <table data-testid={`${testId}.table`}>
          <caption>{summary}</caption>
          <thead>
            <tr>
              <th scope="col">row \ column</th>
              {model.labels.map((l, j) => (
                <th key={j} scope="col">
                  {l}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {model.labels.map((l, i) => (
              <tr key={i}>
                <th scope="row">{l}</th>
                {model.labels.map((_, j) => (
                  <td key={j}>{heatmapValueText(model, model.values[i * n + j] ?? NaN)}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </div>
  );
}
