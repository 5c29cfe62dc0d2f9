/**
 * The import boundaries of style.md section 7 are lint rules; this proves they fire, so a rule that
 * silently stopped matching (a renamed folder, a changed regex) fails the build.
 */
import { ESLint } from "eslint";
import { join } from "node:path";
import tseslint from "typescript-eslint";
import { describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "../..");

async function restricted(file: string, source: string): Promise<string[]> {
  // Typed rules need a file in a project; the boundary rules do not, so lint with those alone.
  const eslint = new ESLint({ cwd: ROOT });
  const config = (await eslint.calculateConfigForFile(join(ROOT, file))) as {
    rules: Record<string, unknown>;
  };
  const rule = (name: string): never => (config.rules[name] ?? "off") as never;
  // typescript-eslint's parser (no type information): `import type` is what some zones allow.
  const only = new ESLint({
    cwd: ROOT,
    overrideConfigFile: true,
    overrideConfig: {
      files: ["**/*.{ts,tsx}"],
      languageOptions: {
        parser: tseslint.parser,
        parserOptions: { ecmaVersion: 2023, sourceType: "module" },
      },
      plugins: { "@typescript-eslint": tseslint.plugin },
      rules: {
        "no-restricted-imports": rule("no-restricted-imports"),
        "@typescript-eslint/no-restricted-imports": rule(
          "@typescript-eslint/no-restricted-imports",
        ),
        "no-restricted-globals": rule("no-restricted-globals"),
        "no-restricted-syntax": rule("no-restricted-syntax"),
      },
    },
  });
  const [result] = await only.lintText(source, { filePath: join(ROOT, file) });
  return result!.messages.map((m) => `${m.line}: ${m.message}`);
}

describe("import boundaries", () => {
  it("core imports nothing outside core: no UI, state, network, Node or DOM", async () => {
    const messages = await restricted(
      "src/core/probe.ts",
      [
        'import "react";',
        'import "zustand";',
        'import "openai";',
        'import "recharts";',
        'import "../io/index.ts";',
        'import "../../ui/app/App.tsx";',
        'import "../store/index.ts";',
        'import "node:fs";',
        "document.title;",
        'import "./types.ts";',
      ].join("\n"),
    );
    expect(messages.map((m) => Number(m.split(":")[0]))).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });

  it("io imports only core", async () => {
    const messages = await restricted(
      "src/io/probe.ts",
      [
        'import "../core/index.ts";',
        'import "zod";',
        'import "../ui/app/App.tsx";',
        'import "../store/index.ts";',
        'import "react";',
      ].join("\n"),
    );
    expect(messages.map((m) => Number(m.split(":")[0]))).toEqual([3, 4, 5]);
  });

  it("the CLI never imports the UI", async () => {
    const messages = await restricted(
      "src/cli/probe.ts",
      ['import "../core/index.ts";', 'import "../ui/app/App.tsx";'].join("\n"),
    );
    expect(messages).toHaveLength(1);
  });

  it("the view server imports only core and io", async () => {
    const messages = await restricted(
      "src/server/probe.ts",
      [
        'import "../core/index.ts";',
        'import "../io/index.ts";',
        'import "hono";',
        'import "../ui/app/App.tsx";',
        'import "../store/index.ts";',
        'import "../workers/protocol.ts";',
        'import "../cli/main.ts";',
        'import "react";',
      ].join("\n"),
    );
    expect(messages.map((m) => Number(m.split(":")[0]))).toEqual([4, 5, 6, 7, 8]);
  });

  it("features never import each other", async () => {
    const messages = await restricted(
      "src/ui/features/groups/Probe.tsx",
      [
        'import "../settings/SettingsPanel.tsx";',
        'import "./GroupList.tsx";',
        'import "../../../store/index.ts";',
        'import "../../components/DropZone.tsx";',
      ].join("\n"),
    );
    expect(messages.map((m) => Number(m.split(":")[0]))).toEqual([1]);
  });

  it("features import io's types only: its code comes through the store", async () => {
    const messages = await restricted(
      "src/ui/features/groups/Probe.tsx",
      [
        'import { formatIssue } from "../../../io/issues.ts";',
        'import type { ParseIssue } from "../../../io/issues.ts";',
        'import { type GroupSummary } from "../../../io/dataset.ts";',
        'export { promptText } from "../../../io/dataset.ts";',
        'void import("../../../io/annotations/annotationsFile.ts");',
        'import type { SettingsPanelProps } from "../settings/SettingsPanel.tsx";',
        'import "../../../workers/loadClient.ts";',
        'import { formatIssue as f } from "../../../store/datasetInfo.ts";',
        'void import("../../../store/annotationsFile.ts");',
        'import "../../app/App.tsx";',
      ].join("\n"),
    );
    expect(messages.map((m) => Number(m.split(":")[0]))).toEqual([1, 4, 5, 6, 7, 10]);
  });

  it("a feature's tests may run io (fixtures), never another feature", async () => {
    const messages = await restricted(
      "src/ui/features/groups/probe.test.ts",
      ['import { loadText } from "../../../io/index.ts";', 'import "../settings/x.ts";'].join("\n"),
    );
    expect(messages.map((m) => Number(m.split(":")[0]))).toEqual([2]);
  });

  it("the app composes features and the store, with io's types only", async () => {
    const messages = await restricted(
      "src/ui/app/Probe.tsx",
      [
        'import "../features/loader/LoadPanel.tsx";',
        'import "../../store/index.ts";',
        'import type { ParseIssue } from "../../io/issues.ts";',
        'import { formatIssue } from "../../io/issues.ts";',
        'import "../../server/serve.ts";',
      ].join("\n"),
    );
    expect(messages.map((m) => Number(m.split(":")[0]))).toEqual([4, 5]);
  });

  it("presentational components never read the store, a feature or io's code", async () => {
    const messages = await restricted(
      "src/ui/components/Probe.tsx",
      [
        'import "../../store/index.ts";',
        'import "../features/loader/LoadPanel.tsx";',
        'import { formatIssue } from "../../io/issues.ts";',
        'import type { ParseIssue } from "../../io/issues.ts";',
        'import "../../core/index.ts";',
      ].join("\n"),
    );
    expect(messages.map((m) => Number(m.split(":")[0]))).toEqual([1, 2, 3]);
  });

  it("the store runs workers through their clients; never ui or the server", async () => {
    const messages = await restricted(
      "src/store/probe.ts",
      [
        'import "../io/index.ts";',
        'import "../workers/loadClient.ts";',
        'import type { LoadPhase } from "../workers/protocol.ts";',
        'import "../workers/load.worker.ts";',
        'import "../server/serve.ts";',
        'import "../ui/app/App.tsx";',
      ].join("\n"),
    );
    expect(messages.map((m) => Number(m.split(":")[0]))).toEqual([4, 5, 6]);
  });
});
