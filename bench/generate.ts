/**
 * Deterministic benchmark data (performance.md sections 5, 6 and 10): every text and group comes
 * from a mulberry32 stream with a fixed seed, so two runs on any machine measure the same bytes.
 * Nothing is written to disk.
 */
import {
  randomMulberry32,
  type ResolvedAnnotation,
  type Rollout,
  type RolloutGroup,
} from "../src/core/index.ts";

type Rng = () => number;

/**
 * Syllable parts with rough English weights: words built from them have English-like character
 * n-gram diversity (performance.md section 5: ~1.3-1.7K unique 3-grams and ~7-8K unique 5-grams
 * in 20,000 characters), which random letters would overshoot several times.
 */
const ONSETS: readonly (readonly [string, number])[] = [
  ["", 14],
  ["t", 10],
  ["th", 8],
  ["s", 8],
  ["r", 6],
  ["n", 6],
  ["m", 6],
  ["l", 6],
  ["d", 6],
  ["c", 5],
  ["b", 5],
  ["p", 5],
  ["f", 4],
  ["h", 5],
  ["w", 5],
  ["g", 3],
  ["st", 3],
  ["pr", 2],
  ["tr", 2],
  ["ch", 2],
  ["sh", 2],
  ["br", 1],
  ["gr", 1],
  ["cl", 1],
  ["pl", 1],
  ["v", 2],
  ["y", 1],
];
const VOWELS: readonly (readonly [string, number])[] = [
  ["e", 14],
  ["a", 12],
  ["i", 10],
  ["o", 10],
  ["u", 4],
  ["ea", 2],
  ["ou", 2],
  ["ee", 1],
  ["ai", 1],
  ["io", 1],
  ["y", 1],
];
const CODAS: readonly (readonly [string, number])[] = [
  ["", 16],
  ["n", 8],
  ["r", 7],
  ["s", 6],
  ["t", 6],
  ["nd", 3],
  ["st", 2],
  ["ng", 3],
  ["l", 4],
  ["d", 4],
  ["m", 2],
  ["ck", 1],
  ["rt", 1],
  ["nt", 2],
  ["ll", 1],
  ["ss", 1],
  ["ve", 1],
  ["re", 1],
];

function table(parts: readonly (readonly [string, number])[]): {
  parts: readonly string[];
  cumulative: Float64Array;
} {
  return { parts: parts.map(([p]) => p), cumulative: cumulate(parts.map(([, w]) => w)) };
}

/** Index drawn from a cumulative weight table by binary search. */
function pick(cumulative: Float64Array, rng: Rng): number {
  const x = rng() * cumulative[cumulative.length - 1]!;
  let lo = 0;
  let hi = cumulative.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (cumulative[mid]! > x) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

function cumulate(weights: readonly number[]): Float64Array {
  const out = new Float64Array(weights.length);
  let sum = 0;
  weights.forEach((w, i) => (out[i] = sum += w));
  return out;
}

/** A vocabulary of distinct made-up words with Zipf(s) frequencies; frequent words are shorter. */
export class ZipfVocabulary {
  readonly words: readonly string[];
  private readonly cumulative: Float64Array;

  constructor(size: number, seed: number, s = 1.2) {
    const rng = randomMulberry32(seed);
    const onsets = table(ONSETS);
    const vowels = table(VOWELS);
    const codas = table(CODAS);
    const part = (t: ReturnType<typeof table>): string => t.parts[pick(t.cumulative, rng)]!;
    const seen = new Set<string>();
    const words: string[] = [];
    while (words.length < size) {
      const rank = words.length + 1;
      // Frequent words are short: one or two syllables, rarer ones up to three.
      const syllables = 1 + (rng() < 0.4 ? 1 : 0) + (rank > 300 && rng() < 0.3 ? 1 : 0);
      let w = "";
      for (let i = 0; i < syllables; i++) w += part(onsets) + part(vowels) + part(codas);
      if (w.length > 1 && !seen.has(w)) {
        seen.add(w);
        words.push(w);
      }
    }
    this.words = words;
    this.cumulative = cumulate(words.map((_, r) => 1 / Math.pow(r + 1, s)));
  }

  word(rng: Rng): string {
    return this.words[pick(this.cumulative, rng)]!;
  }
}

/** A text as words plus the separator after each word (punctuation, spaces, paragraph breaks). */
interface Prose {
  readonly words: string[];
  readonly separators: readonly string[];
  readonly sentenceStart: readonly boolean[];
}

function prose(vocabulary: ZipfVocabulary, chars: number, rng: Rng): Prose {
  const words: string[] = [];
  const separators: string[] = [];
  const sentenceStart: boolean[] = [];
  let length = 0;
  let left = 0;
  let sentences = 0;
  while (length < chars) {
    const start = left === 0;
    if (start) left = 6 + Math.floor(rng() * 16);
    left--;
    let sep = " ";
    if (left === 0) {
      sentences++;
      sep = sentences % (4 + Math.floor(rng() * 3)) === 0 ? ".\n\n" : rng() < 0.1 ? "? " : ". ";
    } else if (rng() < 0.08) sep = ", ";
    const w = vocabulary.word(rng);
    words.push(w);
    separators.push(sep);
    sentenceStart.push(start);
    length += w.length + sep.length;
  }
  return { words, separators, sentenceStart };
}

function render(p: Prose): string {
  let out = "";
  p.words.forEach((w, i) => {
    out += (p.sentenceStart[i] ? w[0]!.toUpperCase() + w.slice(1) : w) + p.separators[i]!;
  });
  return out.trimEnd();
}

/** A copy of the prose with each word replaced by a fresh vocabulary word with probability `rate`. */
function edit(base: Prose, rate: number, vocabulary: ZipfVocabulary, rng: Rng): Prose {
  return { ...base, words: base.words.map((w) => (rng() < rate ? vocabulary.word(rng) : w)) };
}

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
