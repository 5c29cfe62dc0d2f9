/**
 * Containers with their own readers: CSV (csv.ts), Parquet (hyparquet, parquet.ts) and zip (fflate,
 * zip.ts). Each returns records with a reference a person can find (CSV line, Parquet row, zip
 * member) and turns unreadable input into issues rather than throwing, except when nothing at all can
 * be read. Called by load.ts for every container it does not split itself.
 */
import { LoadError } from "../issues.ts";
import type { ContainerRead } from "../formats/load.ts";
import { FORMATS } from "../formats/registry.ts";
import type { Container } from "../formats/spec.ts";
import { readCsv } from "./csv.ts";
import { readParquet } from "./parquet.ts";
import { readZip } from "./zip.ts";

/**
 * Read a CSV, Parquet or zip container.
 *
 * @throws LoadError when nothing in the file can be read (see each reader)
 */
export async function readContainerExtra(
  file: string,
  bytes: Uint8Array,
  container: Container,
): Promise<ContainerRead> {
  switch (container) {
    case "csv":
      return readCsv(file, bytes);
    case "parquet":
      return readParquet(file, bytes);
    case "zip":
      return readZip(file, bytes, FORMATS);
    default:
      throw new LoadError(file, `${container} files are split by load.ts, not here`);
  }
}
