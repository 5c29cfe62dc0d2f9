/**
 * Every container's reader behind one call: JSON lines, JSON array and JSON document
 * (jsonText.ts), CSV (csv.ts), Parquet (hyparquet, parquet.ts) and zip (fflate, zip.ts). Each
 * returns records with a reference a person can find (line, Parquet row, zip member) and turns
 * unreadable input into issues rather than throwing, except when nothing at all can be read.
 */
import type { Container, FormatSpec } from "../formats/spec.ts";
import { readCsv } from "./csv.ts";
import { readJsonArray, readJsonDocument, readJsonl } from "./jsonText.ts";
import { readParquet } from "./parquet.ts";
import type { ContainerRead } from "./types.ts";
import { readZip } from "./zip.ts";

/**
 * Read the bytes as `container`. `formats` are the ones a zip's members may be (a zip of one
 * format's files is exploded by that format).
 *
 * @throws LoadError when nothing in the file can be read (see each reader)
 */
export async function readContainer(
  file: string,
  bytes: Uint8Array,
  container: Container,
  formats: readonly FormatSpec[],
): Promise<ContainerRead & { document?: unknown }> {
  switch (container) {
    case "jsonl":
      return readJsonl(file, bytes);
    case "json-array":
      return readJsonArray(file, bytes);
    case "json-document":
      return readJsonDocument(file, bytes);
    case "csv":
      return readCsv(file, bytes);
    case "parquet":
      return readParquet(file, bytes);
    case "zip":
      return readZip(file, bytes, formats);
  }
}
