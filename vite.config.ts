import react from "@vitejs/plugin-react";
import { defineConfig, type Plugin } from "vite";
import { bundleBudget } from "./scripts/bundleBudget.ts";
import { generateDemo } from "./scripts/generate-demo.ts";
import { DEMO_PATH } from "./src/store/demo.ts";

/**
 * The demo dataset is generated at build time from scripts/generate-demo.ts (deterministic), so no
 * data file is committed and every build, `npm start` and the e2e builds alike, serves the same one.
 */
function demoDataset(): Plugin {
  let text: string | null = null;
  const demo = (): string => (text ??= generateDemo());
  return {
    name: "rollout-studio-demo",
    configureServer(server) {
      server.middlewares.use(`/${DEMO_PATH}`, (_req, res) => {
        res.setHeader("Content-Type", "application/jsonl; charset=utf-8");
        res.end(demo());
      });
    },
    generateBundle() {
      this.emitFile({ type: "asset", fileName: DEMO_PATH, source: demo() });
    },
  };
}

/**
 * index.html's Content-Security-Policy allows no inline <style>: the build's CSS is in files. The dev
 * server injects CSS (and hot updates) as <style> elements, so `npm run dev` alone relaxes style-src.
 */
function devInlineStyles(): Plugin {
  return {
    name: "rollout-studio-dev-inline-styles",
    apply: "serve",
    transformIndexHtml(html) {
      return html.replace("style-src 'self';", "style-src 'self' 'unsafe-inline';");
    },
  };
}

// The studio is a static single-page app: `vite build` writes dist/, `vite preview` serves it.
// Nothing is fetched at run time except the bundled demo and, once the user configures one, the
// LLM judge (public/judge-csp.js allows its origin).
export default defineConfig({
  plugins: [react(), demoDataset(), bundleBudget(), devInlineStyles()],
  build: {
    target: "es2023",
    sourcemap: true,
  },
  worker: {
    format: "es",
  },
});
