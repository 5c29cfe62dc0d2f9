/**
 * Group summaries packed into a few strings and typed arrays, for the load worker's "done" reply.
 * A structured clone copies an array of 100,000 small objects one field at a time, and the main
 * thread paid for it in one task (~180 ms for 107,000 groups, with the garbage it left); packed,
 * the message is two strings and five buffers that move without a copy, and the objects are built
 * again on the main thread in one tight loop.
 */
import type { GroupSummary } from "./dataset.ts";

export interface PackedSummaries {
  readonly count: number;
  /** Every id, one after another; `idEnds[i]` is where id i ends. */
  readonly ids: string;
  readonly idEnds: Uint32Array<ArrayBuffer>;
  readonly prompts: string;
  readonly promptEnds: Uint32Array<ArrayBuffer>;
  /** Every reward of every group in order; `rewardEnds[i]` is where group i's end. */
  readonly rewards: Float64Array<ArrayBuffer>;
  readonly rewardEnds: Uint32Array<ArrayBuffer>;
  /** 1 for a partial group. */
  readonly partial: Uint8Array<ArrayBuffer>;
  /** The step, NaN for none (a step is an integer, never NaN). */
  readonly steps: Float64Array<ArrayBuffer>;
}

/** Every field of a summary, so a field added to GroupSummary without a place here fails to build. */
const PACKED_FIELDS: Readonly<Record<keyof GroupSummary, true>> = {
  id: true,
  rewards: true,
  prompt: true,
  partial: true,
  step: true,
};
export const PACKED_SUMMARY_FIELDS = Object.keys(PACKED_FIELDS);

/** Pack summaries (their order kept). */
export function packSummaries(summaries: readonly GroupSummary[]): PackedSummaries {
  const count = summaries.length;
  const idEnds = new Uint32Array(count);
  const promptEnds = new Uint32Array(count);
  const rewardEnds = new Uint32Array(count);
  const partial = new Uint8Array(count);
  const steps = new Float64Array(count);
  let rewardCount = 0;
  for (const s of summaries) rewardCount += s.rewards.length;
  const rewards = new Float64Array(rewardCount);
  const ids: string[] = [];
  const prompts: string[] = [];
  let idAt = 0;
  let promptAt = 0;
  let rewardAt = 0;
  for (let i = 0; i < count; i++) {
    const s = summaries[i]!;
    ids.push(s.id);
    idAt += s.id.length;
    idEnds[i] = idAt;
    prompts.push(s.prompt);
    promptAt += s.prompt.length;
    promptEnds[i] = promptAt;
    for (const r of s.rewards) rewards[rewardAt++] = r;
    rewardEnds[i] = rewardAt;
    partial[i] = s.partial ? 1 : 0;
    steps[i] = s.step ?? NaN;
  }
  return {
    count,
    ids: ids.join(""),
    idEnds,
    prompts: prompts.join(""),
    promptEnds,
    rewards,
    rewardEnds,
    partial,
    steps,
  };
}

/** The buffers of a pack, to transfer with it. */
export function packedSummariesTransfer(packed: PackedSummaries): ArrayBuffer[] {
  return [
    packed.idEnds.buffer,
    packed.promptEnds.buffer,
    packed.rewards.buffer,
    packed.rewardEnds.buffer,
    packed.partial.buffer,
    packed.steps.buffer,
  ];
}

/** The summaries a pack holds, equal to those packed. */
/** Summaries unpacked between two pauses of {@link unpackSummariesSliced}. */
export const UNPACK_SLICE = 8000;

export function unpackSummaries(packed: PackedSummaries): GroupSummary[] {
  const out = new Array<GroupSummary>(packed.count);
  unpackRange(packed, out, 0, packed.count);
  return out;
}

/**
 * {@link unpackSummaries} a slice at a time, with `pause` (a macrotask yield) between two slices:
 * 107,000 summaries unpacked at once were a 176 ms task on the main thread at index-done.
 */
export async function unpackSummariesSliced(
  packed: PackedSummaries,
  pause: () => Promise<void>,
  slice: number = UNPACK_SLICE,
): Promise<GroupSummary[]> {
  const out = new Array<GroupSummary>(packed.count);
  for (let from = 0; from < packed.count; from += slice) {
    if (from > 0) await pause();
    unpackRange(packed, out, from, Math.min(packed.count, from + slice));
  }
  return out;
}

/** Summaries [from, to) into `out`: where each begins is where the one before ends. */
function unpackRange(packed: PackedSummaries, out: GroupSummary[], from: number, to: number): void {
  let idAt = from === 0 ? 0 : packed.idEnds[from - 1]!;
  let promptAt = from === 0 ? 0 : packed.promptEnds[from - 1]!;
  let rewardAt = from === 0 ? 0 : packed.rewardEnds[from - 1]!;
  for (let i = from; i < to; i++) {
    const idEnd = packed.idEnds[i]!;
    const promptEnd = packed.promptEnds[i]!;
    const rewardEnd = packed.rewardEnds[i]!;
    const rewards = new Array<number>(rewardEnd - rewardAt);
    for (let k = 0; rewardAt < rewardEnd; k++) rewards[k] = packed.rewards[rewardAt++]!;
    const step = packed.steps[i]!;
    out[i] = {
      id: packed.ids.slice(idAt, idEnd),
      rewards,
      prompt: packed.prompts.slice(promptAt, promptEnd),
      partial: packed.partial[i] === 1,
      step: Number.isNaN(step) ? null : step,
    };
    idAt = idEnd;
    promptAt = promptEnd;
  }
}
