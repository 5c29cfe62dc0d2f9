/**
 * The initial-bundle budget: the JS a first visit downloads before anything is opened (the entry
 * chunk and every chunk it imports statically), gzipped at level 9. The build prints it and fails
 * above the budget, so a heavy library that slips out of its lazy chunk is caught at once.
 * `BUNDLE_BUDGET_OFF=1 vite build` prints the breakdown without failing, to find what grew.
 */
import { gzipSync } from "node:zlib";
import type { Plugin } from "vite";

/** The limit: charts, markdown and code highlighting must load lazily. */
export const INITIAL_JS_BUDGET = 150 * 1024;

export interface ChunkInfo {
  readonly fileName: string;
  readonly code: string;
  readonly isEntry: boolean;
  readonly imports: readonly string[];
}

/** The entry chunks and their static imports, transitively; dynamic imports are not followed. */
export function initialChunks(chunks: readonly ChunkInfo[]): ChunkInfo[] {
  const byName = new Map(chunks.map((c) => [c.fileName, c]));
  const seen = new Set<string>();
  const stack = chunks.filter((c) => c.isEntry).map((c) => c.fileName);
  while (stack.length > 0) {
    const name = stack.pop()!;
    if (seen.has(name)) continue;
    seen.add(name);
    for (const next of byName.get(name)?.imports ?? []) stack.push(next);
  }
  return chunks.filter((c) => seen.has(c.fileName));
}

export function gzipSize(text: string): number {
  return gzipSync(text, { level: 9 }).length;
}

export function bundleBudget(budget = INITIAL_JS_BUDGET): Plugin {
  return {
    name: "rollout-studio-bundle-budget",
    apply: "build",
    generateBundle(_options, bundle) {
      // Worker bundles are separate builds with their own entry; only the app's entry counts.
      const chunks: ChunkInfo[] = [];
      for (const item of Object.values(bundle)) {
        if (item.type !== "chunk") continue;
        chunks.push({
          fileName: item.fileName,
          code: item.code,
          isEntry: item.isEntry,
          imports: item.imports,
        });
      }
      if (!chunks.some((c) => c.isEntry && c.fileName.includes("index"))) return;
      const initial = initialChunks(chunks);
      const sizes = initial.map((c) => ({ name: c.fileName, gzip: gzipSize(c.code) }));
      const size = sizes.reduce((sum, c) => sum + c.gzip, 0);
      const kb = (n: number): string => `${(n / 1024).toFixed(1)} KB`;
      const parts = sizes
        .sort((a, b) => b.gzip - a.gzip)
        .map((c) => `${c.name.replace(/^.*\//, "")} ${kb(c.gzip)}`)
        .join(", ");
      const line = `initial JS: ${kb(size)} gzip (budget ${kb(budget)}): ${parts}`;
      if (size > budget && process.env.BUNDLE_BUDGET_OFF !== "1")
        this.error(`${line}: over budget`);
      this.info(line);
    },
  };
}
