/**
 * Saved field mappings ("presets") for the mapped format: the field-mapping dialog saves, lists,
 * applies and deletes them. This is user data, so it is persisted (store/index.ts partializes it
 * into localStorage); what comes back from storage is validated here, in `readPresets`, once.
 */
import type { StateCreator } from "zustand";
import type { FormatOptions } from "../../io/index.ts";
import type { Store } from "../index.ts";

/** A complete field mapping: the mapped format's required keys, and the optional ones. */
export interface FieldMapping {
  readonly groupKey: string;
  readonly textKey: string;
  /** "" when the rollouts have no id field (ids become `<group>/<index>`). */
  readonly idKey: string;
  readonly rewardKeys: readonly string[];
}

export interface MappingPreset {
  readonly name: string;
  readonly mapping: FieldMapping;
}

/** The mapped format's options for a mapping: an empty id is left out. */
export function mappingToFormatOptions(mapping: FieldMapping): FormatOptions {
  return {
    groupKey: mapping.groupKey,
    textKey: mapping.textKey,
    ...(mapping.idKey === "" ? {} : { idKey: mapping.idKey }),
    rewardKeys: [...mapping.rewardKeys],
  };
}

const isRecord = (x: unknown): x is Record<string, unknown> =>
  typeof x === "object" && x !== null && !Array.isArray(x);

/**
 * One stored preset, or null when it does not validate. Hand-written rather than a schema library:
 * this runs in the first page, and zod would add about 20 KB gzip to it.
 */
function readPreset(entry: unknown): MappingPreset | null {
  if (!isRecord(entry) || typeof entry.name !== "string" || !isRecord(entry.mapping)) return null;
  const name = entry.name.trim();
  const { groupKey, textKey, idKey, rewardKeys } = entry.mapping;
  if (name === "" || typeof groupKey !== "string" || groupKey === "") return null;
  if (typeof textKey !== "string" || textKey === "") return null;
  return {
    name,
    mapping: {
      groupKey,
      textKey,
      // Optional fields fall back to their defaults when missing or malformed.
      idKey: typeof idKey === "string" ? idKey : "",
      rewardKeys:
        Array.isArray(rewardKeys) && rewardKeys.every((k) => typeof k === "string")
          ? [...rewardKeys]
          : [],
    },
  };
}

/**
 * The presets in a persisted value (anything: it comes from localStorage, which the user or an
 * older version may have written). Invalid entries are dropped one by one; a later duplicate name
 * is dropped too.
 */
export function readPresets(persisted: unknown): MappingPreset[] {
  if (!isRecord(persisted) || !Array.isArray(persisted.presets)) return [];
  const out: MappingPreset[] = [];
  for (const entry of persisted.presets as unknown[]) {
    const preset = readPreset(entry);
    if (preset !== null && !out.some((p) => p.name === preset.name)) out.push(preset);
  }
  return out;
}

export interface PresetsSlice {
  /** Oldest first. Names are unique (trimmed). */
  readonly presets: readonly MappingPreset[];
  /** Save a mapping under a name; an existing preset of that name is replaced in place. */
  readonly savePreset: (name: string, mapping: FieldMapping) => void;
  readonly deletePreset: (name: string) => void;
}

export const createPresetsSlice: StateCreator<Store, [], [], PresetsSlice> = (set) => ({
  presets: [],
  savePreset: (rawName, mapping) => {
    const name = rawName.trim();
    if (name === "") return;
    const preset: MappingPreset = {
      name,
      mapping: { ...mapping, rewardKeys: [...mapping.rewardKeys] },
    };
    set((s) => {
      const at = s.presets.findIndex((p) => p.name === name);
      return {
        presets:
          at === -1 ? [...s.presets, preset] : s.presets.map((p, i) => (i === at ? preset : p)),
      };
    });
  },
  deletePreset: (name) => set((s) => ({ presets: s.presets.filter((p) => p.name !== name) })),
});
