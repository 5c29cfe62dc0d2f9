/**
 * Globs for PATH arguments when the shell did not expand them (a quoted `'runs/**\/*.jsonl'`, or a
 * pattern that matched nothing yet): the one matcher of `rollout-studio view` (src/server/catalog.ts)
 * and of the CLI's `analyze`, `judge`, `export` (src/cli/runPaths.ts expandGlob). Pure: a pattern is
 * split into the folder it starts from and a matcher for the `/`-separated path under it, so the
 * server lists that folder as it lists any other and keeps the paths that match, on every rescan (a
 * step file that appears later and matches joins the run); the CLI walks the folders itself and
 * tests one name at a time with `globSegmentMatcher`. Listing stays with the I/O.
 *
 * Supported: `*` (any run of characters but `/`), `?` (one character but `/`), `[abc]` / `[!abc]`
 * (a class), and `**` as a whole segment (any number of folders, none included). Braces are not.
 */

const GLOB_CHAR = /[*?[]/;

/** True when a path holds a glob character. */
export function isGlob(path: string): boolean {
  return GLOB_CHAR.test(path);
}

export interface GlobParts {
  /** The leading segments with no glob character ("" when the first segment has one). */
  readonly base: string;
  /** The rest, matched against paths relative to base. */
  readonly pattern: string;
}

/** Split a pattern (`/`-separated) at its first segment with a glob character. */
export function globSplit(glob: string): GlobParts {
  const parts = glob.split("/");
  const first = parts.findIndex((p) => isGlob(p));
  if (first === -1) return { base: glob, pattern: "" };
  return { base: parts.slice(0, first).join("/"), pattern: parts.slice(first).join("/") };
}

const escapeRegex = (c: string): string => c.replace(/[.+^${}()|\\\]]/g, "\\$&");

function segmentRegex(segment: string): string {
  let out = "";
  for (let i = 0; i < segment.length; i++) {
    const c = segment[i]!;
    if (c === "*") out += "[^/]*";
    else if (c === "?") out += "[^/]";
    else if (c === "[") {
      const close = segment.indexOf("]", i + 2);
      if (close === -1) {
        out += "\\[";
        continue;
      }
      let body = segment.slice(i + 1, close);
      const negate = body.startsWith("!") || body.startsWith("^");
      if (negate) body = body.slice(1);
      out += `[${negate ? "^/" : ""}${body.replace(/[\\\]]/g, "\\$&")}]`;
      i = close;
    } else out += escapeRegex(c);
  }
  return out;
}

/**
 * A matcher for one path segment (a file or folder name, no `/`), with the same rules as
 * `globMatcher`'s segments. A `**` segment is not special here: the caller walks folders for it.
 */
export function globSegmentMatcher(segment: string): (name: string) => boolean {
  const regex = new RegExp(`^${segmentRegex(segment)}$`);
  return (name) => regex.test(name);
}

/** A matcher for paths relative to the glob's base (`/`-separated, no leading `/`). */
export function globMatcher(pattern: string): (path: string) => boolean {
  const segments = pattern.split("/").filter((s) => s !== "");
  let source = "";
  segments.forEach((segment, i) => {
    const last = i === segments.length - 1;
    if (segment === "**") source += last ? ".*" : "(?:[^/]+/)*";
    else source += segmentRegex(segment) + (last ? "" : "/");
  });
  const regex = new RegExp(`^${source}$`);
  return (path) => regex.test(path);
}
