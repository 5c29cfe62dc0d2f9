/** File sizes for people: SI units, a fixed locale so labels match across machines and tests. */
const BYTE_UNITS = ["kB", "MB", "GB", "TB"] as const;
const BYTES_PER_UNIT = 1000;

// A fixed locale keeps labels identical across machines and in tests.
const integerFormat = new Intl.NumberFormat("en-US", { maximumFractionDigits: 0 });
const oneDecimalFormat = new Intl.NumberFormat("en-US", {
  minimumFractionDigits: 1,
  maximumFractionDigits: 1,
});

/**
 * Human-readable file size in SI units (1 kB = 1000 bytes), as file managers on Linux and macOS show.
 * Below 1 kB the exact byte count is shown; above, one decimal, carried into the next unit when the
 * rounded value would read "1000.0".
 */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) {
    return "unknown size";
  }
  if (bytes < BYTES_PER_UNIT) {
    return `${integerFormat.format(bytes)} ${bytes === 1 ? "byte" : "bytes"}`;
  }
  let value = bytes / BYTES_PER_UNIT;
  let unitIndex = 0;
  while (unitIndex < BYTE_UNITS.length - 1 && Math.round(value * 10) / 10 >= BYTES_PER_UNIT) {
    value /= BYTES_PER_UNIT;
    unitIndex += 1;
  }
  return `${oneDecimalFormat.format(value)} ${BYTE_UNITS[unitIndex] ?? "TB"}`;
}
