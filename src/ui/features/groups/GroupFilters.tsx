/** Filters over the group list: mixed only, zero std only, and text search over ids and prompts. */
import { useId } from "react";
import { useStore } from "../../../store/index.ts";
import styles from "./Groups.module.css";

export default function GroupFilters({ shown, total }: { shown: number; total: number }) {
  const filters = useStore((s) => s.filters);
  const setFilters = useStore((s) => s.setFilters);
  const searchId = useId();
  return (
    <div className={styles.filters} role="search" aria-label="Filter groups">
      <label>
        <input
          type="checkbox"
          checked={filters.mixedOnly}
          data-testid="filter-mixed"
          onChange={(e) => setFilters({ ...filters, mixedOnly: e.currentTarget.checked })}
        />{" "}
        mixed only
      </label>
      <label>
        <input
          type="checkbox"
          checked={filters.zeroStdOnly}
          data-testid="filter-zero-std"
          onChange={(e) => setFilters({ ...filters, zeroStdOnly: e.currentTarget.checked })}
        />{" "}
        zero std only
      </label>
      <label htmlFor={searchId}>Search</label>
      <input
        id={searchId}
        type="search"
        value={filters.query}
        placeholder="group id or prompt"
        data-testid="filter-search"
        onChange={(e) => setFilters({ ...filters, query: e.currentTarget.value })}
      />
      <span className={styles.count} data-testid="filter-count">
        {shown === total
          ? `${total.toLocaleString("en-US")} groups`
          : `${shown.toLocaleString("en-US")} of ${total.toLocaleString("en-US")} groups`}
      </span>
    </div>
  );
}
