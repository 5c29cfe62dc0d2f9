/**
 * The group browser's metadata columns (issue 13, finding 5): one column per metadata field the
 * user picked, after the fixed columns. A cell shows the field's value when it is the same for
 * every rollout of the group that has it, "mixed (k values)" when it varies, and nothing without
 * it; it is worked out when the row renders (only the rows on screen), never for all groups.
 */
import { createColumnHelper } from "@tanstack/react-table";
import {
  metadataGroupHas,
  metadataGroupText,
  metadataGroupValue,
  type RolloutGroup,
} from "../../../core/index.ts";
import type { MetadataView } from "../../../store/url.ts";
import type { groupTableFeatures } from "./columns.tsx";
import type { GroupRow } from "./prepareGroupRows.ts";

const helper = createColumnHelper<typeof groupTableFeatures, GroupRow>();

/** The column id of a metadata field. */
export const metadataColumnId = (path: string): string => `meta:${path}`;

/** Column definitions for the picked fields (headers only: the body renders the cells). */
export function metadataColumnDefs(paths: readonly string[]) {
  return paths.map((path) =>
    helper.display({
      id: metadataColumnId(path),
      header: () => (
        <span data-meta-header={path} title={`Metadata field ${path}`}>
          {path}
        </span>
      ),
      enableSorting: false,
    }),
  );
}

/** A metadata cell's text and tooltip. */
export function metadataCell(
  group: RolloutGroup | undefined,
  path: string,
): { readonly text: string; readonly title: string } {
  if (group === undefined)
    return { text: "–", title: "not parsed yet: open the group to read its metadata" };
  const value = metadataGroupValue(group, path);
  const text = metadataGroupText(value);
  if (value.kind === "none") return { text, title: `no rollout has ${path}` };
  if (value.kind === "mixed")
    return { text, title: `${path} differs between the group's rollouts` };
  return {
    text,
    title:
      value.missing === 0
        ? `${path}: ${text} (every rollout)`
        : `${path}: ${text} (${value.missing} rollout${value.missing === 1 ? "" : "s"} without it)`,
  };
}

/**
 * The rows the metadata filter keeps: groups with a rollout whose field has the value. A group not
 * parsed yet (an indexed file) is not known to match, so it is left out.
 */
export function filterMetadataRows(
  rows: readonly GroupRow[],
  filter: MetadataView["filter"],
  groups: ReadonlyMap<string, RolloutGroup>,
): readonly GroupRow[] {
  // A field chosen without a value ("any value") lists the field's values and keeps every row.
  if (filter === null || filter.value === "") return rows;
  return rows.filter((r) => {
    const group = groups.get(r.id);
    return group !== undefined && metadataGroupHas(group, filter.path, filter.value);
  });
}
