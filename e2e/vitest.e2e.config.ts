import { fileURLToPath } from "node:url";

import { defineConfig } from "vitest/config";

// End-to-end specs drive the production build in Debian's Chromium (see e2e/harness/).
// globalSetup builds once and serves dist/ for the whole run; specs run one file at a time
// because each file launches its own browser.
export default defineConfig({
  root: fileURLToPath(new URL("..", import.meta.url)),
  test: {
    name: "e2e",
    include: ["e2e/**/*.spec.ts"],
    environment: "node",
    globalSetup: ["e2e/harness/globalSetup.ts"],
    testTimeout: 60_000,
    hookTimeout: 180_000,
    fileParallelism: false,
    allowOnly: false,
  },
});
