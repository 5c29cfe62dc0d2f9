/**
 * Deterministic benchmark data (performance.md sections 1, 5, 6 and 10): every text, group and
 * JSONL file comes from a mulberry32 stream with a fixed seed, so two runs on any machine measure
 * the same bytes. Nothing is written to disk: the JSONL file is built in memory.
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

/** Characters that make a row non-ASCII (performance.md section 1): arrows, curly quotes, accents, CJK, emoji. */
export const NON_ASCII = ["→", "“", "”", "é", "中文", "😀"];

export interface RolloutJsonlOptions {
  /** Stop adding rows once the file has at least this many bytes. */
  readonly targetBytes: number;
  readonly seed: number;
  /** Row sizes are log-uniform in [minRowBytes, maxRowBytes] (approximately; text is added in paragraphs). */
  readonly minRowBytes?: number;
  readonly maxRowBytes?: number;
  /** Share of rows holding `prompt` + `completion`; the others hold `messages` with tool calls. */
  readonly completionShare?: number;
  /** Share of rows containing non-ASCII characters. */
  readonly nonAsciiShare?: number;
}

export interface RolloutJsonl {
  /** The file: one JSON object per line, each line ending in LF. */
  readonly bytes: Uint8Array;
  readonly rows: number;
  readonly groups: number;
  readonly nonAsciiRows: number;
}

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

/**
 * A JSONL file in the native format with performance.md section 1's "long rows" shape: each row has
 * `id`, `group_id`, `prompt_id`, `step`, `reward`, `rewards` and `meta`, then either `prompt` +
 * `completion` (30%) or a `messages` transcript (70%) with system/user/assistant/tool turns and
 * `tool_calls` whose arguments are JSON strings (so escaped quotes). Text is Zipf prose with code
 * blocks, newlines and quotes; 10% of rows contain non-ASCII. Rows come in groups of 4-64.
 */
