/**
 * The import boundaries of style.md section 7 are lint rules; this proves they fire, so a rule that
 * silently stopped matching (a renamed folder, a changed regex) fails the build.
 */
import { ESLint } from "eslint";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "../..");

async function restricted(file: string, source: string): Promise<string[]> {
  // Typed rules need a file in a project; the boundary rules do not, so lint with those alone.
  const eslint = new ESLint({ cwd: ROOT });
  const config = (await eslint.calculateConfigForFile(join(ROOT, file))) as {
    rules: Record<string, unknown>;
  };
  const only = new ESLint({
    cwd: ROOT,
    overrideConfigFile: true,
    overrideConfig: {
      languageOptions: { parserOptions: { ecmaVersion: 2023, sourceType: "module" } },
      rules: {
        "no-restricted-imports": config.rules["no-restricted-imports"] as never,
        "no-restricted-globals": (config.rules["no-restricted-globals"] ?? "off") as never,
      },
    },
  });
  const [result] = await only.lintText(source, {
    filePath: join(ROOT, file.replace(/\.tsx?$/, ".js")),
  });
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

  it("presentational components never read the store", async () => {
    const messages = await restricted(
      "src/ui/components/Probe.tsx",
      'import "../../store/index.ts";',
    );
    expect(messages).toHaveLength(1);
  });
});
