#!/usr/bin/env node
// The `rollout-studio` command. It runs the CLI built to plain JavaScript in dist-cli/ by
// `npm run build:cli` (vite.cli.config.ts; `npm run build`, `npm start` and the test setup build it
// too). Nothing is compiled at run time: a missing build is an error that says how to make it.
// ROLLOUT_STUDIO_FROM_SOURCE=1 runs the TypeScript in src/cli through tsx instead (for working on
// the CLI; it takes seconds to start).
import { existsSync } from "node:fs";

const built = new URL("../dist-cli/rollout-studio.mjs", import.meta.url);
const io = {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  cwd: process.cwd(),
};

let main;
if (process.env.ROLLOUT_STUDIO_FROM_SOURCE === "1") {
  const { tsImport } = await import("tsx/esm/api");
  ({ main } = await tsImport("../src/cli/main.ts", import.meta.url));
} else if (existsSync(built)) {
  ({ main } = await import(built.href));
} else {
  process.stderr.write(
    "rollout-studio: the CLI is not built (dist-cli/rollout-studio.mjs is missing).\n" +
      "Build it with `npm run build:cli` in the rollout-studio folder, or run the TypeScript\n" +
      "directly with ROLLOUT_STUDIO_FROM_SOURCE=1 (slower to start).\n",
  );
  process.exit(1);
}
process.exitCode = await main(process.argv.slice(2), io);