export function generateRolloutJsonl(options: RolloutJsonlOptions): RolloutJsonl {
  const {
    targetBytes,
    seed,
    minRowBytes = 10_000,
    maxRowBytes = 200_000,
    completionShare = 0.3,
    nonAsciiShare = 0.1,
  } = options;
  const rng = randomMulberry32(seed);
  const vocabulary = new ZipfVocabulary(8000, seed ^ 0x10c5);
  // A pool of paragraphs and code blocks: rows are assembled from it, so 200 MB builds in seconds.
  const paragraphs = Array.from({ length: 400 }, () =>
    render(prose(vocabulary, 100 + Math.floor(rng() * 1900), rng)),
  );
  const code = Array.from({ length: 40 }, () => codeBlock(vocabulary, rng));
  const piece = (nonAscii: boolean): string => {
    let p =
      rng() < 0.15
        ? code[Math.floor(rng() * code.length)]!
        : paragraphs[Math.floor(rng() * paragraphs.length)]!;
    if (nonAscii) {
      const at = Math.floor(rng() * p.length);
      p = `${p.slice(0, at)} ${NON_ASCII[Math.floor(rng() * NON_ASCII.length)]!} ${p.slice(at)}`;
    }
    return p;
  };
  const text = (chars: number, nonAscii: boolean): string => {
    const parts: string[] = [];
    let length = 0;
    while (length < chars) {
      const p = piece(nonAscii);
      parts.push(p);
      length += p.length + 2;
    }
    return parts.join("\n\n");
  };

  const out = new Uint8Array(targetBytes + maxRowBytes * 2 + 1024);
  const encoder = new TextEncoder();
  let size = 0;
  let rows = 0;
  let groups = 0;
  let nonAsciiRows = 0;
  const groupSizes = [4, 8, 8, 16, 16, 32, 64];
  while (size < targetBytes) {
    const k = groupSizes[Math.floor(rng() * groupSizes.length)]!;
    const groupId = `g-${seed}-${groups.toString().padStart(5, "0")}`;
    const promptId = `p-${Math.floor(rng() * 1e6)}`;
    const step = Math.floor(rng() * 500);
    const task = text(300 + Math.floor(rng() * 1500), false);
    for (let i = 0; i < k && size < targetBytes; i++) {
      const rowBytes = Math.exp(
        Math.log(minRowBytes) + rng() * (Math.log(maxRowBytes) - Math.log(minRowBytes)),
      );
      const nonAscii = rng() < nonAsciiShare;
      if (nonAscii) nonAsciiRows++;
      const correct = rng() < 0.4 ? 1 : 0;
      const format = rng() < 0.9 ? 1 : 0;
      const row: Record<string, unknown> = {
        id: `${groupId}/${i}`,
        group_id: groupId,
        prompt_id: promptId,
        step,
        reward: correct + 0.1 * format,
        rewards: { correct, format },
        meta: {
          model: "policy-7b",
          temperature: 0.7 + Math.floor(rng() * 4) / 10,
          seed: Math.floor(rng() * 2 ** 31),
          finish_reason: rng() < 0.9 ? "stop" : "length",
          tags: ["bench", `k${k}`],
        },
      };
      const budget = Math.max(0, rowBytes - 400);
      if (rng() < completionShare) {
        row.prompt = task;
        row.completion = text(Math.max(100, budget - task.length), nonAscii);
      } else {
        const messages: unknown[] = [
          { role: "system", content: "You are a careful agent. Use tools when they help." },
          { role: "user", content: task },
        ];
        let used = task.length + 120;
        let call = 0;
        while (used < budget) {
          const say = text(200 + Math.floor(rng() * 3000), nonAscii);
          const turn: Record<string, unknown> = { role: "assistant", content: say };
          used += say.length + 40;
          if (rng() < 0.6) {
            const id = `call_${call++}`;
            const args = JSON.stringify({
              path: `src/${vocabulary.word(rng)}.py`,
              query: piece(nonAscii).slice(0, 200),
              limit: Math.floor(rng() * 50),
            });
            turn.tool_calls = [
              { id, type: "function", function: { name: "search", arguments: args } },
            ];
            const result = text(200 + Math.floor(rng() * 4000), nonAscii);
            messages.push(turn, { role: "tool", tool_call_id: id, content: result });
            used += args.length + result.length + 120;
          } else messages.push(turn);
        }
        row.messages = messages;
      }
      const written = encoder.encodeInto(`${JSON.stringify(row)}\n`, out.subarray(size));
      size += written.written;
      rows++;
    }
    groups++;
  }
  return { bytes: out.subarray(0, size), rows, groups, nonAsciiRows };
}

/** FNV-1a over bytes, folded with the length: a fingerprint of a generated file. */
export function fingerprintBytes(bytes: Uint8Array): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < bytes.length; i++) h = Math.imul(h ^ bytes[i]!, 0x01000193);
  h = Math.imul(h ^ (bytes.length % 0x7fffffff), 0x01000193);
  return (h >>> 0).toString(16).padStart(8, "0");
}

export interface GroupListJsonlOptions {
  readonly groups: number;
  readonly rolloutsPerGroup: number;
  readonly seed: number;
}

/**
 * Many small groups for the group browser's scroll benchmark (performance.md section 9 T8): native
 * JSONL, `rolloutsPerGroup` rows per group, a short prompt on each group's first row (the browser's
 * preview) and a few words of completion on every row; rewards in {0, 1}, each group with its own
 * pass rate, so mixed, all-pass and all-fail groups all occur. About 70 bytes per row, so 100,000
 * groups of 4 (28 MB) stay under the studio's 32 MiB index threshold and load whole.
 */
