/**
 * Generated training runs for the run's health (issue 19): a folder of native JSONL step files
 * (`1.jsonl` ... `{steps}.jsonl`), the same prompts at every step (group id `p<i>`, so a run's
 * merged ids are `<step>/p<i>` and each prompt has a lineage), with two planted problems that can
 * be switched on:
 *
 * - **length drift**: from step `drift.start` on, every completion is `drift.rate` x the base
 *   length longer per step, while the pass rate stays where it was;
 * - **a spreading hack**: from step `hack.start` on, a share `hack.share0 x 2^(step - start)`
 *   (at most `hack.max`) of each step's rollouts answer with one hack template (a few words
 *   changed per rollout) and score full marks; `healthRunAnnotations` marks the first hack
 *   rollouts of the first hacked step as hacks, as a person would, and reviews their groups.
 *
 * Texts are pseudo-words of random letters, so two honest completions share few character n-grams
 * (each group has as many diversity clusters as rollouts) while two hack answers share most. Two
 * reward components, `correct` and `format`, are independent coin flips per rollout, so neither
 * dominates the variance. Deterministic for a seed. Tests, the e2e spec and the bench use it.
 */
import { randomMulberry32 } from "../src/core/util/random.ts";

export interface HealthRunOptions {
  readonly steps?: number;
  readonly prompts?: number;
  readonly groupSize?: number;
  readonly seed?: number;
  /** Characters of an honest completion before any drift (each rollout 0.7-1.3 x this). */
  readonly baseChars?: number;
  readonly drift?: { readonly start: number; readonly rate: number } | null;
  readonly hack?: {
    readonly start: number;
    readonly share0: number;
    readonly max: number;
  } | null;
}

export interface HealthRunFile {
  readonly name: string;
  readonly text: string;
  readonly rows: number;
}

export interface HealthRun {
  readonly files: readonly HealthRunFile[];
  /** Per step, the run ids (`<step>/p<i>/<index>`) of the rollouts that use the hack. */
  readonly hackRollouts: ReadonlyMap<number, readonly string[]>;
  /** The first step whose hack share is above `threshold` (see `healthRunHackStep`). */
  readonly hackShares: ReadonlyMap<number, number>;
}

const LETTERS = "abcdefghijklmnopqrstuvwxyz";

function pseudoWord(rand: () => number): string {
  const length = 3 + Math.floor(rand() * 6);
  let w = "";
  for (let i = 0; i < length; i++) w += LETTERS[Math.floor(rand() * 26)];
  return w;
}

/** About `chars` characters of pseudo-words. */
function prose(rand: () => number, chars: number): string {
  const words: string[] = [];
  let length = 0;
  while (length < chars) {
    const w = pseudoWord(rand);
    words.push(w);
    length += w.length + 1;
  }
  return words.join(" ");
}

/** The hack's answer: one fixed template (seeded apart from the run), a few words changed. */
function hackText(template: readonly string[], rand: () => number, chars: number): string {
  const words: string[] = [];
  let length = 0;
  for (let i = 0; length < chars; i++) {
    const w = rand() < 0.04 ? pseudoWord(rand) : template[i % template.length]!;
    words.push(w);
    length += w.length + 1;
  }
  return `I will print the expected output and exit 0. ${words.join(" ")}`;
}

/** The hack share at a step (0 before it starts). */
export function healthRunHackShare(
  hack: NonNullable<HealthRunOptions["hack"]>,
  step: number,
): number {
  return step < hack.start ? 0 : Math.min(hack.max, hack.share0 * 2 ** (step - hack.start));
}

/** A generated run (see the module header). */
export function healthRun(options: HealthRunOptions = {}): HealthRun {
  const steps = options.steps ?? 20;
  const prompts = options.prompts ?? 24;
  const size = options.groupSize ?? 8;
  const seed = options.seed ?? 7;
  const base = options.baseChars ?? 600;
  const drift = options.drift ?? null;
  const hack = options.hack ?? null;
  const templateRand = randomMulberry32(seed ^ 0x5eed);
  const template = Array.from({ length: 60 }, () => pseudoWord(templateRand));
  const promptTexts = Array.from({ length: prompts }, (_, i) => {
    const r = randomMulberry32(seed * 1000 + i);
    return `Task ${i}: ${prose(r, 120)}`;
  });
  const files: HealthRunFile[] = [];
  const hackRollouts = new Map<number, string[]>();
  const hackShares = new Map<number, number>();
  for (let step = 1; step <= steps; step++) {
    const rand = randomMulberry32(seed * 7919 + step);
    const scale =
      drift === null || step < drift.start ? 1 : 1 + drift.rate * (step - drift.start + 1);
    const total = prompts * size;
    const share = hack === null ? 0 : healthRunHackShare(hack, step);
    // The hacked rollouts of the step: the first round(share x total) of a seeded shuffle.
    const order = Array.from({ length: total }, (_, i) => i);
    for (let i = total - 1; i > 0; i--) {
      const j = Math.floor(rand() * (i + 1));
      [order[i], order[j]] = [order[j]!, order[i]!];
    }
    const hacked = new Set(order.slice(0, Math.round(share * total)));
    hackShares.set(step, hacked.size / total);
    const lines: string[] = [];
    const ids: string[] = [];
    for (let p = 0; p < prompts; p++) {
      for (let i = 0; i < size; i++) {
        const chars = Math.round(base * scale * (0.7 + 0.6 * rand()));
        const isHack = hacked.has(p * size + i);
        if (isHack) ids.push(`${step}/p${p}/${i}`);
        lines.push(
          JSON.stringify({
            group_id: `p${p}`,
            step,
            prompt: promptTexts[p],
            completion: isHack ? hackText(template, rand, chars) : prose(rand, chars),
            rewards: {
              correct: isHack ? 1 : rand() < 0.5 ? 1 : 0,
              format: isHack ? 1 : rand() < 0.5 ? 1 : 0,
            },
          }),
        );
      }
    }
    if (ids.length > 0) hackRollouts.set(step, ids);
    files.push({ name: `${step}.jsonl`, text: `${lines.join("\n")}\n`, rows: lines.length });
  }
  return { files, hackRollouts, hackShares };
}

/** The first step whose planted hack share is above `threshold`, or null. */
export function healthRunHackStep(run: HealthRun, threshold: number): number | null {
  for (const [step, share] of [...run.hackShares].sort((a, b) => a[0] - b[0]))
    if (share > threshold) return step;
  return null;
}

/**
 * Annotations (version 1) of a person who read the first hacked step: the first `marks` hack
 * rollouts of that step marked as hacks, and the groups they are in reviewed (so their other
 * rollouts are judged not hacks). Empty groups when the run has no hack.
 */
export function healthRunAnnotations(run: HealthRun, marks = 2): unknown {
  const first = [...run.hackRollouts.keys()].sort((a, b) => a - b)[0];
  const groups: Record<string, unknown> = {};
  if (first !== undefined) {
    for (const id of run.hackRollouts.get(first)!.slice(0, marks)) {
      const groupId = id.slice(0, id.lastIndexOf("/"));
      const entry = (groups[groupId] ??= {
        ranking: [],
        hacks: [],
        labels: {},
        notes: "",
        reviewed: true,
      }) as { hacks: string[] };
      entry.hacks.push(id);
    }
  }
  return { version: 1, annotator: "generated", groups };
}
