/**
 * One result line of the runs and matrix benchmarks: a JSON line on stdout (value, baseline and
 * their ratio, rounded to 4 significant digits) and a readable one on stderr.
 */

export const round = (x: number): number => Number(x.toPrecision(4));

export function emitLine(
  metric: string,
  value: number,
  baseline: number,
  runs: number,
  data: string,
  note: string,
  extra: Record<string, unknown> = {},
  unit = "ms",
): void {
  const line = {
    metric,
    value: round(value),
    baseline: round(baseline),
    ratio: round(value / baseline),
    unit,
    runs,
    reps: [1, 1],
    data,
    note,
    ...extra,
  };
  process.stdout.write(`${JSON.stringify(line)}\n`);
  console.error(`  ${metric}: ${line.value} ${unit} vs ${line.baseline}, ratio ${line.ratio}`);
}
