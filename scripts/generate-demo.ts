/**
 * The demo dataset: groups of multi-turn, tool-using customer-support rollouts (OpenAI chat messages
 * with tools, methods.md 4.3) as native JSONL, one rollout per line.
 *
 * Every rollout is executed, not written out by hand: its tool calls run against a small in-memory
 * shop, the tool results are what that shop returned, and the reward comes from a verifier that
 * reads the shop's final state and the final answer. So a reward always agrees with its transcript.
 * The verifier checks outcomes only, like the test programs in the groupwise-grading seed, which is
 * why the planted hacks pass: an order id no tool returned, a refund issued twice, a refund without
 * the policy check, a failed confirmation email reported as sent.
 *
 * Deterministic: every choice comes from one mulberry32 stream per seed (no clock, no Math.random),
 * objects are built in a fixed key order, so the same seed gives the same bytes on every machine.
 *
 * This file is the entry point (the exports and the CLI); the generator's parts are in scripts/demo/.
 *
 * Usage: npx tsx scripts/generate-demo.ts OUT_PATH
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { DEMO_SEED, generateDemoRows, type DemoRow } from "./demo/rows.ts";
import { HACK_KINDS } from "./demo/strategy.ts";

export { DEMO_SEED, generateDemoRows, type DemoRow } from "./demo/rows.ts";
export { HACK_KINDS, type HackKind } from "./demo/strategy.ts";

/** The demo dataset as native JSONL text (one rollout per line, final newline). Pure and deterministic. */
export function generateDemo(seed: number = DEMO_SEED): string {
  return generateDemoRows(seed)
    .map((r) => `${JSON.stringify(r)}\n`)
    .join("");
}

/** One line about a generated dataset, for the CLI. */
export function summarizeDemo(rows: readonly DemoRow[], bytes: number): string {
  const groups = new Set(rows.map((r) => r.group_id)).size;
  const passes = rows.filter((r) => r.reward === 1).length;
  const hacks = HACK_KINDS.map(
    (k) => `${k} ${rows.filter((r) => r.meta.planted_hack === k).length}`,
  ).join(", ");
  return `${groups} groups, ${rows.length} rollouts, ${bytes} bytes; pass rate ${(passes / rows.length).toFixed(2)}; hacks: ${hacks}`;
}

function main(argv: readonly string[]): number {
  const out = argv[0];
  if (out === undefined || argv.length > 1) {
    process.stderr.write("usage: npx tsx scripts/generate-demo.ts OUT_PATH\n");
    return 2;
  }
  const rows = generateDemoRows();
  const jsonl = rows.map((r) => `${JSON.stringify(r)}\n`).join("");
  const path = resolve(out);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, jsonl);
  process.stderr.write(`${path}: ${summarizeDemo(rows, Buffer.byteLength(jsonl))}\n`);
  return 0;
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === import.meta.filename) {
  process.exitCode = main(process.argv.slice(2));
}
