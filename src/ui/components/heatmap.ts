/**
 * The k x k heatmap's geometry, colours and SVG form, shared by the canvas drawing
 * (HeatmapCanvas.tsx) and the SVG export so both show the same picture. Pure: no DOM.
 */
import { escapeXml, exportHeader, wrapSvg, type SvgExport } from "./chartExport.ts";

/** Diverging around 0.5 for win rates; sequential from 0 for similarities. */
export type HeatmapScheme = "diverging" | "sequential";

export interface HeatmapModel {
  /** Row and column labels (rollout ids), in display order. */
  readonly labels: readonly string[];
  /** Colour per label (cluster colours), or null for the text colour. */
  readonly labelColors: readonly (string | null)[] | null;
  /** n x n values in [0, 1], row-major; NaN is a gap ("never compared"), never a zero. */
  readonly values: ArrayLike<number>;
  readonly scheme: HeatmapScheme;
  /** What a row's value against a column means, e.g. "share of points of the row against the column". */
  readonly valueName: string;
  /** What a NaN cell means, e.g. "never compared". */
  readonly missing: string;
}

export interface HeatmapLayout {
  readonly n: number;
  readonly cell: number;
  /** Width of the row labels at the left and height of the column labels at the top. */
  readonly label: number;
  /** The colour key's band below the grid. */
  readonly key: number;
  readonly width: number;
  readonly height: number;
}

export const HEATMAP_LABEL_CHARS = 14;
export const HEATMAP_MISSING_COLOR = "#d9dce1";
const TEXT_COLOR = "#1c2430";
const FONT = "ui-monospace, 'DejaVu Sans Mono', Menlo, Consolas, monospace";

/** A label cut to {@link HEATMAP_LABEL_CHARS} characters, with an ellipsis when cut. */
export function heatmapLabel(label: string): string {
  return label.length > HEATMAP_LABEL_CHARS ? `${label.slice(0, HEATMAP_LABEL_CHARS - 1)}…` : label;
}

/** The grid's side at most this many CSS pixels: a 512-rollout group stays one screen, not 6,000 px. */
export const HEATMAP_MAX_GRID = 768;
/** Labels are written beside rows and columns only when a cell is at least this tall. */
export const HEATMAP_LABEL_MIN_CELL = 11;

/**
 * Cells of 12 to 40 px so the grid fits about 420 px; past 64 rollouts the cells shrink (down to
 * 1 px) so the grid stays within {@link HEATMAP_MAX_GRID}, and the labels give way to the hover
 * text and the table. Labels are sized to the longest shown label.
 */
export function heatmapLayout(labels: readonly string[]): HeatmapLayout {
  const n = labels.length;
  const cell =
    n * 12 <= HEATMAP_MAX_GRID
      ? Math.max(12, Math.min(40, Math.floor(420 / Math.max(1, n))))
      : Math.max(1, Math.floor(HEATMAP_MAX_GRID / n));
  const longest = labels.reduce((m, l) => Math.max(m, heatmapLabel(l).length), 1);
  const label = heatmapShowsLabels(cell) ? Math.min(110, 12 + longest * 7) : 8;
  const key = 34;
  // At least 280 px beyond the labels, so the colour key and its gap swatch fit under small grids.
  const width = label + Math.max(n * cell + 8, 280);
  return { n, cell, label, key, width, height: label + n * cell + key };
}

/** Whether cells of this size leave room for a label per row and column. */
export function heatmapShowsLabels(cell: number): boolean {
  return cell >= HEATMAP_LABEL_MIN_CELL;
}

/** Cells at least this wide are drawn with a 1 px white gap around them. */
export const HEATMAP_GAP_MIN_CELL = 4;

function mixRgb(a: readonly number[], b: readonly number[], t: number, out: number[]): number[] {
  for (let i = 0; i < 3; i++) out[i] = Math.round(a[i]! + (b[i]! - a[i]!) * t);
  return out;
}

const LOW = [213, 94, 0];
const MID = [247, 247, 247];
const HIGH = [0, 114, 178];
const SEQ_LOW = [247, 251, 255];
const SEQ_HIGH = [8, 48, 107];
const MISSING_RGB = [0xd9, 0xdc, 0xe1];

/**
 * The colour of a value in [0, 1] (clamped) as red, green and blue bytes, written into `out`
 * (so a canvas can fill a 512 x 512 grid without a string per cell); NaN gets the gap colour.
 */
export function heatmapRgb(
  scheme: HeatmapScheme,
  value: number,
  out: number[] = [0, 0, 0],
): number[] {
  if (!Number.isFinite(value)) {
    out[0] = MISSING_RGB[0]!;
    out[1] = MISSING_RGB[1]!;
    out[2] = MISSING_RGB[2]!;
    return out;
  }
  const v = Math.max(0, Math.min(1, value));
  if (scheme === "sequential") return mixRgb(SEQ_LOW, SEQ_HIGH, v, out);
  return v < 0.5 ? mixRgb(LOW, MID, v / 0.5, out) : mixRgb(MID, HIGH, (v - 0.5) / 0.5, out);
}

/** The colour of a value in [0, 1] (clamped); NaN gets the gap colour. */
export function heatmapColor(scheme: HeatmapScheme, value: number): string {
  if (!Number.isFinite(value)) return HEATMAP_MISSING_COLOR;
  const c = heatmapRgb(scheme, value);
  return `rgb(${c[0]}, ${c[1]}, ${c[2]})`;
}

