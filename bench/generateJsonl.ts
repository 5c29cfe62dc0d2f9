/**
 * The JSONL files the benchmarks read, built in memory from a seed: native "long rows" rollouts
 * (performance.md section 1), many small groups for the group browser, and verl step files.
 */
import { randomMulberry32 } from "../src/core/index.ts";
import { codeBlock, NON_ASCII, prose, render, ZipfVocabulary } from "./zipfText.ts";

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
