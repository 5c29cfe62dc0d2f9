/** The `--annotations A.json` file, read the same way by every command that takes it. */
import { resolve } from "node:path";
import type { Annotations } from "../core/index.ts";
import { annotationsParse, formatIssue, LoadError } from "../io/index.ts";
import type { CliIo } from "./io.ts";
import { readBytes } from "./readBytes.ts";

/**
 * The annotations file, validated; every problem is printed as `file: field: message` before the
 * LoadError.
 *
 * @throws LoadError when the file is missing or invalid
 */
export function readAnnotationsFile(io: CliIo, file: string): Annotations {
  const parsed = annotationsParse(
    file,
    new TextDecoder().decode(readBytes(resolve(io.cwd, file), "annotations file")),
  );
  if (!parsed.ok) {
    for (const issue of parsed.issues) io.stderr(`${formatIssue(issue)}\n`);
    throw new LoadError(file, "the annotations file is invalid");
  }
  return parsed.value;
}
