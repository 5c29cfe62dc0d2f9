/** Number formats shared by every view. */

/** A number as plain text for the stable metric test ids: at most 4 decimals, "" when absent. */
export function plainNumber(x: number | null): string {
  return x === null || !Number.isFinite(x) ? "" : String(Number(x.toFixed(4)));
}

/** Three decimals for reading; an en dash when the number is absent or not finite. */
export function fixed3(x: number | null): string {
  return x === null || !Number.isFinite(x) ? "–" : x.toFixed(3);
}
