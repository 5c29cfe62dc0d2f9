/**
 * Every format the studio reads. Detection tries them all (the highest `match` score wins, a tie
 * asks the user); order only breaks display ties, and for zip archives it is the order in which
 * formats are asked to recognise the archive.
 *
 * Scores, for the record (see each file): native 2 (`group_id` + content); tau-bench 3; TRL 3/2/1;
 * verl 3/2; OpenAI chat 1 (never beats native); benchmax 3/2; whileai 3 (version stamp) / 2
 * (legacy keys); tau2, Inspect, SWE-agent and ATIF documents by explode (a compact one-line
 * SWE-agent or ATIF document read as JSONL: 3); OpenHands 3 (`instance_id` + `history`); Inspect samples 3;
 * verifiers 3 (`prompt` + `completion` + `reward` + `example_id`, or `id` with `task`; 2 without
 * `reward`; 1 beside TRL's `advantage`/`step`; 0 with `group_id`); NeMo Gym 3
 * (`responses_create_params` + `response`); Atropos 3 (`scores` list + `tokens`/`masks`/`messages`
 * lists); mapped never (chosen).
 */
import { benchmaxFormat } from "./benchmax.ts";
import { inspectFormat } from "./inspect.ts";
import { mappedFormat } from "./mapped.ts";
import { nativeFormat } from "./native.ts";
import { openaiFormat } from "./openaiChat.ts";
import type { FormatSpec } from "./spec.ts";
import { tau2Format } from "./tau2.ts";
import { tauBenchFormat } from "./tauBench.ts";
import { trlFormat } from "./trl.ts";
import { verlFormat } from "./verl.ts";
import { whileaiFormat } from "./whileai.ts";
import { sweAgentFormat } from "./sweAgent.ts";
import { openhandsFormat } from "./openhands.ts";
import { atifFormat } from "./atif.ts";
import { verifiersFormat } from "./verifiers.ts";
import { nemoGymFormat } from "./nemoGym.ts";
import { atroposFormat } from "./atropos.ts";

export const FORMATS: readonly FormatSpec[] = [
  nativeFormat,
  tauBenchFormat,
  tau2Format,
  inspectFormat,
  trlFormat,
  verlFormat,
  benchmaxFormat,
  whileaiFormat,
  sweAgentFormat,
  openhandsFormat,
  atifFormat,
  verifiersFormat,
  nemoGymFormat,
  atroposFormat,
  openaiFormat,
  mappedFormat,
];

/** The format with this id, if registered. */
export function formatById(id: string): FormatSpec | undefined {
  return FORMATS.find((f) => f.id === id);
}
