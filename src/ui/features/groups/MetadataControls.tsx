/**
 * The group browser's metadata controls (issue 13, finding 5): a "Metadata columns" picker (the
 * scalar fields found in the rollouts' metadata, each a checkbox) and a `field = value` filter.
 * Both live in the URL (`?col=`, `?meta=`). Fields are discovered from the first
 * DISCOVERY_ROLLOUTS rollouts (the note says when the file has more); the filter's values are
 * read for the chosen field over every parsed group. The picker is MetadataPicker.tsx; the
 * discovery and the menus' options are metadataControlsModel.ts.
 */
import { useId, useMemo, useState } from "react";
import { METADATA_FIELD_CAPS, metadataFields, type RolloutGroup } from "../../../core/index.ts";
import { useStore } from "../../../store/index.ts";
import type { MetadataView } from "../../../store/url.ts";
import { DISCOVERY_ROLLOUTS, fieldValues, firstRollouts } from "./metadataControlsModel.ts";
import { MetadataPicker } from "./MetadataPicker.tsx";
import { useIdle } from "./useIdle.ts";
import styles from "./Groups.module.css";

export { DISCOVERY_ROLLOUTS, FILTER_VALUES_CAP } from "./metadataControlsModel.ts";

const NO_FIELDS: ReturnType<typeof metadataFields> = { fields: [], omitted: 0 };

/** The filter in force (a field and a value), with a button that clears it. */
function ActiveFilter({
  view,
  setView,
}: {
  view: MetadataView;
  setView: (view: MetadataView) => void;
}) {
  if (view.filter === null || view.filter.value === "") return null;
  return (
    <span className={styles.badge} data-testid="filter-meta-active">
      {view.filter.path} = {view.filter.value}{" "}
      <button
        type="button"
        className={styles.metaClear}
        aria-label={`Clear the metadata filter ${view.filter.path} = ${view.filter.value}`}
        onClick={() => setView({ ...view, filter: null })}
      >
        ✕
      </button>
    </span>
  );
}

export default function MetadataControls({
  groups,
  rollouts,
}: {
  groups: ReadonlyMap<string, RolloutGroup>;
  /** Rollouts of the parsed groups, for the discovery note. */
  rollouts: number;
}) {
  const view = useStore((s) => s.metadataView);
  const setView = useStore((s) => s.setMetadataView);
  const [open, setOpen] = useState(false);
  const pickerId = useId();
  const idle = useIdle();
  const discover = idle || open || view.columns.length > 0 || view.filter !== null;
  const discovered = useMemo(
    () =>
      discover
        ? metadataFields(firstRollouts(groups, DISCOVERY_ROLLOUTS), METADATA_FIELD_CAPS)
        : NO_FIELDS,
    [groups, discover],
  );
  const filterPath = view.filter?.path ?? "";
  const values = useMemo(
    () => (filterPath === "" ? null : fieldValues(groups, filterPath)),
    [groups, filterPath],
  );

  if (discovered.fields.length === 0 && view.columns.length === 0 && view.filter === null)
    return null;
  return (
    <div className={styles.metaControls} data-testid="groups.meta-controls">
      <button
        type="button"
        className={styles.metaButton}
        aria-expanded={open}
        aria-controls={open ? pickerId : undefined}
        data-testid="groups.meta-columns"
        onClick={() => setOpen((o) => !o)}
      >
        Metadata{view.columns.length > 0 ? ` (${view.columns.length})` : ""} ▾
      </button>
      <ActiveFilter view={view} setView={setView} />
      {open ? (
        <MetadataPicker
          id={pickerId}
          view={view}
          setView={setView}
          discovered={discovered}
          rollouts={rollouts}
          values={values}
        />
      ) : null}
    </div>
  );
}
