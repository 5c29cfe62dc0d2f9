/**
 * The benchmarks' text: a Zipf vocabulary of syllable-built words, prose made of it (and edits of
 * that prose), Python-ish code blocks, and the non-ASCII characters some rows carry.
 */
import { randomMulberry32 } from "../src/core/index.ts";

export type Rng = () => number;

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

export function prose(vocabulary: ZipfVocabulary, chars: number, rng: Rng): Prose {
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

export function render(p: Prose): string {
  let out = "";
  p.words.forEach((w, i) => {
    out += (p.sentenceStart[i] ? w[0]!.toUpperCase() + w.slice(1) : w) + p.separators[i]!;
  });
  return out.trimEnd();
}

/** A copy of the prose with each word replaced by a fresh vocabulary word with probability `rate`. */
export function edit(base: Prose, rate: number, vocabulary: ZipfVocabulary, rng: Rng): Prose {
  return { ...base, words: base.words.map((w) => (rng() < rate ? vocabulary.word(rng) : w)) };
}

/** Characters that make a row non-ASCII (performance.md section 1): arrows, curly quotes, accents, CJK, emoji. */
export const NON_ASCII = ["→", "“", "”", "é", "中文", "😀"];

/** Python-ish code blocks with quotes, backslashes and escapes, built from vocabulary words. */
export function codeBlock(vocabulary: ZipfVocabulary, rng: Rng): string {
  const name = (): string => vocabulary.word(rng).replace(/[^a-z]/g, "") || "x";
  const fn = name();
  const arg = name();
  const lines = [
    "```python",
    `def ${fn}_${name()}(${arg}, limit=${Math.floor(rng() * 100)}):`,
    `    """Return the ${name()} of ${arg} (see "${name()}")."""`,
    `    total = {"${name()}": 0, '${name()}': []}`,
    `    for i, item in enumerate(${arg}):`,
    `        if item % ${2 + Math.floor(rng() * 7)} == 0 and i < limit:`,
    `            total["${name()}"] += item  # ${name()} ${name()}`,
    `    print(f"{total!r}\\n", end="\\t")`,
    `    return total`,
    "```",
  ];
  return lines.join("\n");
}
