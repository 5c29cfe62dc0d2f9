/** The demo's fixed "today" (2024-11-18) and how it writes days, money and lists. */
import { at } from "./rng.ts";

export const TODAY_UTC = Date.UTC(2024, 10, 18);
export const DAY_MS = 86_400_000;
export const MONTHS =
  "January February March April May June July August September October November December".split(
    " ",
  );

/** A day relative to the fixed "today" of the dataset (2024-11-18), as YYYY-MM-DD. */
export function isoDay(offset: number): string {
  return new Date(TODAY_UTC + offset * DAY_MS).toISOString().slice(0, 10);
}

/** The same day as prose: "November 9". */
export function proseDay(offset: number): string {
  const d = new Date(TODAY_UTC + offset * DAY_MS);
  return `${at(MONTHS, d.getUTCMonth())} ${d.getUTCDate()}`;
}

export function money(cents: number): string {
  return `$${(cents / 100).toFixed(2)}`;
}

export function amount(cents: number): number {
  return Number((cents / 100).toFixed(2));
}

export function joinList(parts: readonly string[]): string {
  if (parts.length <= 1) return parts.join("");
  return `${parts.slice(0, -1).join(", ")} and ${at(parts, parts.length - 1)}`;
}
