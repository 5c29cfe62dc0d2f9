/** The bundled demo dataset: generated at build time (vite.config.ts) and served from this path. */
export const DEMO_PATH = "demo/support-groups.jsonl";
export const DEMO_FILE_NAME = "support-groups.jsonl";

/** The demo's File objects: the URL says `?demo` for these, `?file=` for any other (store/url.ts). */
const demoFiles = new WeakSet<File>();

export function isDemoFile(file: File): boolean {
  return demoFiles.has(file);
}

/** Fetch the demo from the studio's own origin, as a File the loaders read like any other. */
export async function fetchDemoFile(): Promise<File> {
  const response = await fetch(`${import.meta.env.BASE_URL}${DEMO_PATH}`);
  if (!response.ok)
    throw new Error(`the demo dataset is not in this build (HTTP ${response.status})`);
  const file = new File([await response.blob()], DEMO_FILE_NAME, { type: "application/jsonl" });
  demoFiles.add(file);
  return file;
}
