/**
 * A metadata object as a key/value tree: nested objects fold (the first two levels open), values
 * are text (pretty-printed JSON for arrays), long values are cut at METADATA_TEXT_CAP with a button
 * to show the rest. Metadata is untrusted: it is rendered as text only. Presentational: no store.
 */
import { useState } from "react";
import { METADATA_TEXT_CAP, metadataNodes, type MetadataNode } from "./prepareMetadataTree.ts";
import styles from "./Metadata.module.css";

/** Objects at this depth and deeper start folded. */
const OPEN_DEPTH = 2;

function ValueText({ text, block }: { text: string; block: boolean }) {
  const [all, setAll] = useState(false);
  const cut = !all && text.length > METADATA_TEXT_CAP;
  const shown = cut ? `${text.slice(0, METADATA_TEXT_CAP)}…` : text;
  return (
    <>
      {block ? (
        <pre className={styles.block} data-testid="metadata.value">
          {shown}
        </pre>
      ) : (
        <span className={styles.value} data-testid="metadata.value">
          {shown}
        </span>
      )}
      {cut ? (
        <button type="button" className={styles.more} onClick={() => setAll(true)}>
          show all {text.length.toLocaleString("en")} characters
        </button>
      ) : null}
    </>
  );
}

function Entry({ node, depth }: { node: MetadataNode; depth: number }) {
  const [open, setOpen] = useState(depth < OPEN_DEPTH);
  if (node.kind === "value")
    return (
      <li
        className={node.block ? `${styles.entry} ${styles.blockEntry}` : styles.entry}
        data-testid="metadata.entry"
        data-path={node.path}
        data-type={node.type}
      >
        <span className={styles.key}>{node.key}</span>
        <ValueText text={node.text} block={node.block} />
      </li>
    );
  return (
    <li
      className={`${styles.entry} ${styles.objectEntry}`}
      data-testid="metadata.entry"
      data-path={node.path}
      data-type="object"
    >
      <button
        type="button"
        className={styles.fold}
        aria-expanded={open}
        onClick={() => setOpen((o) => !o)}
      >
        <span aria-hidden="true">{open ? "▾" : "▸"}</span>{" "}
        <span className={styles.key}>{node.key}</span>{" "}
        <span className={styles.size}>
          {node.size} key{node.size === 1 ? "" : "s"}
        </span>
      </button>
      {open ? <Level obj={node.value} prefix={node.path} depth={depth + 1} /> : null}
    </li>
  );
}

function Level({
  obj,
  prefix,
  depth,
}: {
  obj: Readonly<Record<string, unknown>>;
  prefix: string;
  depth: number;
}) {
  const { nodes, more } = metadataNodes(obj, prefix);
  return (
    <ul className={depth === 0 ? styles.tree : styles.level}>
      {nodes.map((n) => (
        <Entry key={n.key} node={n} depth={depth} />
      ))}
      {more > 0 ? (
        <li className={styles.size}>
          … {more.toLocaleString("en")} more key{more === 1 ? "" : "s"}
        </li>
      ) : null}
    </ul>
  );
}

export default function MetadataTree({
  value,
  label,
}: {
  value: Readonly<Record<string, unknown>>;
  /** The tree's accessible name. */
  label: string;
}) {
  return (
    <div className={styles.root} data-testid="metadata.tree" role="group" aria-label={label}>
      {Object.keys(value).length === 0 ? (
        <p className={styles.size}>No fields.</p>
      ) : (
        <Level obj={value} prefix="" depth={0} />
      )}
    </div>
  );
}
