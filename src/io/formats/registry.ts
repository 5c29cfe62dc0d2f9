/** Every format the studio reads. Detection tries them all; order only breaks display ties. */
import { nativeFormat } from "./native.ts";
import type { FormatSpec } from "./spec.ts";
import { tauBenchFormat } from "./tauBench.ts";

export const FORMATS: readonly FormatSpec[] = [nativeFormat, tauBenchFormat];

export function formatById(id: string): FormatSpec | undefined {
  return FORMATS.find((f) => f.id === id);
}
