#!/usr/bin/env node
// The `rollout-studio` command. It runs the TypeScript CLI in src/cli through tsx, so the CLI and the
// browser studio share one copy of src/core and src/io with no separate build step.
import { tsImport } from "tsx/esm/api";

const { main } = await tsImport("../src/cli/main.ts", import.meta.url);
process.exitCode = await main(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  cwd: process.cwd(),
});
