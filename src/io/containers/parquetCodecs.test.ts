/**
 * Every codec Parquet writers use (issue 15, item 4): the TRL completions table written once per
 * codec (scripts/make-parquet-codecs.ts) loads with the same rows as the uncompressed file, and
 * as the Snappy file pandas wrote. ZSTD also from pyarrow (codecs/zstd.parquet).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parquetWriteBuffer } from "hyparquet-writer";
import { describe, expect, it } from "vitest";
import { loadBytes, type LoadResult } from "../formats/load.ts";
import { readParquet } from "./parquet.ts";

const TRL = join(import.meta.dirname, "../__fixtures__/trl");
const bytesOf = (name: string) => new Uint8Array(readFileSync(join(TRL, name)));

/** Rows as the container reads them: every column of every row, in order. */
const rows = async (name: string) =>
  (await readParquet(name, bytesOf(name))).records.map((r) => [r.ref.member, r.value]);

/** What the TRL loader makes of a file, without its name. */
const loaded = (r: LoadResult) => ({
  format: r.format,
  stats: r.stats,
  issues: r.issues,
  groups: r.groups.map((g) => ({
    id: g.id,
    rollouts: g.rollouts.map((x) => ({
      id: x.id,
      prompt: x.prompt,
      completion: x.completion,
      reward: x.reward,
      rewards: x.rewards,
      member: x.source.member,
      meta: x.meta,
    })),
  })),
});

const CODECS = ["snappy", "gzip", "brotli", "zstd", "lz4", "lz4_raw"];

describe("Parquet codecs", () => {
  for (const codec of CODECS) {
    it(`${codec.toUpperCase()} reads the same rows as the uncompressed file`, async () => {
      const name = `codecs/codec-${codec}.parquet`;
      const { parquetMetadata } = await import("hyparquet");
      const meta = parquetMetadata(bytesOf(name).buffer);
      expect(meta.row_groups[0]!.columns.map((c) => c.meta_data!.codec)).toContain(
        codec.toUpperCase(),
      );
      const expected = await rows("codecs/codec-uncompressed.parquet");
      expect(expected).toHaveLength(9);
      expect(await rows(name)).toEqual(expected);
      const r = await loadBytes("t.parquet", bytesOf(name));
      expect(loaded(r)).toEqual(
        loaded(await loadBytes("t.parquet", bytesOf("codecs/codec-uncompressed.parquet"))),
      );
    });
  }

  it("the rewritten files load as the Snappy file pandas wrote", async () => {
    const pandas = loaded(await loadBytes("t.parquet", bytesOf("completions_00040.parquet")));
    expect(pandas.stats).toMatchObject({ records: 9, rollouts: 9, rejected: 0 });
    for (const name of ["codecs/codec-uncompressed.parquet", "codecs/zstd.parquet"])
      expect(loaded(await loadBytes("t.parquet", bytesOf(name)))).toEqual(pandas);
  });

  it("LZO, which no current writer uses, is refused naming the codec", async () => {
    const lzo = parquetWriteBuffer({
      columnData: [{ name: "prompt", data: ["a", "b"], type: "STRING" }],
      codec: "LZO",
      compressors: { LZO: (input) => input },
    });
    await expect(loadBytes("lzo.parquet", new Uint8Array(lzo))).rejects.toThrow(
      /lzo\.parquet: uses the LZO compression codec, which the studio cannot read/,
    );
  });
});

describe("Parquet text cells", () => {
  it("decode as hyparquet's TextDecoder does: non-ASCII, a leading BOM dropped, nulls, JSON", async () => {
    const texts = ["plain", "héllo wörld", "\uFEFFbom first", "mid\uFEFFbom", null, "😀 x", ""];
    const buffer = parquetWriteBuffer({
      columnData: [
        { name: "prompt", data: texts, type: "STRING" },
        { name: "meta", data: texts.map((t) => (t === null ? null : { t })), type: "JSON" },
      ],
    });
    const read = await readParquet("t.parquet", new Uint8Array(buffer));
    expect(read.records.map((r) => r.value)).toEqual(
      texts.map((t) => {
        const kept = t === null ? null : t.replace(/^\uFEFF/, "");
        return { prompt: kept, meta: t === null ? null : { t } };
      }),
    );
  });
});
