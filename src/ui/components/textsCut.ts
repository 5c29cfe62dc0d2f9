/**
 * The note a view shows when the setting "text analysed per rollout" cut some of its texts
 * (Metrics' clusters, Divergence): what was cut, to how much, and for what. Pure.
 */

/** "1 text cut to 200,000 characters for the clusters", or null when nothing was cut. */
export function textsCutNote(cut: number, limit: number, purpose: string): string | null {
  if (cut <= 0) return null;
  return `${cut.toLocaleString("en-US")} text${cut === 1 ? "" : "s"} cut to ${limit.toLocaleString("en-US")} characters ${purpose}`;
}

/** The note's tooltip: which setting says so, and what stays whole. */
export const TEXTS_CUT_TITLE =
  'Settings: "Text analysed per rollout" bounds the text that clusters, Find similar and ' +
  "Divergence read; lengths stay whole, and the transcript shows every character.";
