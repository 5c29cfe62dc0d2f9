import { defineConfig } from "vite";

/**
 * The `rollout-studio` command as plain JavaScript for Node 20 (`npm run build:cli`): Vite's SSR
 * build of src/cli/main.ts into dist-cli/rollout-studio.mjs, which bin/rollout-studio.mjs runs.
 * Only Node's built-ins stay external: the source (src/cli, src/core, src/io) and the packages it
 * uses are bundled, so the built CLI needs no node_modules at run time. Each command is a dynamic import
 * (src/cli/commands/index.ts) and so its own chunk: `--help` loads only the entry.
 */
/**
 * `--mode analyze-thread` builds the worker thread `analyze` reads and analyses groups in
 * (src/cli/analyzeThreads/thread.ts) into dist-cli/analyze-thread.mjs, one file of its own, after
 * the CLI's build: built together they shared chunks, and the CLI's entry then imported one
 * statically, so `--help` loaded more than the entry.
 */
export default defineConfig(({ mode }) => {
  const thread = mode === "analyze-thread";
  return {
    // No public/ copy and no index.html: this build is the CLI only.
    publicDir: false,
    logLevel: "warn",
    build: {
      ssr: thread ? "src/cli/analyzeThreads/thread.ts" : "src/cli/main.ts",
      target: "node20",
      outDir: "dist-cli",
      // The thread's build adds its file beside the CLI's.
      emptyOutDir: !thread,
      sourcemap: true,
      minify: false,
      rollupOptions: {
        output: {
          format: "es",
          entryFileNames: thread ? "analyze-thread.mjs" : "rollout-studio.mjs",
          chunkFileNames: "chunks/[name]-[hash].mjs",
          ...(thread ? { codeSplitting: false } : {}),
        },
      },
    },
    // Dependencies are bundled too: zod alone is some 70 ES modules, and resolving and loading
    // them one by one from node_modules cost most of a small `analyze`'s start.
    ssr: { target: "node", noExternal: true },
  };
});
