/**
 * Deterministic benchmark data (performance.md sections 1, 5, 6 and 10): every text, group and
 * JSONL file comes from a mulberry32 stream with a fixed seed, so two runs on any machine measure
 * the same bytes. Nothing is written to disk: the JSONL file is built in memory.
 *
 * This module holds the text groups, the annotated group and the fingerprints, and re-exports the
 * rest: zipfText.ts (vocabulary, prose, code blocks) and generateJsonl.ts (the JSONL files).
 */
import {
  randomMulberry32,
  type ResolvedAnnotation,
  type Rollout,
  type RolloutGroup,
} from "../src/core/index.ts";
import { edit, prose, render, type Rng, ZipfVocabulary } from "./zipfText.ts";

export interface TextGroupOptions {
  readonly k: number;
  /** Approximate length of each text, in characters. */
  readonly chars: number;
  /** Number of base texts the others are edits of; 0 makes every text independent. */
  readonly modes: number;
  readonly seed: number;
  /** Range of the share of words replaced in each edit. */
  readonly minEdit?: number;
  readonly maxEdit?: number;
  readonly vocabularySize?: number;
}

/**
 * One group of texts (performance.md section 5): `modes` base texts, each text an edit of base
 * `i % modes` with 2-50% of its words replaced; or, with `modes` 0, k independent texts.
 */
export function generateTextGroup(options: TextGroupOptions): string[] {
  const { k, chars, modes, seed, minEdit = 0.02, maxEdit = 0.5, vocabularySize = 8000 } = options;
  const vocabulary = new ZipfVocabulary(vocabularySize, seed ^ 0x5eed);
  const rng = randomMulberry32(seed);
  if (modes === 0) return Array.from({ length: k }, () => render(prose(vocabulary, chars, rng)));
  const bases = Array.from({ length: modes }, () => prose(vocabulary, chars, rng));
  return Array.from({ length: k }, (_, i) => {
    const rate = minEdit + (maxEdit - minEdit) * rng();
    return render(edit(bases[i % modes]!, rate, vocabulary, rng));
  });
}

function shuffle<T>(items: T[], rng: Rng): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    [items[i], items[j]] = [items[j]!, items[i]!];
  }
  return items;
}

export interface AnnotatedGroup {
  readonly group: RolloutGroup;
  readonly rewards: readonly number[];
  /** A full best-first ranking of the passes (some tiers hold ties) and one hack, which is a pass. */
  readonly annotation: ResolvedAnnotation;
}

/**
 * One group of k rollouts (performance.md section 6) with ~`chars`-character plain completions in
 * the 4-modes shape, rewards in {0, 1} with both present, answers, test results, and a resolved
 * human annotation.
 */
export function generateAnnotatedGroup(k: number, chars: number, seed: number): AnnotatedGroup {
  const rng = randomMulberry32(seed);
  const texts = generateTextGroup({ k, chars, modes: 4, seed: seed + 1 });
  const rewards = texts.map(() => (rng() < 0.4 ? 1 : 0));
  rewards[0] = 1;
  rewards[1] = 0;
  const tests = ["t1", "t2", "t3", "t4", "t5", "t6", "t7", "t8"];
  const groupId = `bench-${seed}`;
  const rollouts: Rollout[] = texts.map((completion, index) => ({
    id: `${groupId}/${index}`,
    groupId,
    index,
    prompt: "Solve the task and report the answer.",
    messages: [],
    completion,
    reward: rewards[index]!,
    rewards: { correct: rewards[index]!, format: rng() < 0.9 ? 1 : 0 },
    answer: rewards[index] === 1 ? "42" : rng() < 0.2 ? null : String(Math.floor(rng() * 5)),
    testsPassed: tests.filter(() => rng() < (rewards[index] === 1 ? 0.8 : 0.3)),
    meta: {},
    source: { file: "bench", line: index + 1 },
  }));
  const passes = shuffle(
    rewards.flatMap((r, i) => (r === 1 ? [i] : [])),
    rng,
  );
  const ranking: number[][] = [];
  for (let p = 0; p < passes.length;) {
    const size = rng() < 0.2 ? 2 : 1;
    ranking.push(passes.slice(p, p + size));
    p += size;
  }
  return {
    group: { id: groupId, rollouts },
    rewards,
    annotation: {
      ranking,
      hacks: [passes[passes.length - 1]!],
      labels: texts.map(() => null),
      notes: "",
    },
  };
}

/** FNV-1a over strings: a short fingerprint of the generated data, printed with each metric. */
export function fingerprint(texts: readonly string[]): string {
  let h = 0x811c9dc5;
  for (const t of texts) {
    for (let i = 0; i < t.length; i++) h = Math.imul(h ^ t.charCodeAt(i), 0x01000193);
    h = Math.imul(h ^ 0xff, 0x01000193);
  }
  return (h >>> 0).toString(16).padStart(8, "0");
}

/** FNV-1a over bytes, folded with the length: a fingerprint of a generated file. */
export function fingerprintBytes(bytes: Uint8Array): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < bytes.length; i++) h = Math.imul(h ^ bytes[i]!, 0x01000193);
  h = Math.imul(h ^ (bytes.length % 0x7fffffff), 0x01000193);
  return (h >>> 0).toString(16).padStart(8, "0");
}

export { codeBlock, NON_ASCII, prose, render, ZipfVocabulary } from "./zipfText.ts";
export {
  generateGroupListJsonl,
  generateRolloutJsonl,
  generateVerlStepJsonl,
  type GroupListJsonlOptions,
  type RolloutJsonl,
  type RolloutJsonlOptions,
  type VerlStepJsonl,
  type VerlStepJsonlOptions,
} from "./generateJsonl.ts";
