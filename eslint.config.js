// @ts-check
import js from "@eslint/js";
import jsxA11y from "eslint-plugin-jsx-a11y";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

/**
 * Import boundaries (../shared/docs/style.md section 7), as the zones below enforce them; a layer
 * imports from src only what its line lists ("types": `import type` only, which is erased):
 *   core       -> nothing; no react, zustand, openai, charts, Node built-ins, DOM or Worker.
 *   io         -> core; no react, zustand or charts.
 *   workers    -> core, io; browser workers no Node built-ins.
 *   store      -> core, io, the workers' *Client.ts and yieldTask (other worker modules: types).
 *   ui/app     -> features, components, store, core; io: types.
 *   features   -> store, core, components; io: types (nor `import()`); never another feature.
 *   components -> core; io: types.
 *   server     -> core, io (the `view` server).
 *   cli        -> core, io, server.
 * Tests may also import what they exercise or build fixtures with: store tests the server, ui
 * tests io. A pattern is a regex over the import specifier, so it catches relative paths.
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
  ban("server", "workers import core and io only."),
  ban("cli", "workers import core and io only."),
];

const STORE_BANS = [
  ban("ui", "the store never imports UI."),
  ban("cli", "the store never imports the CLI."),
];

/**
 * ui reads data through the store: io's types may be imported (`import type` is erased, so none of
 * io runs in or is bundled with the view), never its code. Features and app get it from the store.
 */
const IO_TYPES_ONLY = {
  regex: layer("io"),
  allowTypeImports: true,
  message: "ui imports io's types only (`import type`); take io's functions from the store.",
};
/** The same for a dynamic `import()`, which no-restricted-imports does not see. */
const IO_DYNAMIC_IMPORT = {
  selector: "ImportExpression[source.value=/(^|\\x2F)(src\\x2F)?io(\\x2F|$)/]",
  message: "ui never loads io's code; the store does (e.g. store/annotationsFile.ts).",
};
const UI_BANS = [
  ban("workers", "ui reaches the workers through the store."),
  ban("server", "ui never imports the view server; the store talks to it over HTTP."),
  ban("cli", "ui never imports the CLI."),
];

/**
 * One ui folder's import rule: its own bans plus ui's. Its tests may run io (to build fixtures or
 * check io's rules in the feature's context); everything else holds them to io's types.
 * typescript-eslint's rule replaces the core one here because only it knows `import type`.
 */
const uiZone = (/** @type {string} */ dir, /** @type {Record<string, unknown>[]} */ own) => [
  {
    files: [`${dir}/**/*.{ts,tsx}`],
    ignores: [`${dir}/**/*.test.{ts,tsx}`],
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        { patterns: [...own, IO_TYPES_ONLY, ...UI_BANS] },
      ],
      "no-restricted-syntax": ["error", IO_DYNAMIC_IMPORT],
    },
  },
  {
    files: [`${dir}/**/*.test.{ts,tsx}`],
    rules: {
      "@typescript-eslint/no-restricted-imports": ["error", { patterns: [...own, ...UI_BANS] }],
    },
  },
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
            ban("server", "core imports nothing from src outside core."),
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
            ban("server", "io imports only core."),
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
    // The store starts the workers through their clients (the main thread's side of each worker);
    // the worker modules themselves only as types (protocols).
    files: ["src/store/**/*.ts"],
    ignores: ["src/store/**/*.test.ts"],
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        {
          paths: UI_ONLY_LIBS,
          patterns: [
            ...STORE_BANS,
            ban("server", "the store talks to the view server over HTTP, never imports it."),
            {
              regex:
                "(^|/)(src/)?workers/(?!(loadClient|computeClient|verifyClient|healthClient|yieldTask)\\.ts$)",
              allowTypeImports: true,
              message:
                "the store runs workers through their clients; other worker modules as types only.",
            },
          ],
        },
      ],
    },
  },
  {
    // A store test may start the view server the store talks to.
    files: ["src/store/**/*.test.ts"],
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        { paths: UI_ONLY_LIBS, patterns: STORE_BANS },
      ],
    },
  },
  ...uiZone("src/ui/app", []),
  ...uiZone("src/ui/components", [
    ban("store", "presentational components take props; they never read the store."),
    ban("features", "components are shared by features; they never import one."),
    ban("app", "components are shared by features; they never import the app."),
  ]),
  // Features are composed in ui/app; one never imports another (style.md section 7). A feature
  // folder is flat, so `../<name>/` from a feature file is always another feature.
  ...uiZone("src/ui/features", [
    {
      regex: "^\\.\\./[^.]",
      message: "features never import each other; compose them in ui/app.",
    },
    ban("app", "ui/app composes the features; a feature never imports it."),
  ]),
  {
    // Size (issue 17): a function stays under 150 lines (a test's describe block too), and a
    // source file under 500 (tests and e2e specs may be longer), so each reads in one sitting;
    // split by concern (ARCHITECTURE.md).
    files: ["src/**/*.{ts,tsx}", "bench/**/*.ts", "scripts/**/*.ts", "bin/**/*.mjs"],
    rules: {
      "max-lines-per-function": [
        "error",
        { max: 150, skipBlankLines: true, skipComments: true, IIFEs: true },
      ],
    },
  },
  {
    files: ["src/**/*.{ts,tsx}", "bench/**/*.ts", "scripts/**/*.ts", "bin/**/*.mjs"],
    ignores: ["**/*.test.{ts,tsx}"],
    rules: { "max-lines": ["error", { max: 500, skipBlankLines: false, skipComments: false }] },
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
