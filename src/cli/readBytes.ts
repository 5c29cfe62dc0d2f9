/** Read a file whole, turning file-system errors into a LoadError that says what went wrong. */
import { readFileSync } from "node:fs";
import { LoadError } from "../io/index.ts";

export function readBytes(path: string, what: string): Uint8Array {
  try {
    return readFileSync(path);
  } catch (e) {
    const code = (e as { code?: string }).code;
    const reason =
      code === "ENOENT"
        ? "no such file"
        : code === "EISDIR"
          ? "is a directory"
          : code === "EACCES"
            ? "permission denied"
            : e instanceof Error
              ? e.message
              : String(e);
    throw new LoadError(path, `cannot read the ${what}: ${reason}`);
  }
}
