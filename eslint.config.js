// @ts-check
import js from "@eslint/js";
import jsxA11y from "eslint-plugin-jsx-a11y";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

/**
 * Import boundaries (../shared/docs/style.md section 7):
 *   core    -> nothing in src; no react, zustand, openai, recharts, DOM or Worker.
 *   io      -> core
 *   workers -> core, io
 *   store   -> core, io, workers/computeClient
 *   ui      -> store, core, ui/components (features never import each other)
 *   server  -> core, io (the `view` server; never ui, store, workers or cli)
 *   cli     -> core, io, server (never ui, store or workers)
 * A pattern is a regex over the import specifier, so it catches relative paths ("../../ui/x").
 */
const layer = (/** @type {string} */ name) => `(^|/)(src/)?${name}(/|$)`;
const ban = (/** @type {string} */ name, /** @type {string} */ why) => ({
  regex: layer(name),
  message: why,
});
const UI_ONLY_LIBS = ["recharts", "@tanstack/react-table", "@tanstack/react-virtual"].map(
  (name) => ({ name, message: "Charts, tables and the virtualiser belong in src/ui only." }),
);
const CORE_BANNED_LIBS = [
  "react",
  "react-dom",
  "zustand",
  "openai",
  ...UI_ONLY_LIBS.map((l) => l.name),
].map((name) => ({
  name,
  message: "src/core is pure TypeScript: no UI, state or network libraries.",
}));

const WORKER_BANS = [
  ban("ui", "workers import core and io only."),
  ban("store", "workers import core and io only."),
];

export default tseslint.config(
  { ignores: ["dist", "dist-cli", "coverage", "node_modules", "bench/.data", "e2e/.artifacts"] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      ecmaVersion: 2023,
      globals: { ...globals.browser, ...globals.node },
      parserOptions: {
        projectService: { allowDefaultProject: ["*.js", "bin/*.mjs"] },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      "@typescript-eslint/no-floating-promises": ["error", { ignoreVoid: false }],
      "@typescript-eslint/consistent-type-imports": "error",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_" }],
      "no-console": ["error", { allow: ["warn", "error"] }],
    },
  },
  {
    files: ["**/*.tsx"],
    plugins: { "react-hooks": reactHooks, "jsx-a11y": jsxA11y },
    rules: {
      ...reactHooks.configs.recommended.rules,
      "react-hooks/exhaustive-deps": "error",
      ...jsxA11y.flatConfigs.recommended.rules,
    },
  },
  {
    files: ["src/core/**/*.ts"],
    ignores: ["src/core/**/*.test.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          paths: CORE_BANNED_LIBS,
          patterns: [
            ban("io", "core imports nothing from src outside core."),
            ban("ui", "core imports nothing from src outside core."),
            ban("store", "core imports nothing from src outside core."),
            ban("workers", "core imports nothing from src outside core."),
            ban("cli", "core imports nothing from src outside core."),
            {
              group: ["node:*"],
              message: "core runs in the browser and in Node: no Node built-ins.",
            },
          ],
        },
      ],
      "no-restricted-globals": [
        "error",
        { name: "document", message: "core is pure: no DOM." },
        { name: "window", message: "core is pure: no DOM." },
        { name: "Worker", message: "core is pure: workers live in src/workers." },
        { name: "fetch", message: "core is pure: no network." },
        { name: "localStorage", message: "core is pure: no storage." },
      ],
    },
  },
  {
    files: ["src/io/**/*.ts"],
    ignores: ["src/io/**/*.test.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          paths: UI_ONLY_LIBS.concat([
            { name: "react", message: "io is a boundary layer: no UI." },
            { name: "zustand", message: "io holds no state." },
          ]),
          patterns: [
            ban("ui", "io imports only core."),
            ban("store", "io imports only core."),
            ban("workers", "io imports only core."),
            ban("cli", "io imports only core."),
          ],
        },
      ],
    },
  },
  {
    files: ["src/cli/**/*.ts"],
    rules: {
      "no-console": "off",
      "no-restricted-imports": [
        "error",
        {
          paths: UI_ONLY_LIBS,
          patterns: [
            ban("ui", "the CLI builds on core and io only."),
            ban("store", "the CLI builds on core and io only."),
            ban("workers", "the CLI builds on core and io only."),
          ],
        },
      ],
    },
  },
  {
    files: ["src/server/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          paths: UI_ONLY_LIBS.concat([{ name: "react", message: "the server has no UI code." }]),
          patterns: [
            ban("ui", "the server builds on core and io only."),
            ban("store", "the server builds on core and io only."),
            ban("workers", "the server builds on core and io only."),
            ban("cli", "the server builds on core and io only."),
          ],
        },
      ],
    },
  },
  {
    files: ["src/workers/**/*.ts"],
    rules: {
      "no-restricted-imports": ["error", { paths: UI_ONLY_LIBS, patterns: WORKER_BANS }],
    },
  },
  {
    // The browser's workers (the load worker, its nested index workers) and what they import run
    // in the page's workers: no Node built-ins. Node's index threads (nodeIndex*.ts) are the
    // bench's and tests' side of the same index pool.
    files: ["src/workers/**/*.ts"],
    ignores: ["src/workers/nodeIndex*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          paths: UI_ONLY_LIBS,
          patterns: [
            ...WORKER_BANS,
            {
              group: ["node:*"],
              message:
                "browser workers have no Node built-ins (Node's index threads: nodeIndex*.ts).",
            },
            {
              regex: "(^|/)nodeIndex",
              message:
                "Node's index pool is for the bench and tests; the browser uses browserIndexPool.",
            },
          ],
        },
      ],
    },
  },
  {
    files: ["src/store/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        { paths: UI_ONLY_LIBS, patterns: [ban("ui", "the store never imports UI.")] },
      ],
    },
  },
  {
    files: ["src/ui/components/**/*.{ts,tsx}"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            ban("store", "presentational components take props; they never read the store."),
          ],
        },
      ],
    },
  },
  {
    // Features are composed in ui/app; one never imports another (style.md section 7). A feature
    // folder is flat, so `../<name>/` from a feature file is always another feature.
    files: ["src/ui/features/**/*.{ts,tsx}"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              regex: "^\\.\\./[^.]",
              message: "features never import each other; compose them in ui/app.",
            },
          ],
        },
      ],
    },
  },
  {
    // Size (issue 17): a source file stays under 500 lines and a function under 150, so each
    // reads in one sitting; split by concern (ARCHITECTURE.md). Tests and e2e specs are exempt.
    files: ["src/**/*.{ts,tsx}", "bench/**/*.ts", "scripts/**/*.ts", "bin/**/*.mjs"],
    ignores: ["**/*.test.{ts,tsx}"],
    rules: {
      "max-lines": ["error", { max: 500, skipBlankLines: false, skipComments: false }],
      "max-lines-per-function": [
        "error",
        { max: 150, skipBlankLines: true, skipComments: true, IIFEs: true },
      ],
    },
  },
  {
    files: ["bench/**/*.ts", "e2e/**/*.ts", "bin/**/*.mjs", "*.config.ts"],
    rules: { "no-console": "off" },
  },
  {
    files: ["**/*.js", "**/*.mjs"],
    ...tseslint.configs.disableTypeChecked,
  },
);
