/**
 * Builds the app once and serves dist/ with `vite preview` on a random free port, so e2e specs
 * test exactly what ships. Called by globalSetup.ts, once per e2e run.
 */
import { fileURLToPath } from "node:url";

import { build, preview } from "vite";

export interface PreviewServer {
  /** Origin of the served build, e.g. "http://127.0.0.1:41234", without a trailing slash. */
  url: string;
  close: () => Promise<void>;
}

const REPO_ROOT = fileURLToPath(new URL("../..", import.meta.url));
const HOST = "127.0.0.1";

/**
 * Runs `vite build` with NODE_ENV forced to "production" for its duration. Vitest sets NODE_ENV to
 * "test" in its own process, and Vite keeps an already-set NODE_ENV, which would bundle React's
 * development build instead of the one users get.
 */
async function buildForProduction(): Promise<void> {
  const previous = process.env.NODE_ENV;
  process.env.NODE_ENV = "production";
  try {
    await build({
      root: REPO_ROOT,
      mode: "production",
      logLevel: "warn",
      build: { outDir: "dist" },
    });
  } finally {
    if (previous === undefined) {
      delete process.env.NODE_ENV;
    } else {
      process.env.NODE_ENV = previous;
    }
  }
}

export async function startPreviewServer(): Promise<PreviewServer> {
  await buildForProduction();
  const server = await preview({
    root: REPO_ROOT,
    logLevel: "warn",
    build: { outDir: "dist" },
    preview: { host: HOST, port: 0, strictPort: true, open: false },
  });
  const address = server.httpServer.address();
  if (address === null || typeof address === "string") {
    await server.close();
    throw new Error(`vite preview is not listening on a TCP port (address: ${String(address)}).`);
  }
  return {
    url: `http://${HOST}:${address.port}`,
    close: () => server.close(),
  };
}
