/**
 * Zip bombs (issue 15, item 6): a 3 MB .eval holding a member that inflates to 3 GiB was inflated
 * whole (18 s, 3.27 GB of memory) before any limit applied. Members are now inflated as streams with
 * the limits applied while inflating. The bombs are built here, from a deflate stream of zeros made
 * once (16 MiB, sync-flushed, so copies of it chain into one stream) and repeated, never holding
 * the inflated GBs; each is loaded in a child Node process whose peak memory is read back.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { constants, deflateRawSync } from "node:zlib";
import { unzipSync } from "fflate";
import { afterAll, describe, expect, it } from "vitest";
import { FORMATS } from "../formats/registry.ts";
import { loadBytes } from "../formats/load.ts";
import { concatBytes } from "./bytes.ts";
import { readZip, ZIP_LIMITS } from "./zip.ts";

const EVAL = join(import.meta.dirname, "../../../../shared/data/inspect/log_streaming.eval");
const real = unzipSync(readFileSync(EVAL));

interface Member {
  readonly name: string;
  /** Deflated data (method 8), or stored bytes (method 0). */
  readonly data: Uint8Array;
  readonly method: 0 | 8;
  /** The inflated size the archive declares (a bomb may lie). */
  readonly size: number;
}

const deflated = (bytes: Uint8Array, name: string): Member => ({
  name,
  data: deflateRawSync(bytes),
  method: 8,
  size: bytes.length,
});

/** A zip archive of the members, written by hand (CRC left 0: the reader does not check it). */
function zip(members: readonly Member[]): Uint8Array {
  const parts: Uint8Array[] = [];
  const central: Uint8Array[] = [];
  let offset = 0;
  const header = (size: number, fill: (v: DataView) => void): Uint8Array => {
    const b = new Uint8Array(size);
    fill(new DataView(b.buffer));
    return b;
  };
  for (const m of members) {
    const name = new TextEncoder().encode(m.name);
    const local = header(30, (v) => {
      v.setUint32(0, 0x04034b50, true);
      v.setUint16(4, 20, true);
      v.setUint16(6, 0x800, true);
      v.setUint16(8, m.method, true);
      v.setUint32(18, m.data.length, true);
      v.setUint32(22, m.size, true);
      v.setUint16(26, name.length, true);
    });
    central.push(
      header(46, (v) => {
        v.setUint32(0, 0x02014b50, true);
        v.setUint16(4, 20, true);
        v.setUint16(6, 20, true);
        v.setUint16(8, 0x800, true);
        v.setUint16(10, m.method, true);
        v.setUint32(20, m.data.length, true);
        v.setUint32(24, m.size, true);
        v.setUint16(28, name.length, true);
        v.setUint32(42, offset, true);
      }),
      name,
    );
    parts.push(local, name, m.data);
    offset += local.length + name.length + m.data.length;
  }
  const directorySize = central.reduce((n, c) => n + c.length, 0);
  const end = header(22, (v) => {
    v.setUint32(0, 0x06054b50, true);
    v.setUint16(8, members.length, true);
    v.setUint16(10, members.length, true);
    v.setUint32(12, directorySize, true);
    v.setUint32(16, offset, true);
  });
  return concatBytes([...parts, ...central, end]);
}

const MiB = 1024 * 1024;

/** A deflate stream of `mib` MiB of zeros, from one sync-flushed 16 MiB block repeated. */
function zeros(mib: number): Uint8Array {
  const block = deflateRawSync(new Uint8Array(16 * MiB), { finishFlush: constants.Z_SYNC_FLUSH });
  const copies = Math.ceil(mib / 16);
  const out = new Uint8Array(block.length * copies + 2);
  for (let k = 0; k < copies; k++) out.set(block, k * block.length);
  // The final, empty block (fixed Huffman, end of block only).
  out.set([0x03, 0x00], block.length * copies);
  return out;
}

const bomb = (name: string, mib: number, declared: number): Member => ({
  name,
  data: zeros(mib),
  method: 8,
  size: declared,
});

const header = deflated(real["header.json"]!, "header.json");
const sample = deflated(real["samples/2_epoch_1.json"]!, "samples/2_epoch_1.json");

