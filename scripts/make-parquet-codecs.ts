/**
 * Write the TRL completions table (src/io/__fixtures__/trl/completions_00040.parquet, pandas +
 * Snappy) once per Parquet codec, into src/io/__fixtures__/trl/codecs/codec-<codec>.parquet:
 *
 *   npx tsx scripts/make-parquet-codecs.ts
 *
 * With hyparquet-writer and a compressor per codec: its own Snappy, fflate's Gzip, Node's Brotli,
 * and for ZSTD, LZ4 (Hadoop framing) and LZ4_RAW frames and blocks written here by hand (a zstd
 * frame of raw blocks, LZ4 blocks of literals only: valid streams any decoder reads, not small
 * ones; Node 20 has no zstd and no LZ4 encoder). A ZSTD file written by pyarrow is in
 * codecs/zstd.parquet too (make_fixtures.py). The output is the same bytes on every run.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { brotliCompressSync, constants } from "node:zlib";
import { gzipSync } from "fflate";
import { parquetReadObjects, type CompressionCodec } from "hyparquet";
import { parquetWriteBuffer, type ColumnSource } from "hyparquet-writer";

const TRL = join(import.meta.dirname, "../src/io/__fixtures__/trl");

/** A zstd frame holding the input as raw blocks (RFC 8878: magic, header, blocks of type 0). */
export function zstdRaw(input: Uint8Array): Uint8Array {
  const MAX_BLOCK = 128 * 1024;
  const blocks = Math.max(1, Math.ceil(input.length / MAX_BLOCK));
  // Frame header: single segment, 4-byte content size (FCS flag 2).
  const out = new Uint8Array(4 + 1 + 4 + blocks * 3 + input.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, 0xfd2fb528, true);
  out[4] = (2 << 6) | (1 << 5);
  view.setUint32(5, input.length, true);
  let at = 9;
  for (let k = 0; k < blocks; k++) {
    const chunk = input.subarray(k * MAX_BLOCK, (k + 1) * MAX_BLOCK);
    const last = k === blocks - 1 ? 1 : 0;
    const header = last | (0 << 1) | (chunk.length << 3);
    out[at] = header & 0xff;
    out[at + 1] = (header >> 8) & 0xff;
    out[at + 2] = (header >> 16) & 0xff;
    out.set(chunk, at + 3);
    at += 3 + chunk.length;
  }
  return out;
}

/** An LZ4 block of one sequence of literals only (valid: a block may end in literals). */
export function lz4Literals(input: Uint8Array): Uint8Array {
  const n = input.length;
  const extra = n >= 15 ? Math.floor((n - 15) / 255) + 1 : 0;
  const out = new Uint8Array(1 + extra + n);
  out[0] = Math.min(n, 15) << 4;
  let at = 1;
  if (n >= 15) {
    let rest = n - 15;
    while (rest >= 255) {
      out[at++] = 255;
      rest -= 255;
    }
    out[at++] = rest;
  }
  out.set(input, at);
  return out;
}

/** Hadoop's LZ4 framing, Parquet's "LZ4" codec: big-endian output and input sizes, then a block. */
export function lz4Hadoop(input: Uint8Array): Uint8Array {
  const block = lz4Literals(input);
  const out = new Uint8Array(8 + block.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, input.length);
  view.setUint32(4, block.length);
  out.set(block, 8);
  return out;
}

const COMPRESSORS = {
  GZIP: (input: Uint8Array) => gzipSync(input, { level: 9, mtime: 0 }),
  BROTLI: (input: Uint8Array) =>
    new Uint8Array(brotliCompressSync(input, { params: { [constants.BROTLI_PARAM_QUALITY]: 9 } })),
  ZSTD: zstdRaw,
  LZ4: lz4Hadoop,
  LZ4_RAW: lz4Literals,
};

export const CODECS: readonly CompressionCodec[] = [
  "UNCOMPRESSED",
  "SNAPPY",
  "GZIP",
  "BROTLI",
  "ZSTD",
  "LZ4",
  "LZ4_RAW",
];

async function main(): Promise<void> {
  const source = readFileSync(join(TRL, "completions_00040.parquet"));
  const rows = await parquetReadObjects({ file: new Uint8Array(source).buffer });
  const column = (name: string) => rows.map((r) => r[name] as unknown);
  const columnData: ColumnSource[] = [
    { name: "step", data: column("step").map(Number), type: "INT64" },
    { name: "prompt", data: column("prompt"), type: "STRING" },
    { name: "completion", data: column("completion"), type: "STRING" },
    { name: "format_reward", data: column("format_reward"), type: "DOUBLE" },
    { name: "correctness_reward", data: column("correctness_reward"), type: "DOUBLE" },
    { name: "solution", data: column("solution"), type: "STRING" },
    { name: "advantage", data: column("advantage"), type: "DOUBLE" },
  ];
  for (const codec of CODECS) {
    const bytes = parquetWriteBuffer({
      columnData: columnData.map((c) =>
        c.name === "step" ? { ...c, data: (c.data as number[]).map(BigInt) } : c,
      ),
      codec,
      compressors: COMPRESSORS,
      createdBy: "rollout-studio scripts/make-parquet-codecs.ts (hyparquet-writer 0.17.0)",
    });
    const out = join(TRL, "codecs", `codec-${codec.toLowerCase()}.parquet`);
    writeFileSync(out, new Uint8Array(bytes));
    console.error(`${out}: ${bytes.byteLength} bytes`);
  }
}

await main();