export function generateGroupListJsonl(options: GroupListJsonlOptions): string {
  const { groups, rolloutsPerGroup, seed } = options;
  const rng = randomMulberry32(seed);
  const vocabulary = new ZipfVocabulary(2000, seed ^ 0x5eed);
  const words = (n: number): string =>
    Array.from({ length: n }, () => vocabulary.word(rng)).join(" ");
  const lines: string[] = [];
  for (let g = 0; g < groups; g++) {
    const id = `g${String(g).padStart(6, "0")}`;
    const passRate = rng();
    for (let k = 0; k < rolloutsPerGroup; k++) {
      const row: Record<string, unknown> = { group_id: id };
      if (k === 0) row.prompt = words(3 + Math.floor(rng() * 6));
      row.completion = words(1 + Math.floor(rng() * 3));
      row.reward = rng() < passRate ? 1 : 0;
      lines.push(JSON.stringify(row));
    }
  }
  return `${lines.join("\n")}\n`;
}

export interface VerlStepJsonlOptions {
  /** The step: the file is `{step}.jsonl` and every row carries it. */
  readonly step: number;
  /** Stop adding groups once the file has at least this many bytes. */
  readonly targetBytes: number;
  readonly seed: number;
  /** Responses per prompt (verl's `rollout.n`). */
  readonly groupSize?: number;
}

export interface VerlStepJsonl {
  readonly bytes: Uint8Array;
  readonly rows: number;
  readonly groups: number;
}

/**
 * One step file of a verl rollout dump (`rollout_data_dir/{step}.jsonl`, src/io/formats/verl.ts) in
 * the "small rows" shape: rows of about 1.7 KB (`input` a chat-templated prompt of 250-650
 * characters, numbered, so unique in its step, and shared by the group's `groupSize` responses; `output` 520-1,580 characters of Zipf
 * prose, sometimes with a code block; `gts`, `score` in {0, 1} with each prompt's own pass rate,
 * `step`, `acc`). Deterministic for (seed, step). The rows of a group are adjacent, as verl writes
 * them without `balance_batch`.
 */
export function generateVerlStepJsonl(options: VerlStepJsonlOptions): VerlStepJsonl {
  const { step, targetBytes, seed, groupSize = 8 } = options;
  const rng = randomMulberry32((seed * 0x9e3779b1) ^ step);
  const vocabulary = new ZipfVocabulary(8000, seed ^ 0x7e51);
  const paragraphs = Array.from({ length: 300 }, () =>
    render(prose(vocabulary, 150 + Math.floor(rng() * 600), rng)),
  );
  const code = Array.from({ length: 20 }, () => codeBlock(vocabulary, rng));
  const text = (chars: number): string => {
    const parts: string[] = [];
    let length = 0;
    while (length < chars) {
      const p =
        rng() < 0.1
          ? code[Math.floor(rng() * code.length)]!
          : paragraphs[Math.floor(rng() * paragraphs.length)]!;
      const room = chars - length;
      parts.push(p.length > room + 100 ? p.slice(0, room + 1) : p);
      length += parts.at(-1)!.length + 1;
    }
    return parts.join("\n");
  };
  const chunks: string[] = [];
  let size = 0;
  let rows = 0;
  let groups = 0;
  while (size < targetBytes) {
    const question = text(200 + Math.floor(rng() * 400));
    const input = `<|im_start|>system\nPlease reason step by step.<|im_end|>\n<|im_start|>user\nProblem ${step}.${groups}. ${question}<|im_end|>\n<|im_start|>assistant\n`;
    const answer = String(Math.floor(rng() * 1000));
    const passRate = rng() < 0.3 ? (rng() < 0.5 ? 0 : 1) : rng();
    for (let i = 0; i < groupSize; i++) {
      const correct = rng() < passRate;
      const output = `${text(520 + Math.floor(rng() * 1060))}\nThe answer is \\boxed{${correct ? answer : String(Math.floor(rng() * 1000))}}.`;
      const line = `${JSON.stringify({ input, output, gts: answer, score: correct ? 1 : 0, step, acc: correct })}\n`;
      chunks.push(line);
      size += line.length;
      rows++;
    }
    groups++;
  }
  return { bytes: new TextEncoder().encode(chunks.join("")), rows, groups };
}
