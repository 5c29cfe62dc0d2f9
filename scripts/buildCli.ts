/**
 * Builds the `rollout-studio` command (vite.cli.config.ts: dist-cli/rollout-studio.mjs, which
 * bin/rollout-studio.mjs runs, and dist-cli/analyze-thread.mjs). The unit tests' globalSetup (vitest.config.ts) and the e2e
 * globalSetup call it once per run, so every spawned CLI runs the current source as built
 * JavaScript, on a clean checkout too.
 */
import { fileURLToPath } from "node:url";

import { build } from "vite";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

export async function buildCli(): Promise<void> {
  // The CLI, then analyze's worker thread beside it (dist-cli/analyze-thread.mjs), as
  // `npm run build:cli` does.
  for (const mode of ["production", "analyze-thread"])
    await build({
      root: ROOT,
      configFile: `${ROOT}vite.cli.config.ts`,
      mode,
      logLevel: "warn",
    });
}

/** Vitest globalSetup: build the CLI before the tests run. */
export default async function setup(): Promise<void> {
  await buildCli();
}
