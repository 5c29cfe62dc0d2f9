import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { NODE_FS, writeFileAtomic, type AtomicWriteFs } from "./atomicWrite.ts";

const folder = (): string => mkdtempSync(join(tmpdir(), "atomic-"));

describe("writeFileAtomic", () => {
  it("writes the file, creating its folder, and leaves no temporary file", async () => {
    const dir = join(folder(), ".rollout-studio");
    await writeFileAtomic(join(dir, "annotations.json"), "new\n");
    expect(readFileSync(join(dir, "annotations.json"), "utf8")).toBe("new\n");
    expect(readdirSync(dir)).toEqual(["annotations.json"]);
  });

  it("a crash mid-write leaves the old file whole and removes the partial temporary file", async () => {
    const dir = folder();
    const target = join(dir, "annotations.json");
    writeFileSync(target, "old\n");
    const seen: string[] = [];
    const crashing: AtomicWriteFs = {
      ...NODE_FS,
      open: async (path, flags) => {
        const h = await NODE_FS.open(path, flags);
        return {
          ...h,
          writeFile: async (data) => {
            // Half the bytes reach the disk, then the write fails (a full disk, a killed process).
            await h.writeFile(data.slice(0, data.length / 2));
            seen.push(readFileSync(path, "utf8"));
            throw new Error("ENOSPC: no space left on device");
          },
        };
      },
    };
    await expect(writeFileAtomic(target, "new content\n", crashing)).rejects.toThrow("ENOSPC");
    expect(seen).toEqual(["new co"]);
    expect(readFileSync(target, "utf8")).toBe("old\n");
    expect(readdirSync(dir)).toEqual(["annotations.json"]);
  });

  it("the target is replaced only by the rename, after the data is synced", async () => {
    const dir = folder();
    const target = join(dir, "annotations.json");
    writeFileSync(target, "old\n");
    const steps: string[] = [];
    const traced: AtomicWriteFs = {
      ...NODE_FS,
      open: async (path, flags) => {
        const h = await NODE_FS.open(path, flags);
        return {
          writeFile: async (d) => {
            await h.writeFile(d);
            steps.push(`write, target still ${readFileSync(target, "utf8").trim()}`);
          },
          sync: async () => {
            await h.sync();
            steps.push(path === dir ? "sync folder" : "sync file");
          },
          close: () => h.close(),
        };
      },
      rename: async (from, to) => {
        await NODE_FS.rename(from, to);
        steps.push("rename");
      },
    };
    await writeFileAtomic(target, "new\n", traced);
    expect(steps).toEqual(["write, target still old", "sync file", "rename", "sync folder"]);
    expect(readFileSync(target, "utf8")).toBe("new\n");
  });
});
