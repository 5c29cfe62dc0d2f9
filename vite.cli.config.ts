import { defineConfig } from "vite";

/**
 * The `rollout-studio` command as plain JavaScript for Node 20 (`npm run build:cli`): Vite's SSR
 * build of src/cli/main.ts into dist-cli/rollout-studio.mjs, which bin/rollout-studio.mjs runs, and of
 * the analyze thread into dist-cli/analyze-thread.mjs.
 * Only Node's built-ins stay external: the source (src/cli, src/core, src/io) and the packages it
 * uses are bundled, so the built CLI needs no node_modules at run time. Each command is a dynamic import
 * (src/cli/commands/index.ts) and so its own chunk: `--help` loads only the entry.
 */
export default defineConfig({
  // No public/ copy and no index.html: this build is the CLI only.
  publicDir: false,
  logLevel: "warn",
  build: {
    // Two entries: the CLI, and the worker thread `analyze` reads and analyses groups in
    // (src/cli/analyzeThreads), which finds itself beside the CLI as dist-cli/analyze-thread.mjs.
    ssr: true,
    target: "node20",
    outDir: "dist-cli",
    emptyOutDir: true,
    sourcemap: true,
    minify: false,
    rollupOptions: {
      input: {
        "rollout-studio": "src/cli/main.ts",
        "analyze-thread": "src/cli/analyzeThreads/thread.ts",
      },
      output: {
        format: "es",
        entryFileNames: "[name].mjs",
        chunkFileNames: "chunks/[name]-[hash].mjs",
      },
    },
  },
  // Dependencies are bundled too: zod alone is some 70 ES modules, and resolving and loading them
  // one by one from node_modules cost most of a small `analyze`'s start.
  ssr: { target: "node", noExternal: true },
});
