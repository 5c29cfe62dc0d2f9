/**
 * Replace a file atomically: write a temporary file in the same folder, fsync it, rename it over
 * the target, then fsync the folder so the rename itself survives a power cut (where the platform
 * lets a folder be opened: not on Windows). A crash at any point leaves either the old file or
 * the new one whole, never a partial one; a failed write removes its temporary file.
 *
 * The file system calls are injected (`AtomicWriteFs`) so a test can fail one mid-write.
 */
import { randomBytes } from "node:crypto";
import * as fsp from "node:fs/promises";
import { basename, dirname, join } from "node:path";

export interface AtomicWriteFs {
  readonly open: (
    path: string,
    flags: string,
  ) => Promise<{
    writeFile: (data: string) => Promise<void>;
    sync: () => Promise<void>;
    close: () => Promise<void>;
  }>;
  readonly rename: (from: string, to: string) => Promise<void>;
  readonly rm: (path: string) => Promise<void>;
  readonly mkdir: (path: string) => Promise<void>;
}

export const NODE_FS: AtomicWriteFs = {
  open: async (path, flags) => {
    const h = await fsp.open(path, flags, 0o644);
    return {
      writeFile: (data) => h.writeFile(data, "utf8"),
      sync: () => h.sync(),
      close: () => h.close(),
    };
  },
  rename: (from, to) => fsp.rename(from, to),
  rm: (path) => fsp.rm(path, { force: true }),
  mkdir: async (path) => {
    await fsp.mkdir(path, { recursive: true });
  },
};

/** The temporary file's name: hidden, beside the target, unique per write. */
export const tempPathFor = (target: string): string =>
  join(
    dirname(target),
    `.${basename(target)}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`,
  );

/** Write `data` to `target` atomically, creating its folder when missing. */
export async function writeFileAtomic(
  target: string,
  data: string,
  fs: AtomicWriteFs = NODE_FS,
): Promise<void> {
  const dir = dirname(target);
  await fs.mkdir(dir);
  const temp = tempPathFor(target);
  try {
    // "wx": never follow or reuse something already at the temporary name.
    const handle = await fs.open(temp, "wx");
    try {
      await handle.writeFile(data);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await fs.rename(temp, target);
  } catch (e) {
    await fs.rm(temp).catch(() => undefined);
    throw e;
  }
  try {
    const folder = await fs.open(dir, "r");
    try {
      await folder.sync();
    } finally {
      await folder.close();
    }
  } catch {
    // Folders cannot be opened or fsynced on every platform (Windows); the rename is done.
  }
}
