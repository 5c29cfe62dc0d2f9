/**
 * Loads one file in a process of its own and reports how it went and the process's peak memory,
 * for zipBomb.test.ts: `node --import tsx zipBomb.child.ts FILE` prints one JSON line.
 */
import { readFileSync } from "node:fs";
import { loadBytes } from "../formats/load.ts";

const path = process.argv[2]!;
const started = Date.now();
let outcome: Record<string, unknown>;
try {
  const r = await loadBytes(path, readFileSync(path));
  outcome = { loaded: true, rollouts: r.stats.rollouts, issues: r.issues.map((i) => i.message) };
} catch (e) {
  outcome = { loaded: false, message: e instanceof Error ? e.message : String(e) };
}
// maxRSS is in kilobytes.
const maxRssMiB = process.resourceUsage().maxRSS / 1024;
process.stdout.write(`${JSON.stringify({ ...outcome, maxRssMiB, ms: Date.now() - started })}\n`);
