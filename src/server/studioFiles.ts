/**
 * The built studio (dist/, `vite build`) as the `view` server serves it at `/`: every file of the
 * build listed once at start, by URL path, so a request's path is looked up, never joined to the
 * folder. The page keeps the static build's Content-Security-Policy: the policy in
 * dist/index.html's <meta http-equiv> is also sent as a header (one source: the build).
 */
import { readdir, readFile } from "node:fs/promises";
import { extname, join } from "node:path";

export interface StudioFile {
  readonly abs: string;
  readonly type: string;
}

export interface Studio {
  readonly dir: string;
  /** By URL path ("/index.html", "/assets/index-abc.js"). */
  readonly files: ReadonlyMap<string, StudioFile>;
  /** index.html's Content-Security-Policy. */
  readonly csp: string;
}

const TYPES: Readonly<Record<string, string>> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json",
  ".map": "application/json",
  ".jsonl": "application/jsonl; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".woff2": "font/woff2",
  ".wasm": "application/wasm",
  ".txt": "text/plain; charset=utf-8",
};

/** The policy of the first `<meta http-equiv="Content-Security-Policy">` of a page, or null. */
export function cspFromHtml(html: string): string | null {
  for (const tag of html.match(/<meta\b[^>]*>/gi) ?? []) {
    if (!/http-equiv\s*=\s*["']?Content-Security-Policy/i.test(tag)) continue;
    const content =
      /\bcontent\s*=\s*"([^"]*)"/i.exec(tag) ?? /\bcontent\s*=\s*'([^']*)'/i.exec(tag);
    if (content !== null) return content[1]!.trim();
  }
  return null;
}

/** A build missing, or without its policy. */
export class StudioMissingError extends Error {
  override name = "StudioMissingError";
}

/** List a build folder. */
export async function studioLoad(dir: string): Promise<Studio> {
  const html = await readFile(join(dir, "index.html"), "utf8").catch(() => null);
  if (html === null)
    throw new StudioMissingError(
      `the studio is not built (${join(dir, "index.html")} is missing); build it with \`npm run build\``,
    );
  const csp = cspFromHtml(html);
  if (csp === null)
    throw new StudioMissingError(
      `${join(dir, "index.html")} has no Content-Security-Policy meta tag`,
    );
  const files = new Map<string, StudioFile>();
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  for (const entry of entries) {
    if (!entry.isFile()) continue;
    const abs = join(entry.parentPath, entry.name);
    const urlPath = `/${abs.slice(dir.length).split(/[\\/]/).filter(Boolean).join("/")}`;
    files.set(urlPath, {
      abs,
      type: TYPES[extname(entry.name).toLowerCase()] ?? "application/octet-stream",
    });
  }
  return { dir, files, csp };
}
