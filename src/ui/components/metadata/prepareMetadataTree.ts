/**
 * The view model of a metadata tree: nested objects become nodes with children (built when a node
 * is opened), scalars a line of text, arrays JSON text (compact when short, else pretty-printed).
 * Metadata is untrusted: every value ends up as text, never as markup. Texts are capped so a huge
 * field (an Inspect sample's `events`) does not stall the page; the cap is shown, with the size.
 */

/** Characters of a value shown before "show all". */
export const METADATA_TEXT_CAP = 4000;
/** Keys of one object listed before "N more keys". */
export const METADATA_KEYS_CAP = 200;
/** Compact JSON up to this length stays on one line. */
const INLINE_JSON = 80;

export type MetadataNode =
  | {
      readonly kind: "value";
      readonly key: string;
      readonly path: string;
      /** The value as text: strings as they are, the rest as JSON. */
      readonly text: string;
      /** "string", "number", "boolean", "null" or "json" (an array). */
      readonly type: string;
      /** Multi-line (pretty-printed JSON, or a string with line breaks). */
      readonly block: boolean;
    }
  | {
      readonly kind: "object";
      readonly key: string;
      readonly path: string;
      /** Number of keys. */
      readonly size: number;
      readonly value: Readonly<Record<string, unknown>>;
    };

function isRecord(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function jsonText(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

function prettyJson(value: unknown): string {
  try {
    return JSON.stringify(value, null, 2) ?? String(value);
  } catch {
    return String(value);
  }
}

function node(key: string, path: string, value: unknown): MetadataNode {
  if (isRecord(value)) return { kind: "object", key, path, size: Object.keys(value).length, value };
  if (typeof value === "string")
    return { kind: "value", key, path, text: value, type: "string", block: value.includes("\n") };
  if (value === null || typeof value === "number" || typeof value === "boolean")
    return {
      kind: "value",
      key,
      path,
      text: String(value),
      type: value === null ? "null" : typeof value,
      block: false,
    };
  const compact = jsonText(value);
  if (compact.length <= INLINE_JSON)
    return { kind: "value", key, path, text: compact, type: "json", block: false };
  return { kind: "value", key, path, text: prettyJson(value), type: "json", block: true };
}

/**
 * The entries of one object, in key order, at most {@link METADATA_KEYS_CAP} of them.
 *
 * @param prefix the object's dotted path ("" at the top)
 */
export function metadataNodes(
  obj: Readonly<Record<string, unknown>>,
  prefix = "",
): { readonly nodes: readonly MetadataNode[]; readonly more: number } {
  const keys = Object.keys(obj);
  const nodes = keys
    .slice(0, METADATA_KEYS_CAP)
    .map((k) => node(k, prefix === "" ? k : `${prefix}.${k}`, obj[k]));
  return { nodes, more: keys.length - nodes.length };
}

/** Counts the leaves (scalars and arrays) of a metadata object, for the summary line. */
export function metadataLeafCount(obj: Readonly<Record<string, unknown>>): number {
  let n = 0;
  for (const v of Object.values(obj)) n += isRecord(v) ? metadataLeafCount(v) : 1;
  return n;
}

/**
 * One line about a metadata object: its first scalar fields as `key value`, joined by " · ",
 * depth first through nested objects ("" for an empty object).
 */
export function metadataSummary(obj: Readonly<Record<string, unknown>>, parts = 6): string {
  const out: string[] = [];
  const walk = (o: Readonly<Record<string, unknown>>, prefix: string): void => {
    for (const [k, v] of Object.entries(o)) {
      if (out.length >= parts) return;
      const path = prefix === "" ? k : `${prefix}.${k}`;
      if (isRecord(v)) walk(v, path);
      else if (Array.isArray(v)) out.push(`${path} [${v.length}]`);
      else {
        const text = typeof v === "string" ? v : String(v);
        const flat = text.replace(/\s+/g, " ").trim();
        out.push(`${path} ${flat.length > 60 ? `${flat.slice(0, 60)}…` : flat}`);
      }
    }
  };
  walk(obj, "");
  return out.join(" · ");
}
