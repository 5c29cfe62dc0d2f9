/**
 * The overview's "slice by" (issue 13, finding 5): pass rate and mean reward per value of a
 * metadata field, with the rollouts and groups of each slice, for the table and the chart. The
 * numbers come from core `metadataSlices`; this adds the labels, the texts and the note on what
 * was read (an indexed file's groups are sliced once parsed).
 */
import {
  metadataFields,
  metadataRollouts,
  metadataSlices,
  rolloutReward,
  type AnalysisSettings,
  type MetadataField,
  type Rollout,
  type RolloutGroup,
} from "../../../core/index.ts";

/** Rollouts read to discover the fields offered (the slices themselves read every rollout). */
export const SLICE_DISCOVERY_ROLLOUTS = 20_000;
/** Slices listed; the rest are pooled as "other". */
export const MAX_SLICES = 40;

function* firstRollouts(groups: readonly RolloutGroup[], cap: number): Iterable<Rollout> {
  let n = 0;
  for (const r of metadataRollouts(groups)) {
    if (n++ >= cap) return;
    yield r;
  }
}

export interface SliceFields {
  readonly fields: readonly MetadataField[];
  /** The field shown before the user picks one: the first with 2 to 12 values, else the first. */
  readonly initial: string;
}

/** The scalar metadata fields to slice by. */
export function prepareSliceFields(groups: readonly RolloutGroup[]): SliceFields {
  const { fields } = metadataFields(firstRollouts(groups, SLICE_DISCOVERY_ROLLOUTS));
  const fit = fields.find((f) => !f.moreValues && f.values.length >= 2 && f.values.length <= 12);
  return { fields, initial: fit?.path ?? fields[0]?.path ?? "" };
}

export interface SliceRow {
  readonly label: string;
  /** The value's text (data-value), "" for the rollouts without the field, "*" for other. */
  readonly key: string;
  readonly rollouts: number;
  readonly groups: number;
  readonly passes: number;
  readonly scored: number;
  /** In [0, 1]; NaN without a scored rollout. */
  readonly passRate: number;
  readonly meanReward: number;
  readonly passRateText: string;
  readonly meanRewardText: string;
}

export interface SliceOverview {
  readonly path: string;
  readonly rows: readonly SliceRow[];
  readonly totalRollouts: number;
  readonly totalGroups: number;
  readonly how: string;
}

const percent = (x: number): string => (Number.isFinite(x) ? `${(100 * x).toFixed(1)}%` : "–");
const fixed = (x: number): string => (Number.isFinite(x) ? x.toFixed(3) : "–");

/**
 * The slices of one field over the parsed groups.
 *
 * @param allGroups the dataset's group count (more than `groups.length` for an indexed file)
 */
export function prepareMetadataSlices(
  groups: readonly RolloutGroup[],
  path: string,
  settings: Pick<AnalysisSettings, "passThreshold" | "rewardWeights">,
  allGroups: number,
): SliceOverview {
  const s = metadataSlices(
    groups,
    path,
    (r) => rolloutReward(r, settings.rewardWeights),
    settings.passThreshold,
    MAX_SLICES,
  );
  const row = (
    label: string,
    key: string,
    x: Omit<SliceRow, "label" | "key" | "passRateText" | "meanRewardText">,
  ): SliceRow => ({
    label,
    key,
    rollouts: x.rollouts,
    groups: x.groups,
    passes: x.passes,
    scored: x.scored,
    passRate: x.passRate,
    meanReward: x.meanReward,
    passRateText: percent(x.passRate),
    meanRewardText: fixed(x.meanReward),
  });
  const rows = s.slices.map((x) =>
    x.value === null ? row("(no value)", "", x) : row(x.value, x.value, x),
  );
  if (s.other !== null) rows.push(row(`other (${s.other.values} values)`, "*", s.other));
  const parsed =
    allGroups > groups.length
      ? ` Over the ${groups.length.toLocaleString("en")} parsed of ${allGroups.toLocaleString("en")} groups (an indexed file: a group is sliced once it is opened).`
      : "";
  return {
    path,
    rows,
    totalRollouts: s.totalRollouts,
    totalGroups: s.totalGroups,
    how:
      `Rollouts grouped by their metadata field ${path} (values as text; rollouts without it in "(no value)"). ` +
      `Pass rate: rollouts with reward R >= ${settings.passThreshold} over those with a reward; mean reward over the same. ` +
      `Each rollout is in one slice; a group is counted in every slice one of its rollouts is in. ` +
      `At most ${MAX_SLICES} slices, largest first; the rest are pooled as "other".${parsed}`,
  };
}
