/**
 * Containers with their own readers: CSV, Parquet (hyparquet) and zip (fflate). Each returns records
 * with a reference a person can find (CSV line, Parquet row, zip member) and turns unreadable input
 * into issues rather than throwing, except when nothing at all can be read.
 */
import { LoadError } from "../issues.ts";
import type { ContainerRead } from "../formats/load.ts";
import type { Container } from "../formats/spec.ts";

export function readContainerExtra(
  file: string,
  _bytes: Uint8Array,
  container: Container,
): Promise<ContainerRead> {
  return Promise.reject(new LoadError(file, `${container} files are not readable yet`));
}
