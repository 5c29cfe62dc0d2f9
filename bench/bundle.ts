/**
 * T9 (performance.md §9): the studio's initial JS, gzipped, against a bare React + ReactDOM
 * hello-world built with the same bundler and the same plugins in the same run. Both builds run in
 * memory (`write: false`); nothing is written to dist/. "Initial" is what the build's budget plugin
 * counts: the entry chunk and its static imports, never a lazily loaded chunk.
 */
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import react from "@vitejs/plugin-react";
import { build, type Rollup } from "vite";
import { gzipSize, initialChunks, type ChunkInfo } from "../scripts/bundleBudget.ts";

const ROOT = join(import.meta.dirname, "..");

export interface BundleSizes {
  /** Gzipped bytes of the initial chunks. */
  readonly initial: number;
  readonly chunks: readonly { readonly name: string; readonly gzip: number }[];
}

function sizesOf(output: Rollup.RollupOutput | Rollup.RollupOutput[]): BundleSizes {
  const outputs = Array.isArray(output) ? output : [output];
  const chunks: ChunkInfo[] = [];
  for (const o of outputs)
    for (const item of o.output)
      if (item.type === "chunk")
        chunks.push({
          fileName: item.fileName,
          code: item.code,
          isEntry: item.isEntry,
          imports: item.imports,
        });
  const initial = initialChunks(chunks).map((c) => ({ name: c.fileName, gzip: gzipSize(c.code) }));
  return { initial: initial.reduce((s, c) => s + c.gzip, 0), chunks: initial };
}

/** The studio as `vite build` makes it (its own config, demo plugin and budget included). */
export async function studioBundle(): Promise<BundleSizes> {
  const out = await build({
    root: ROOT,
    logLevel: "silent",
    build: { write: false, sourcemap: false },
  });
  return sizesOf(out as Rollup.RollupOutput | Rollup.RollupOutput[]);
}

/** A React + ReactDOM hello-world with the same bundler, target and React plugin. */
export async function helloWorldBundle(): Promise<BundleSizes> {
  // Inside the project so that `react` resolves from its node_modules.
  const dir = join(ROOT, "node_modules", ".cache", "bench-hello-world");
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, "index.html"),
    '<!doctype html><html><body><div id="root"></div><script type="module" src="./main.tsx"></script></body></html>\n',
  );
  writeFileSync(
    join(dir, "main.tsx"),
    [
      'import { createRoot } from "react-dom/client";',
      'createRoot(document.getElementById("root")!).render(<h1>Hello</h1>);',
      "",
    ].join("\n"),
  );
  try {
    const out = await build({
      root: dir,
      configFile: false,
      logLevel: "silent",
      plugins: [react()],
      build: { write: false, sourcemap: false, target: "es2023" },
    });
    return sizesOf(out as Rollup.RollupOutput | Rollup.RollupOutput[]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const studio = await studioBundle();
  const hello = await helloWorldBundle();
  const kb = (n: number): number => Number((n / 1024).toPrecision(4));
  const line = {
    metric: "bundle.initial.gzip",
    value: kb(studio.initial),
    baseline: kb(hello.initial),
    ratio: Number((studio.initial / hello.initial).toPrecision(4)),
    unit: "KB",
    note: `T9: initial chunks ${studio.chunks.map((c) => `${c.name.replace(/^.*\//, "")} ${kb(c.gzip)}`).join(", ")}; baseline: React + ReactDOM hello-world, same Vite and plugin`,
  };
  process.stdout.write(`${JSON.stringify(line)}\n`);
  console.error(
    `  ${line.metric}: ${line.value} KB vs baseline ${line.baseline} KB, ratio ${line.ratio}`,
  );
}

await main();
