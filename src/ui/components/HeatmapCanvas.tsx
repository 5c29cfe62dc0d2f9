/**
 * A k x k heatmap on one canvas (performance.md section 6: a 64 x 64 grid of divs costs more per
 * frame). Hovering a cell names it and its value; a table of every value is the accessible
 * fallback. The geometry and colours come from heatmap.ts, which the SVG export shares.
 */
import { useEffect, useMemo, useRef, useState } from "react";
import {
  HEATMAP_MISSING_COLOR,
  HEATMAP_GAP_MIN_CELL,
  HEATMAP_VALUE_MIN_CELL,
  heatmapCellAt,
  heatmapCellText,
  heatmapRgb,
  heatmapShowsLabels,
  heatmapKeyStops,
  heatmapLabel,
  heatmapLayout,
  heatmapTextColor,
  heatmapValueText,
  type HeatmapLayout,
  type HeatmapModel,
} from "./heatmap.ts";
import styles from "./Charts.module.css";

/**
 * Device pixels per CSS pixel of the canvas on screen: the display's own. The first paint of a
 * canvas costs per device pixel (about 30 ns each in software rendering), so a 1,000 px heatmap
 * drawn at 2x on a 1x screen would spend 4x the time for nothing; the PNG export draws its own
 * canvas at {@link HEATMAP_EXPORT_SCALE} instead.
 */
function screenScale(): number {
  return Math.max(1, Math.ceil(window.devicePixelRatio || 1));
}

/** Device pixels per CSS pixel of a saved PNG, so it is sharp on any screen. */
export const HEATMAP_EXPORT_SCALE = 2;

/** The heatmap drawn on a new canvas at `scale`, for the PNG export. */
export function heatmapExportCanvas(
  model: HeatmapModel,
  scale: number = HEATMAP_EXPORT_SCALE,
): HTMLCanvasElement {
  const canvas = document.createElement("canvas");
  draw(canvas, model, heatmapLayout(model.labels), scale);
  return canvas;
}

const TEXT = "#1c2430";
const FONT = "11px ui-monospace, 'DejaVu Sans Mono', Menlo, Consolas, monospace";

/**
 * The n x n cells as one image: a pixel per cell, coloured from the numbers (no colour string
 * per cell), which the caller scales up without smoothing. A 512 x 512 grid is one pass of
 * 262,144 pixels instead of 262,144 fillRect calls.
 */
function cellImage(model: HeatmapModel, n: number): HTMLCanvasElement | null {
  const image = document.createElement("canvas");
  image.width = n;
  image.height = n;
  const ctx = image.getContext("2d");
  if (ctx === null) return null;
  const pixels = ctx.createImageData(n, n);
  const data = pixels.data;
  const rgb = [0, 0, 0];
  for (let i = 0; i < n * n; i++) {
    heatmapRgb(model.scheme, model.values[i] ?? NaN, rgb);
    data[i * 4] = rgb[0]!;
    data[i * 4 + 1] = rgb[1]!;
    data[i * 4 + 2] = rgb[2]!;
    data[i * 4 + 3] = 255;
  }
  ctx.putImageData(pixels, 0, 0);
  return image;
}

function draw(
  canvas: HTMLCanvasElement,
  model: HeatmapModel,
  layout: HeatmapLayout,
  scale: number,
): void {
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
  if (heatmapShowsLabels(cell))
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
  const image = n > 0 ? cellImage(model, n) : null;
  if (image !== null) {
    ctx.imageSmoothingEnabled = false;
    ctx.drawImage(image, label, label, n * cell, n * cell);
    if (cell >= HEATMAP_GAP_MIN_CELL) {
      // The white gap between cells: a line of 1 px centred on every cell border.
      ctx.fillStyle = "#ffffff";
      for (let i = 0; i <= n; i++) {
        ctx.fillRect(label + i * cell - 0.5, label - 0.5, 1, n * cell + 1);
        ctx.fillRect(label - 0.5, label + i * cell - 0.5, n * cell + 1, 1);
      }
    }
  }
  if (cell >= HEATMAP_VALUE_MIN_CELL) {
    ctx.textAlign = "center";
    for (let r = 0; r < n; r++)
      for (let c = 0; c < n; c++) {
        const v = model.values[r * n + c] ?? NaN;
        if (!Number.isFinite(v)) continue;
        ctx.fillStyle = heatmapTextColor(model.scheme, v);
        ctx.fillText(v.toFixed(2), label + c * cell + cell / 2, label + r * cell + cell / 2);
      }
  }
  const keyY = label + n * cell + 10;
  const keyW = Math.min(160, Math.max(n * cell, 120));
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

/** Rows of the table of values built per "show more": 512 x 512 cells at once would block. */
const TABLE_ROWS = 64;

/**
 * The accessible fallback: every value as a table. Its cells are only built once it is opened,
 * and then in pages of rows, so a 512-rollout group does not build 262,144 cells on every render.
 */
function ValuesTable({
  model,
  summary,
  testId,
}: {
  model: HeatmapModel;
  summary: string;
  testId: string;
}) {
  const [open, setOpen] = useState(false);
  const [rows, setRows] = useState(TABLE_ROWS);
  const n = model.labels.length;
  const shown = Math.min(n, rows);
  return (
    <details
      className={styles.fallback}
      onToggle={(e) => setOpen(e.currentTarget.open)}
      data-testid={`${testId}.values`}
    >
      <summary>Table of values</summary>
      {open ? (
        <>
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
              {model.labels.slice(0, shown).map((l, i) => (
                <tr key={i}>
                  <th scope="row">{l}</th>
                  {model.labels.map((_, j) => (
                    <td key={j}>{heatmapValueText(model, model.values[i * n + j] ?? NaN)}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
          {shown < n ? (
            <button
              type="button"
              onClick={() => setRows((r) => r + TABLE_ROWS)}
              data-testid={`${testId}.table-more`}
            >
              Show {Math.min(TABLE_ROWS, n - shown)} more rows ({shown} of {n} shown)
            </button>
          ) : null}
        </>
      ) : null}
    </details>
  );
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
    draw(canvas, model, layout, screenScale());
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
        // Narrower frames shrink it whole (never squeeze one axis); hovering scales back.
        style={{
          width: layout.width,
          maxWidth: "100%",
          height: "auto",
          aspectRatio: `${layout.width} / ${layout.height}`,
        }}
        onMouseMove={(e) => {
          const box = e.currentTarget.getBoundingClientRect();
          const k = box.width > 0 ? layout.width / box.width : 1;
          setHover(heatmapCellAt(layout, (e.clientX - box.left) * k, (e.clientY - box.top) * k));
        }}
        onMouseLeave={() => setHover(null)}
      />
      <p className={styles.hover} role="status" data-testid={`${testId}.hover`}>
        {hovered === null
          ? "Hover a cell for its value."
          : heatmapCellText(model, hovered.row, hovered.col)}
      </p>
      <ValuesTable model={model} summary={summary} testId={testId} />
    </div>
  );
}
