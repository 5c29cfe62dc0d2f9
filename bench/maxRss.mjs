// Preloaded by bench/matrix.ts (`node --import ./bench/maxRss.mjs bin/rollout-studio.mjs ...`):
// when the process exits, write its peak resident set size (getrusage's ru_maxrss through
// process.resourceUsage().maxRSS, in KiB; worker threads share the process) to the file that
// BENCH_MAXRSS_OUT names. It changes nothing else: the command runs as it would from a shell.
import { writeFileSync } from "node:fs";

const out = process.env.BENCH_MAXRSS_OUT;
if (out) process.on("exit", () => writeFileSync(out, String(process.resourceUsage().maxRSS)));
