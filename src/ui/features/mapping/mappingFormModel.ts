/**
 * The mapping form's own lines and pick changes, beside prepareMappingFields's model: what the
 * form asks for (pick or type the fields), the reward fields typed or ticked, and the summaries of
 * the rewards, the fields table and the preview. Pure; MappingForm renders it.
 */
import type { FieldMapping } from "../../../store/slices/presetsSlice.ts";
import type { MappingModel } from "./prepareMappingFields.ts";

/** Whether the names are typed: the start of the file gave no fields to pick from. */
export function mappingTyped(model: Pick<MappingModel, "fields">): boolean {
  return model.fields.length === 0;
}

/** What the form asks for, after the file's name and where the sample came from. */
export function mappingAsk(typed: boolean): string {
  return typed
    ? "No fields could be read from the start of the file; type the field names."
    : "Pick the fields that hold each part of a rollout.";
}

/** The typed reward fields as the box shows them. */
export function rewardKeysText(picks: FieldMapping): string {
  return picks.rewardKeys.join(",");
}

/** The reward fields as typed: kept as they are (joined back without loss); cleanPicks cleans them. */
export function rewardKeysFromText(text: string): string[] {
  return text.split(",");
}

/** The reward fields once `path` is ticked (`on`) or unticked. */
export function withRewardKey(picks: FieldMapping, path: string, on: boolean): FieldMapping {
  return {
    ...picks,
    rewardKeys: on ? [...picks.rewardKeys, path] : picks.rewardKeys.filter((r) => r !== path),
  };
}

/** What the ticked reward fields make: no reward, the reward, or components summed. */
export function rewardSummary(picks: FieldMapping): string {
  return picks.rewardKeys.length === 0
    ? "None: the rollouts load without rewards."
    : picks.rewardKeys.length === 1
      ? "This field is the reward."
      : "Several fields: each is a reward component, and the reward is their sum.";
}

/** The fields table's summary: "12 fields in the sample". */
export function fieldsSummary(model: Pick<MappingModel, "fields">): string {
  const n = model.fields.length;
  return `${n} field${n === 1 ? "" : "s"} in the sample`;
}

/** The live preview's line; none without sampled records. */
export function previewText(model: Pick<MappingModel, "previewLine">, typed: boolean): string {
  return typed ? "No preview without sampled records." : model.previewLine;
}
