/**
 * The field-mapping dialog's sample of a file (read and parsed by store/mappingSample.ts) and the
 * name people read for its container.
 */
import type { Container } from "../../../io/formats/spec.ts";

export { mappingSampleFor, SAMPLE_BYTES } from "../../../store/mappingSample.ts";

const LABEL: Record<Container, string> = {
  jsonl: "JSON lines",
  "json-array": "a JSON array",
  "json-document": "one JSON document",
  csv: "CSV",
  parquet: "Parquet",
  zip: "a zip archive",
};

/** The container's name for people: "JSON lines", "CSV", … */
export const containerLabel = (container: Container): string => LABEL[container];
