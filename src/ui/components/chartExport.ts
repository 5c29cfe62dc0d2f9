/**
 * Saving charts as files. The serialisers are pure over a DOM tree or a canvas and are unit-tested
 * in jsdom; rasterising and downloading need a real browser (covered by e2e/charts.spec.ts).
 * ChartFrame calls these; nothing here reads the store.
 */

export interface LegendEntry {
  readonly label: string;
  readonly color: string;
}

/** A standalone SVG document and its size in CSS pixels. */
export interface SvgExport {
  readonly text: string;
  readonly width: number;
  readonly height: number;
}

export const SVG_NS = "http://www.w3.org/2000/svg";
export const EXPORT_BACKGROUND = "#ffffff";
export const EXPORT_TEXT_COLOR = "#1c2430";
export const EXPORT_FONT = "system-ui, -apple-system, 'Segoe UI', Roboto, Arial, sans-serif";
const TITLE_HEIGHT = 26;
const LEGEND_HEIGHT = 20;

/** Text for XML content and attribute values: the five special characters escaped. */
export function escapeXml(text: string): string {
  return text
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&apos;");
}

/**
 * `<chart>-<subject>.<ext>`, with every run of characters other than letters, digits, `.`, `_` and
 * `-` turned into `_` (group ids are data: they may hold slashes or spaces), at most 100 characters.
 */
export function chartFileName(chart: string, subject: string, ext: "png" | "svg"): string {
  const safe = (s: string): string =>
    s
      .replace(/[^A-Za-z0-9._-]+/g, "_")
      .replace(/^[._]+/, "")
      .slice(0, 100) || "chart";
  return `${safe(chart)}-${safe(subject)}.${ext}`;
}

/**
 * The presentation properties copied from the page's computed style onto the exported copy, so the
 * file looks as the chart does without the page's stylesheets or CSS variables.
 */
export const INLINED_STYLE_PROPERTIES = [
  "fill",
  "fill-opacity",
  "stroke",
  "stroke-width",
  "stroke-opacity",
  "stroke-dasharray",
  "opacity",
  "font-family",
  "font-size",
  "font-weight",
  "text-anchor",
  "dominant-baseline",
  "visibility",
] as const;

/** The header every exported chart starts with: its title and, when given, its legend. */
export function exportHeader(
  title: string,
  legend: readonly LegendEntry[],
): { text: string; height: number } {
  let text = `<text x="8" y="18" font-family="${escapeXml(EXPORT_FONT)}" font-size="14" font-weight="600" fill="${EXPORT_TEXT_COLOR}">${escapeXml(title)}</text>`;
  let x = 8;
  for (const entry of legend) {
    const y = TITLE_HEIGHT + 4;
    text +=
      `<rect x="${x}" y="${y}" width="10" height="10" fill="${escapeXml(entry.color)}"/>` +
      `<text x="${x + 14}" y="${y + 9}" font-family="${escapeXml(EXPORT_FONT)}" font-size="11" fill="${EXPORT_TEXT_COLOR}">${escapeXml(entry.label)}</text>`;
    x += 24 + entry.label.length * 6.5;
  }
  return { text, height: TITLE_HEIGHT + (legend.length > 0 ? LEGEND_HEIGHT : 0) };
}

function sizeOf(svg: SVGSVGElement): { width: number; height: number } {
  const attr = (name: string): number => Number.parseFloat(svg.getAttribute(name) ?? "");
  const box = svg.getBoundingClientRect();
  const width = Number.isFinite(attr("width")) ? attr("width") : box.width;
  const height = Number.isFinite(attr("height")) ? attr("height") : box.height;
  return { width: Math.max(1, Math.round(width)), height: Math.max(1, Math.round(height)) };
}

/**
 * A chart's live `<svg>` as a standalone document: the computed presentation styles inlined on a
 * deep copy (the page is not touched), the title and legend above it, and an opaque background.
 *
 * @param getStyle the computed style of an element in the live tree (the window's by default)
 */
