// Preloaded by bench/matrix.ts (`node --import ./bench/maxRss.mjs bin/rollout-studio.mjs ...`):
// when the process exits, write its peak resident set size (getrusage's ru_maxrss through
// process.resourceUsage().maxRSS, in KiB; worker threads share the process) to the file that
// BENCH_MAXRSS_OUT names. It changes nothing else: the command runs as it would from a shell.
// A command the bin reruns in a child Node with a larger heap (bin/rollout-studio.mjs) preloads
// this in both: the child writes first, and the file keeps the larger of the two.
import { readFileSync, writeFileSync } from "node:fs";

const out = process.env.BENCH_MAXRSS_OUT;
if (out)
  process.on("exit", () => {
    let before = 0;
    try {
      before = Number(readFileSync(out, "utf8")) || 0;
    } catch {
      before = 0;
    }
    writeFileSync(out, String(Math.max(before, process.resourceUsage().maxRSS)));
  });
