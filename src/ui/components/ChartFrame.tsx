/**
 * A chart's frame: its title, how its numbers were computed, its legend, and "Save PNG" / "Save
 * SVG". The frame finds what to save in its body: a recharts `<svg>` (serialised with its computed
 * styles and rasterised at 2x), or, for a chart drawn on a canvas, the canvas `toCanvas` draws for
 * the PNG and the SVG `toSvg` builds.
 */
import { useRef, useState, type ReactNode } from "react";
import {
  canvasToPng,
  chartFileName,
  downloadBlob,
  svgExport,
  svgToPng,
  type LegendEntry,
  type SvgExport,
} from "./chartExport.ts";
import styles from "./Charts.module.css";

export interface ChartFrameProps {
  /** Stable chart name: the frame's `data-chart` and the start of the saved file's name. */
  name: string;
  title: string;
  /** How the numbers were computed, with the settings in force. */
  how: string;
  /** What the chart is about (a group id, the dataset's file): the end of the file name. */
  subject: string;
  legend?: readonly LegendEntry[];
  /** Builds the SVG for charts drawn on a canvas. */
  toSvg?: () => SvgExport;
  /**
   * For charts drawn on a canvas: the chart drawn for the PNG on a canvas of its own, with its
   * device pixels per CSS pixel (the one on screen is drawn at the display's scale).
   */
  toCanvas?: () => { canvas: HTMLCanvasElement; scale: number };
  /** Shown instead of the save buttons when there is nothing to save (no data). */
  empty?: boolean;
  children: ReactNode;
}

function chartSvg(body: HTMLElement): SVGSVGElement | null {
  // The chart's own surface; legend icons are svgs too, but never the wrapper's direct child.
  return body.querySelector<SVGSVGElement>(".recharts-wrapper > svg") ?? body.querySelector("svg");
}

export default function ChartFrame({
  name,
  title,
  how,
  subject,
  legend = [],
  toSvg,
  toCanvas,
  empty = false,
  children,
}: ChartFrameProps) {
  const body = useRef<HTMLDivElement>(null);
  const [status, setStatus] = useState<string | null>(null);

  const svgOf = (): SvgExport => {
    if (toSvg !== undefined) return toSvg();
    const svg = body.current === null ? null : chartSvg(body.current);
    if (svg === null) throw new Error("the chart has not been drawn yet");
    return svgExport(svg, { title, legend });
  };

  const save = async (ext: "png" | "svg"): Promise<void> => {
    const fileName = chartFileName(name, subject, ext);
    if (ext === "svg") {
      downloadBlob(new Blob([svgOf().text], { type: "image/svg+xml" }), fileName);
    } else {
      const drawn = toCanvas?.() ?? null;
      const blob =
        drawn !== null
          ? await canvasToPng(drawn.canvas, title, drawn.scale)
          : await svgToPng(svgOf(), 2);
      downloadBlob(blob, fileName);
    }
    setStatus(`Saved ${fileName}`);
  };
  const onSave = (ext: "png" | "svg"): void => {
    save(ext).catch((e: unknown) =>
      setStatus(`Could not save: ${e instanceof Error ? e.message : String(e)}`),
    );
  };

  return (
    <figure className={styles.frame} data-testid="chart" data-chart={name}>
      <figcaption className={styles.head}>
        <span className={styles.title} title={how}>
          {title}
        </span>
        {empty ? null : (
          <span className={styles.actions}>
            <button type="button" data-testid="chart-save-png" onClick={() => onSave("png")}>
              Save PNG
            </button>
            <button type="button" data-testid="chart-save-svg" onClick={() => onSave("svg")}>
              Save SVG
            </button>
          </span>
        )}
      </figcaption>
      <p className={styles.how} data-testid="chart.how">
        {how}
      </p>
      {legend.length > 0 ? (
        <ul className={styles.legend} aria-label="Legend">
          {legend.map((entry) => (
            <li key={entry.label}>
              <span
                aria-hidden="true"
                className={styles.swatch}
                style={{ background: entry.color }}
              />
              {entry.label}
            </li>
          ))}
        </ul>
      ) : null}
      <div ref={body} className={styles.body}>
        {children}
      </div>
      {status !== null ? (
        <p className={styles.status} role="status" data-testid="chart.status">
          {status}
        </p>
      ) : null}
    </figure>
  );
}
