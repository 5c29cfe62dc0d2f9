import react from "@vitejs/plugin-react";
import { defineConfig } from "vitest/config";

// Two projects, as style.md asks: core, io, cli, server and the worker clients in Node (fast, no DOM); ui in jsdom.
// End-to-end specs have their own config (e2e/vitest.e2e.config.ts) and run against the build.
export default defineConfig({
  plugins: [react()],
  test: {
    allowOnly: false,
    // Tests assert results, never time: the heavy property tests (1000 texts, every schedule) take
    // seconds under coverage on a loaded 2-core machine, and vitest's 5 s default would fail them.
    testTimeout: 60_000,
    // The CLI tests spawn bin/rollout-studio.mjs, which runs the built JavaScript: build it once.
    globalSetup: ["scripts/buildCli.ts"],
    coverage: {
      provider: "v8",
      include: ["src/core/**/*.ts"],
      exclude: ["src/core/**/*.test.ts", "src/core/index.ts"],
      thresholds: { lines: 90 },
      reporter: ["text-summary"],
    },
    projects: [
      {
        extends: true,
        test: {
          name: "node",
          environment: "node",
          include: ["src/{core,io,cli,server,test,workers}/**/*.test.ts"],
        },
      },
      {
        extends: true,
        test: {
          name: "ui",
          environment: "jsdom",
          include: ["src/{ui,store}/**/*.test.{ts,tsx}"],
        },
      },
    ],
  },
});
