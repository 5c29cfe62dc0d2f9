/**
 * Generated run folders for tests (issue 14): a verl step dump and TRL completions tables as
 * Parquet (hyparquet-writer, in the columns of the committed fixture
 * src/io/__fixtures__/trl/completions_00040.parquet). The CLI's run tests, the watch test and the
 * run-folder e2e spec write them into temporary folders.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parquetWriteBuffer } from "hyparquet-writer";

/** verl's row: input, output, gts, score, step (src/io/formats/verl.ts). */
export const verlLine = (step: number, prompt: string, score: number, i: number): string =>
  JSON.stringify({
    input: `user\n${prompt}\nassistant\n`,
    output: `answer ${i} ${score}`,
    gts: "4",
    score,
    step,
    acc: score > 0,
  });

/** A verl dump of `steps`: two prompts per step, four responses each (one group mixed, one not). */
export function writeVerlFolder(dir: string, steps: readonly number[]): void {
  mkdirSync(dir, { recursive: true });
  for (const step of steps) {
    const lines: string[] = [];
    for (let i = 0; i < 4; i++) lines.push(verlLine(step, "Solve 2+2.", i % 2, i));
    for (let i = 0; i < 4; i++) lines.push(verlLine(step, "What is 3*5?", 1, i));
    writeFileSync(join(dir, `${step}.jsonl`), `${lines.join("\n")}\n`);
  }
}

/** TRL's completions table (step, prompt, completion, reward columns, advantage) as Parquet. */
export function trlParquet(step: number): Uint8Array {
  const prompts = [
    "What is 7*6?",
    "What is 7*6?",
    "What is 7*6?",
    "Name a prime.",
    "Name a prime.",
  ];
  const correct = [2, 0, 2, 2, 0];
  const buffer = parquetWriteBuffer({
    columnData: [
      { name: "step", data: prompts.map(() => BigInt(step)), type: "INT64" },
      {
        name: "prompt",
        data: prompts.map((p) => `<|im_start|>user\n${p}<|im_end|>\n`),
        type: "STRING",
      },
      { name: "completion", data: prompts.map((_, i) => `completion ${i}`), type: "STRING" },
      { name: "format_reward", data: prompts.map(() => 1), type: "DOUBLE" },
      { name: "correctness_reward", data: correct, type: "DOUBLE" },
      { name: "advantage", data: correct.map((c) => c - 1), type: "DOUBLE" },
    ],
  });
  return new Uint8Array(buffer);
}
