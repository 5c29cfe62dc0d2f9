/**
 * The metadata controls' picker (MetadataControls opens it): a checkbox per discovered field to
 * show it as a column, and the `field = value` filter's two menus.
 */
import { useId } from "react";
import type { MetadataFields } from "../../../core/index.ts";
import { MAX_METADATA_COLUMNS, type MetadataView } from "../../../store/url.ts";
import { discoveryScope, FILTER_VALUES_CAP, optionsKeeping } from "./metadataControlsModel.ts";
import styles from "./Groups.module.css";

/** The filter: a field, then one of its values (the filter applies once a value is chosen). */
function MetadataFilter({
  view,
  setView,
  fieldOptions,
  values,
}: {
  view: MetadataView;
  setView: (view: MetadataView) => void;
  fieldOptions: readonly string[];
  /** The chosen field's values, or null without a field. */
  values: { readonly values: readonly string[]; readonly more: boolean } | null;
}) {
  const fieldId = useId();
  const valueId = useId();
  const filterPath = view.filter?.path ?? "";
  const filterValue = view.filter?.value ?? "";
  const valueOptions = values === null ? [] : optionsKeeping(values.values, filterValue);
  return (
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
  );
}

export function MetadataPicker({
  id,
  view,
  setView,
  discovered,
  rollouts,
  values,
}: {
  id: string;
  view: MetadataView;
  setView: (view: MetadataView) => void;
  discovered: MetadataFields;
  /** Rollouts of the parsed groups, for the discovery note. */
  rollouts: number;
  values: { readonly values: readonly string[]; readonly more: boolean } | null;
}) {
  const toggleColumn = (path: string, on: boolean): void =>
    setView({
      ...view,
      columns: on ? [...view.columns, path] : view.columns.filter((c) => c !== path),
    });
  return (
    <fieldset id={id} className={styles.metaPicker} data-testid="groups.meta-picker">
      <legend>
        Metadata fields as columns (at most {MAX_METADATA_COLUMNS}; scalar fields of{" "}
        {discoveryScope(rollouts)}
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
      <MetadataFilter
        view={view}
        setView={setView}
        fieldOptions={optionsKeeping(
          discovered.fields.map((f) => f.path),
          view.filter?.path ?? "",
        )}
        values={values}
      />
    </fieldset>
  );
}