/** Dark text on light cells, light text on dark ones. */
export function heatmapTextColor(scheme: HeatmapScheme, value: number): string {
  if (!Number.isFinite(value)) return TEXT_COLOR;
  const dark = scheme === "sequential" ? value > 0.55 : Math.abs(value - 0.5) > 0.32;
  return dark ? "#ffffff" : TEXT_COLOR;
}

/** Values are written in the cells when cells are at least this wide. */
export const HEATMAP_VALUE_MIN_CELL = 28;

/** A value with two decimals, or the gap's meaning. */
export function heatmapValueText(model: HeatmapModel, value: number): string {
  return Number.isFinite(value) ? value.toFixed(2) : model.missing;
}

/** The row and column under a point in layout pixels, or null outside the grid. */
export function heatmapCellAt(
  layout: HeatmapLayout,
  x: number,
  y: number,
): { row: number; col: number } | null {
  const col = Math.floor((x - layout.label) / layout.cell);
  const row = Math.floor((y - layout.label) / layout.cell);
  if (x < layout.label || y < layout.label) return null;
  if (row < 0 || col < 0 || row >= layout.n || col >= layout.n) return null;
  return { row, col };
}

/** One sentence for a cell: "r0 vs r3: 0.75 (share of points …)". */
export function heatmapCellText(model: HeatmapModel, row: number, col: number): string {
  const n = model.labels.length;
  const value = model.values[row * n + col] ?? NaN;
  const what = Number.isFinite(value) ? ` (${model.valueName})` : "";
  return `${model.labels[row]} vs ${model.labels[col]}: ${heatmapValueText(model, value)}${what}`;
}

/** The key's stops: the colour at 0, 0.5 and 1. */
export function heatmapKeyStops(scheme: HeatmapScheme): { offset: number; color: string }[] {
  return [0, 0.5, 1].map((offset) => ({ offset, color: heatmapColor(scheme, offset) }));
}

/** The heatmap as an SVG document (rect per cell, text labels), titled like the other exports. */
export function heatmapSvg(model: HeatmapModel, title: string): SvgExport {
  const layout = heatmapLayout(model.labels);
  const { n, cell, label } = layout;
  const parts: string[] = [];
  const font = `font-family="${escapeXml(FONT)}" font-size="11"`;
  const labelled = heatmapShowsLabels(cell);
  const stroke = cell >= HEATMAP_GAP_MIN_CELL ? ` stroke="#ffffff" stroke-width="1"` : "";
  model.labels.forEach((name, i) => {
    if (!labelled) return;
    const color = escapeXml(model.labelColors?.[i] ?? TEXT_COLOR);
    const text = escapeXml(heatmapLabel(name));
    const mid = label + i * cell + cell / 2;
    parts.push(
      `<text x="${label - 4}" y="${mid}" ${font} fill="${color}" text-anchor="end" dominant-baseline="middle">${text}</text>`,
      `<text transform="translate(${mid} ${label - 4}) rotate(-90)" ${font} fill="${color}" dominant-baseline="middle">${text}</text>`,
    );
  });
  for (let r = 0; r < n; r++)
    for (let c = 0; c < n; c++) {
      const v = model.values[r * n + c] ?? NaN;
      const x = label + c * cell;
      const y = label + r * cell;
      parts.push(
        `<rect x="${x}" y="${y}" width="${cell}" height="${cell}" fill="${heatmapColor(model.scheme, v)}"${stroke}><title>${escapeXml(heatmapCellText(model, r, c))}</title></rect>`,
      );
      if (cell >= HEATMAP_VALUE_MIN_CELL && Number.isFinite(v))
        parts.push(
          `<text x="${x + cell / 2}" y="${y + cell / 2}" ${font} text-anchor="middle" dominant-baseline="middle" fill="${heatmapTextColor(model.scheme, v)}">${v.toFixed(2)}</text>`,
        );
    }
  const keyY = label + n * cell + 10;
  const keyW = Math.min(160, n * cell);
  const stops = heatmapKeyStops(model.scheme)
    .map((s) => `<stop offset="${s.offset}" stop-color="${s.color}"/>`)
    .join("");
  parts.push(
    `<defs><linearGradient id="heatmap-key">${stops}</linearGradient></defs>`,
    `<rect x="${label}" y="${keyY}" width="${keyW}" height="10" fill="url(#heatmap-key)"/>`,
    `<text x="${label}" y="${keyY + 22}" ${font} fill="${TEXT_COLOR}">0</text>`,
    `<text x="${label + keyW}" y="${keyY + 22}" ${font} fill="${TEXT_COLOR}" text-anchor="end">1</text>`,
    `<rect x="${label + keyW + 12}" y="${keyY}" width="10" height="10" fill="${HEATMAP_MISSING_COLOR}"/>`,
    `<text x="${label + keyW + 26}" y="${keyY + 9}" ${font} fill="${TEXT_COLOR}">${escapeXml(model.missing)}</text>`,
  );
  const header = exportHeader(title, []);
  const body = `<g transform="translate(0 ${header.height})">${parts.join("")}</g>`;
  return wrapSvg(body, header, layout.width, layout.height);
}
