/**
 * Which group is open, and how the group browser lists the groups (filters and sort). All three are
 * mirrored in the URL by the actions themselves (no effect watches the store), so a link opens the
 * same view; they are read from the URL once, when the store is created.
 */
import type { StateCreator } from "zustand";
import type { Store } from "../index.ts";
import {
  filtersFromUrl,
  NO_FILTERS,
  sortFromUrl,
  writeFiltersToUrl,
  writeGroupToUrl,
  writeSortToUrl,
  type GroupFilters,
  type GroupSort,
} from "../url.ts";

export interface SelectionSlice {
  readonly selectedGroupId: string | null;
  /** Which groups the browser lists; mirrored in the URL so a link opens the same view. */
  readonly filters: GroupFilters;
  /** The browser's order: one column, or null for file order; mirrored in the URL. */
  readonly groupSort: GroupSort | null;
  readonly setFilters: (filters: GroupFilters) => void;
  readonly setGroupSort: (sort: GroupSort | null) => void;
  readonly selectGroup: (id: string | null) => void;
}

const hasWindow = typeof window !== "undefined";

export const createSelectionSlice: StateCreator<Store, [], [], SelectionSlice> = (set) => ({
  selectedGroupId: null,
  filters: hasWindow ? filtersFromUrl() : NO_FILTERS,
  groupSort: hasWindow ? sortFromUrl() : null,
  setFilters: (filters) => {
    writeFiltersToUrl(filters);
    set({ filters });
  },
  setGroupSort: (groupSort) => {
    writeSortToUrl(groupSort);
    set({ groupSort });
  },
  selectGroup: (id) => {
    writeGroupToUrl(id);
    set({ selectedGroupId: id });
  },
});
