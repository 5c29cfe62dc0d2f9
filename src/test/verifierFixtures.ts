/**
 * Verifiers as the core tests build them: the library's format gate, an exact match against a
 * field, and a length penalty in words (each enabled, with the library's other defaults).
 */
import {
  ANSWER_NORMALIZATION_DEFAULT,
  FORMAT_PRESET_REASONING_ANSWER,
  type ExactMatchVerifier,
  type FormatGateVerifier,
  type LengthPenaltyVerifier,
} from "../core/verifiers/spec.ts";

/** The `<reasoning>…<answer>` format gate, named `format`, weight 1. */
export function formatGate(): FormatGateVerifier {
  return {
    kind: "format",
    name: "format",
    enabled: true,
    weight: 1,
    ...FORMAT_PRESET_REASONING_ANSWER,
  };
}

/** An exact match of the whole (trimmed) text against `field`. */
export function exactMatch(name: string, weight: number, field: string): ExactMatchVerifier {
  return {
    kind: "exact-match",
    name,
    enabled: true,
    weight,
    field,
    pattern: null,
    flags: "",
    normalize: ANSWER_NORMALIZATION_DEFAULT,
  };
}

/** A length penalty in words, wrapping `wraps`, weight 1. */
export function lengthPenalty(
  name: string,
  wraps: string,
  target: number,
  penaltyPerUnit: number,
): LengthPenaltyVerifier {
  return {
    kind: "length-penalty",
    name,
    enabled: true,
    weight: 1,
    wraps,
    target,
    penaltyPerUnit,
    unit: "words",
  };
}
