/**
 * `npm run bench`: every benchmark, one JSON line per metric on stdout (performance.md sections 9
 * and 10). Each metric is timed against a baseline measured in the same process on the same data,
 * with subject and baseline runs interleaved, so CI can gate on `ratio` rather than on absolute
 * milliseconds. Progress goes to stderr. The exit code is non-zero only if a correctness check
 * fails, never because of timing.
 *
 * The metrics are in analysisMetrics.ts (clustering, a group's statistics) and jsonlMetrics.ts (parse,
 * index, memory), over timing.ts's harness.
 */
import { benchCluster, benchClusterAfterGc, benchGroup } from "./analysisMetrics.ts";
import { fingerprint, generateTextGroup } from "./generate.ts";
import { benchFullParse, benchJsonlIndex } from "./jsonlMetrics.ts";
import { check, failures, sink } from "./timing.ts";

async function main(): Promise<void> {
  const started = performance.now();
  const modes = generateTextGroup({ k: 64, chars: 20000, modes: 4, seed: 20000 });
  const independent = generateTextGroup({ k: 64, chars: 20000, modes: 0, seed: 20001 });
  check(
    fingerprint(modes) ===
      fingerprint(generateTextGroup({ k: 64, chars: 20000, modes: 4, seed: 20000 })),
    "generator is not deterministic",
  );
  benchCluster("ngram.cluster.exact5.64x20KB", modes, 5);
  benchCluster("ngram.cluster.exact3.64x20KB", modes, 3);
  benchCluster("ngram.cluster.exact5.64independent", independent, 5);
  benchCluster("ngram.cluster.exact3.64independent", independent, 3);
  benchGroup();
  benchClusterAfterGc(
    "ngram.cluster.exact3.64x2KB.afterGC",
    generateTextGroup({ k: 64, chars: 2000, modes: 4, seed: 2000 }),
    3,
  );
  await benchFullParse();
  benchJsonlIndex();
  console.error(
    `done in ${((performance.now() - started) / 1000).toFixed(1)} s (sink ${sink.total})`,
  );
  if (failures.length > 0) {
    console.error(`${failures.length} correctness check(s) failed`);
    process.exitCode = 1;
  }
}

await main();
