/**
 * The group browser's metadata controls (issue 13, finding 5): a "Metadata columns" picker (the
 * scalar fields found in the rollouts' metadata, each a checkbox) and a `field = value` filter.
 * Both live in the URL (`?col=`, `?meta=`). Fields are discovered from the first
 * DISCOVERY_ROLLOUTS rollouts (the note says when the file has more); the filter's values are
 * read for the chosen field over every parsed group.
 */
import { useEffect, useId, useMemo, useState } from "react";
import {
  METADATA_FIELD_CAPS,
  metadataFields,
  metadataScalarAt,
  metadataValueKey,
  type Rollout,
  type RolloutGroup,
} from "../../../core/index.ts";
import { useStore } from "../../../store/index.ts";
import { MAX_METADATA_COLUMNS } from "../../../store/url.ts";
import styles from "./Groups.module.css";

/** Rollouts read to discover the metadata fields. */
export const DISCOVERY_ROLLOUTS = 20_000;
/** Distinct values listed in the filter's menu. */
export const FILTER_VALUES_CAP = 500;

function* firstRollouts(groups: ReadonlyMap<string, RolloutGroup>, cap: number): Iterable<Rollout> {
  let n = 0;
  for (const g of groups.values())
    for (const r of g.rollouts) {
      if (n++ >= cap) return;
      yield r;
    }
}

/**
 * False until the page is first idle after the list mounts: the field discovery (up to
 * DISCOVERY_ROLLOUTS rollouts) stays out of the group browser's mounting render (T8).
 */
function useIdle(): boolean {
  const [idle, setIdle] = useState(false);
  // The idle callback is an external system (the browser's scheduler).
  useEffect(() => {
    if (typeof requestIdleCallback === "function") {
      const handle = requestIdleCallback(() => setIdle(true), { timeout: 1000 });
      return () => cancelIdleCallback(handle);
    }
    const handle = setTimeout(() => setIdle(true), 0);
    return () => clearTimeout(handle);
  }, []);
  return idle;
}

const NO_FIELDS: ReturnType<typeof metadataFields> = { fields: [], omitted: 0 };

const collator = new Intl.Collator("en", { numeric: true, sensitivity: "base" });

/** The distinct values of one field over every parsed group, in natural order, capped. */
function fieldValues(
  groups: ReadonlyMap<string, RolloutGroup>,
  path: string,
): { readonly values: readonly string[]; readonly more: boolean } {
  const seen = new Set<string>();
  let more = false;
  for (const g of groups.values())
    for (const r of g.rollouts) {
      const v = metadataScalarAt(r.meta, path);
      if (v === undefined) continue;
      const k = metadataValueKey(v);
      if (seen.has(k)) continue;
      if (seen.size >= FILTER_VALUES_CAP) {
        more = true;
        continue;
      }
      seen.add(k);
    }
  return { values: [...seen].sort(collator.compare), more };
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
  const fieldId = useId();
  const valueId = useId();
  const idle = useIdle();
  const discover = idle || open || view.columns.length > 0 || view.filter !== null;
  const discovered = useMemo(
    () =>
      discover
        ? metadataFields(firstRollouts(groups, DISCOVERY_ROLLOUTS), METADATA_FIELD_CAPS)
        : NO_FIELDS,
    [groups, discover],
  );
  const paths = discovered.fields.map((f) => f.path);
  const filterPath = view.filter?.path ?? "";
  // A field from a link that the discovered ones lack is still offered, so the link is kept.
  const fieldOptions =
    filterPath === "" || paths.includes(filterPath) ? paths : [filterPath, ...paths];
  const values = useMemo(
    () => (filterPath === "" ? null : fieldValues(groups, filterPath)),
    [groups, filterPath],
  );
  const filterValue = view.filter?.value ?? "";
  const valueOptions =
    values === null
      ? []
      : filterValue === "" || values.values.includes(filterValue)
        ? values.values
        : [filterValue, ...values.values];

  const toggleColumn = (path: string, on: boolean): void =>
    setView({
      ...view,
      columns: on ? [...view.columns, path] : view.columns.filter((c) => c !== path),
    });

  if (paths.length === 0 && view.columns.length === 0 && view.filter === null) return null;
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
      {view.filter === null || view.filter.value === "" ? null : (
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
      )}
      {open ? (
        <fieldset id={pickerId} className={styles.metaPicker} data-testid="groups.meta-picker">
          <legend>
            Metadata fields as columns (at most {MAX_METADATA_COLUMNS}; scalar fields of{" "}
            {rollouts > DISCOVERY_ROLLOUTS
              ? `the first ${DISCOVERY_ROLLOUTS.toLocaleString("en")} of ${rollouts.toLocaleString("en")} rollouts`
              : "every rollout"}
            {discovered.omitted > 0 ? `; ${discovered.omitted} more fields not listed` : ""})
          </legend>
          {discovered.fields.map((f) => {
            const checked = view.columns.includes(f.path);
            return (
              <label
                key={f.path}
                title={`${f.rollouts} rollouts; ${f.values.length}${f.moreValues ? "+" : ""} values`}
              >
                <input
                  type="checkbox"
                  checked={checked}
                  disabled={!checked && view.columns.length >= MAX_METADATA_COLUMNS}
                  data-testid="groups.meta-column"
                  data-path={f.path}
                  onChange={(e) => toggleColumn(f.path, e.currentTarget.checked)}
                />{" "}
                {f.path}
              </label>
            );
          })}
          <div className={styles.metaFilter}>
            <label htmlFor={fieldId}>Filter: groups with a rollout whose</label>
            <select
              id={fieldId}
              value={filterPath}
              data-testid="filter-meta-field"
              onChange={(e) => {
                const path = e.currentTarget.value;
                // Choosing a field lists its values; the filter applies once a value is chosen.
                setView({ ...view, filter: path === "" ? null : { path, value: "" } });
              }}
            >
              <option value="">any field</option>
              {fieldOptions.map((p) => (
                <option key={p} value={p}>
                  {p}
                </option>
              ))}
            </select>
            {filterPath === "" ? null : (
              <>
                <label htmlFor={valueId} className={styles.visuallyHidden}>
                  equals
                </label>
                <span aria-hidden="true">=</span>
                <select
                  id={valueId}
                  value={filterValue}
                  data-testid="filter-meta-value"
                  onChange={(e) =>
                    setView({ ...view, filter: { path: filterPath, value: e.currentTarget.value } })
                  }
                >
                  <option value="">any value</option>
                  {valueOptions.map((v) => (
                    <option key={v} value={v}>
                      {v}
                    </option>
                  ))}
                </select>
                {values?.more ? (
                  <span className={styles.note}>first {FILTER_VALUES_CAP} values</span>
                ) : null}
                <button
                  type="button"
                  className={styles.metaButton}
                  data-testid="filter-meta-clear"
                  onClick={() => setView({ ...view, filter: null })}
                >
                  Clear
                </button>
              </>
            )}
          </div>
        </fieldset>
      ) : null}
    </div>
  );
}