export function svgExport(
  svg: SVGSVGElement,
  options: {
    readonly title: string;
    readonly legend?: readonly LegendEntry[];
    readonly background?: string;
    readonly getStyle?: (element: Element) => CSSStyleDeclaration;
  },
): SvgExport {
  const getStyle =
    options.getStyle ??
    ((element: Element) => element.ownerDocument.defaultView!.getComputedStyle(element));
  const { width, height } = sizeOf(svg);
  const copy = svg.cloneNode(true) as SVGSVGElement;
  const live = [svg, ...svg.querySelectorAll("*")];
  const copies = [copy, ...copy.querySelectorAll("*")];
  live.forEach((element, i) => {
    const target = copies[i];
    if (target === undefined) return;
    const computed = getStyle(element);
    for (const property of INLINED_STYLE_PROPERTIES) {
      const value = computed.getPropertyValue(property);
      if (value !== "") target.setAttribute(property, value);
    }
    target.removeAttribute("class");
  });
  copy.removeAttribute("style");
  copy.setAttribute("x", "0");
  copy.setAttribute("width", String(width));
  copy.setAttribute("height", String(height));
  if (!copy.hasAttribute("viewBox")) copy.setAttribute("viewBox", `0 0 ${width} ${height}`);
  const header = exportHeader(options.title, options.legend ?? []);
  copy.setAttribute("y", String(header.height));
  const body = new XMLSerializer().serializeToString(copy);
  return wrapSvg(body, header, width, height, options.background ?? EXPORT_BACKGROUND);
}

/** An SVG document of the given body below the header, on the background colour. */
export function wrapSvg(
  body: string,
  header: { text: string; height: number },
  width: number,
  height: number,
  background: string = EXPORT_BACKGROUND,
): SvgExport {
  const total = height + header.height;
  const text =
    `<?xml version="1.0" encoding="UTF-8"?>\n` +
    `<svg xmlns="${SVG_NS}" width="${width}" height="${total}" viewBox="0 0 ${width} ${total}">` +
    `<rect x="0" y="0" width="${width}" height="${total}" fill="${escapeXml(background)}"/>` +
    header.text +
    body +
    `</svg>`;
  return { text, width, height: total };
}

/** An SVG document as a `data:` URL (the studio's CSP allows `data:` images, not `blob:` ones). */
export function svgDataUrl(svgText: string): string {
  return `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svgText)}`;
}

function canvasBlob(canvas: HTMLCanvasElement): Promise<Blob> {
  return new Promise((resolve, reject) =>
    canvas.toBlob(
      (blob) => (blob === null ? reject(new Error("the canvas gave no PNG")) : resolve(blob)),
      "image/png",
    ),
  );
}

/** Rasterises an SVG document to PNG at `scale` times its size (2 by default, for sharp text). */
export async function svgToPng(svg: SvgExport, scale = 2): Promise<Blob> {
  const image = new Image();
  image.decoding = "sync";
  image.src = svgDataUrl(svg.text);
  await image.decode();
  const canvas = document.createElement("canvas");
  canvas.width = Math.round(svg.width * scale);
  canvas.height = Math.round(svg.height * scale);
  const context = canvas.getContext("2d");
  if (context === null) throw new Error("no 2D canvas to draw the PNG on");
  context.drawImage(image, 0, 0, canvas.width, canvas.height);
  return canvasBlob(canvas);
}

/**
 * A drawn canvas as PNG, its pixels as they are, below the chart's title on the background colour.
 * The canvas is assumed drawn at `scale` device pixels per CSS pixel.
 */
export async function canvasToPng(
  source: HTMLCanvasElement,
  title: string,
  scale: number,
  background: string = EXPORT_BACKGROUND,
): Promise<Blob> {
  const header = Math.round(TITLE_HEIGHT * scale);
  const canvas = document.createElement("canvas");
  canvas.width = source.width;
  canvas.height = source.height + header;
  const context = canvas.getContext("2d");
  if (context === null) throw new Error("no 2D canvas to draw the PNG on");
  context.fillStyle = background;
  context.fillRect(0, 0, canvas.width, canvas.height);
  context.fillStyle = EXPORT_TEXT_COLOR;
  context.font = `600 ${14 * scale}px ${EXPORT_FONT}`;
  context.textBaseline = "alphabetic";
  context.fillText(title, 8 * scale, 18 * scale);
  context.drawImage(source, 0, header);
  return canvasBlob(canvas);
}

/** Saves a blob under a file name through an object URL and a temporary `<a download>`. */
export function downloadBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = fileName;
  link.rel = "noopener";
  link.style.display = "none";
  document.body.append(link);
  link.click();
  link.remove();
  // The download has started once click() returns; revoke later so no browser races it.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