const dir = mkdtempSync(join(tmpdir(), "zip-bomb-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface ChildOutcome {
  readonly loaded: boolean;
  readonly message?: string;
  readonly rollouts?: number;
  readonly issues?: string[];
  readonly maxRssMiB: number;
  readonly ms: number;
}

function loadInChild(name: string, bytes: Uint8Array): ChildOutcome {
  const path = join(dir, name);
  writeFileSync(path, bytes);
  const out = execFileSync(
    process.execPath,
    ["--import", "tsx", join(import.meta.dirname, "zipBomb.child.ts"), path],
    { encoding: "utf8", timeout: 120_000 },
  );
  return JSON.parse(out.trim().split("\n").pop()!) as ChildOutcome;
}

describe("a zip bomb is refused in bounded memory", () => {
  const GiB3 = 3 * 1024;

  it("a 3 MB .eval whose only sample inflates to 3 GiB (declared honestly) is refused", () => {
    const bytes = zip([header, bomb("samples/1_epoch_1.json", GiB3, 3 * 1024 * MiB)]);
    expect(bytes.length).toBeLessThan(4 * MiB);
    const r = loadInChild("honest.eval", bytes);
    expect(r.loaded, JSON.stringify(r)).toBe(false);
    expect(r.message).toMatch(
      /no rollout could be read.*samples\/1_epoch_1\.json: inflates to more than 256 MiB .*zip bomb/,
    );
    expect(r.maxRssMiB).toBeLessThan(512);
  }, 120_000);

  it("a bomb that declares a small size is stopped while inflating; the good sample loads", () => {
    const bytes = zip([header, bomb("samples/1_epoch_1.json", GiB3, 1000), sample]);
    const r = loadInChild("lying.eval", bytes);
    expect(r.loaded).toBe(true);
    expect(r.rollouts).toBe(1);
    expect(r.issues).toEqual([expect.stringMatching(/^inflates to more than 256 MiB/)]);
    expect(r.maxRssMiB).toBeLessThan(512);
  }, 120_000);

  it("members under the member limit that together pass the archive's limit refuse the file", () => {
    // In process, with the limits scaled down 16 times: the child above shows the memory bound.
    const members = [header];
    for (let k = 1; k <= 6; k++) members.push(bomb(`samples/${k}_epoch_1.json`, 16, 1000));
    expect(() =>
      readZip("many.eval", zip(members), FORMATS, {
        ...ZIP_LIMITS,
        memberBytes: 16 * MiB,
        totalBytes: 64 * MiB,
      }),
    ).toThrow(
      /many\.eval: the zip archive inflates to more than 64 MiB \(the limit for one archive\)/,
    );
  });
});

describe("zip limits", () => {
  it("the limits are what the README says", () => {
    expect(ZIP_LIMITS).toEqual({
      memberBytes: 256 * MiB,
      totalBytes: 2048 * MiB,
      members: 100_000,
    });
  });

  it("an archive listing more members than the limit is refused before any is read", () => {
    const members = [
      header,
      sample,
      deflated(real["samples/1_epoch_1.json"]!, "samples/1_epoch_1.json"),
    ];
    expect(() =>
      readZip("many.eval", zip(members), FORMATS, { ...ZIP_LIMITS, members: 2 }),
    ).toThrow(/many\.eval: the zip archive lists 3 members; more than 2 are refused/);
  });

  it("the total limit counts every member read, and a member's limit costs only that member", () => {
    const members = [
      header,
      sample,
      deflated(real["samples/1_epoch_1.json"]!, "samples/1_epoch_1.json"),
    ];
    const bytes = zip(members);
    const sizes = members.map((m) => m.size);
    const all = sizes.reduce((a, b) => a + b, 0);
    expect(
      readZip("ok.eval", bytes, FORMATS, { ...ZIP_LIMITS, totalBytes: all }).records,
    ).toHaveLength(2);
    expect(() =>
      readZip("total.eval", bytes, FORMATS, { ...ZIP_LIMITS, totalBytes: all - 1 }),
    ).toThrow(/total\.eval: the zip archive inflates to more than/);
    const one = readZip("member.eval", bytes, FORMATS, {
      ...ZIP_LIMITS,
      memberBytes: Math.max(sizes[0]!, sizes[2]!),
    });
    if (sizes[1]! > Math.max(sizes[0]!, sizes[2]!)) {
      expect(one.records).toHaveLength(1);
      expect(one.issues[0]!.member).toBe("samples/2_epoch_1.json");
    }
  });

  it("stored members and the real .eval still load", async () => {
    const stored = zip([
      {
        name: "header.json",
        data: real["header.json"]!,
        method: 0,
        size: real["header.json"]!.length,
      },
      sample,
    ]);
    const r = await loadBytes("stored.eval", stored);
    expect(r.stats.rollouts).toBe(1);
    expect((await loadBytes("real.eval", readFileSync(EVAL))).stats.rollouts).toBe(4);
  });
});
