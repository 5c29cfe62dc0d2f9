/**
 * One colour per diversity cluster, the same in every view (column chips, the clusters view,
 * charts). Okabe-Ito-derived hues that stay apart for common colour-vision deficiencies; past ten
 * clusters the hue turns by the golden angle.
 */
const PALETTE = [
  "#0072b2",
  "#e69f00",
  "#009e73",
  "#cc79a7",
  "#56b4e9",
  "#d55e00",
  "#7a6f00",
  "#6a3d9a",
  "#8c564b",
  "#4d4d4d",
] as const;

export function clusterColor(index: number): string {
  if (index >= 0 && index < PALETTE.length) return PALETTE[index]!;
  const hue = Math.round((index * 137.508) % 360);
  return `hsl(${hue} 60% 38%)`;
}
