/**
 * The analysis settings: every knob that changes a number. Persisted (they are preferences), and
 * validated field by field when read back, since stored values are untrusted input.
 */
import type { StateCreator } from "zustand";
import {
  ANALYSIS_DEFAULTS,
  COMPLETION_RULES,
  SIMILARITY_ON,
  textCharsValid,
  type AnalysisSettings,
} from "../../core/index.ts";
import type { Store } from "../index.ts";

export interface SettingsSlice {
  readonly settings: AnalysisSettings;
  /** Counts resets, so uncontrolled inputs can start over from the defaults (not persisted). */
  readonly settingsResets: number;
  readonly setSetting: <K extends keyof AnalysisSettings>(
    key: K,
    value: AnalysisSettings[K],
  ) => void;
  readonly resetSettings: () => void;
}

export const createSettingsSlice: StateCreator<Store, [], [], SettingsSlice> = (set) => ({
  settings: ANALYSIS_DEFAULTS,
  settingsResets: 0,
  setSetting: (key, value) => set((s) => ({ settings: { ...s.settings, [key]: value } })),
  resetSettings: () =>
    set((s) => ({ settings: ANALYSIS_DEFAULTS, settingsResets: s.settingsResets + 1 })),
});

const isRecord = (x: unknown): x is Record<string, unknown> =>
  typeof x === "object" && x !== null && !Array.isArray(x);

/** Reward weights read back from storage: a record of finite numbers, else none. */
function readWeights(raw: unknown): Readonly<Record<string, number>> | null {
  if (!isRecord(raw)) return null;
  const entries = Object.entries(raw);
  if (entries.length === 0) return null;
  return entries.every(([, w]) => typeof w === "number" && Number.isFinite(w))
    ? (raw as Record<string, number>)
    : null;
}

/** Settings read back from storage: each valid field is kept, anything else falls back to its default. */
export function readSettings(persisted: unknown): AnalysisSettings {
  const raw = isRecord(persisted) && isRecord(persisted.settings) ? persisted.settings : {};
  const d = ANALYSIS_DEFAULTS;
  const num = (key: string, fallback: number, ok: (x: number) => boolean): number => {
    const v = raw[key];
    return typeof v === "number" && Number.isFinite(v) && ok(v) ? v : fallback;
  };
  const pick = <T extends string>(key: string, options: readonly T[], fallback: T): T => {
    const v = raw[key];
    return typeof v === "string" && (options as readonly string[]).includes(v)
      ? (v as T)
      : fallback;
  };
  return {
    ...d,
    estimator: pick("estimator", ["grpo", "rloo"] as const, d.estimator),
    scale: pick("scale", ["group", "batch", "none"] as const, d.scale),
    eps: num("eps", d.eps, (x) => x >= 0),
    std: pick("std", ["sample", "population"] as const, d.std),
    passThreshold: num("passThreshold", d.passThreshold, () => true),
    cap: num("cap", d.cap, (x) => x >= 1),
    minFactor: num("minFactor", d.minFactor, (x) => x > 0 && x <= 1),
    hackZero: typeof raw.hackZero === "boolean" ? raw.hackZero : d.hackZero,
    ngram: num("ngram", d.ngram, (x) => Number.isInteger(x) && x >= 1),
    similarity: num("similarity", d.similarity, (x) => x >= 0 && x <= 1),
    similarityOn: pick("similarityOn", SIMILARITY_ON, d.similarityOn),
    tieCredit: raw.tieCredit === 0.5 ? 0.5 : 0,
    rankTies: pick("rankTies", ["average", "index"] as const, d.rankTies),
    completionRule: pick("completionRule", COMPLETION_RULES, d.completionRule),
    textChars: num("textChars", d.textChars, textCharsValid),
    aggregation: pick(
      "aggregation",
      ["sum_then_normalize", "normalize_then_sum"] as const,
      d.aggregation,
    ),
    rewardWeights: readWeights(raw.rewardWeights),
  };
}
