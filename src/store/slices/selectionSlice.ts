/** Which group is open. */
import type { StateCreator } from "zustand";
import type { Store } from "../index.ts";
import {
  filtersFromUrl,
  NO_FILTERS,
  writeFiltersToUrl,
  writeGroupToUrl,
  type GroupFilters,
} from "../url.ts";

export interface SelectionSlice {
  readonly selectedGroupId: string | null;
  /** Which groups the browser lists; mirrored in the URL so a link opens the same view. */
  readonly filters: GroupFilters;
  readonly setFilters: (filters: GroupFilters) => void;
  readonly selectGroup: (id: string | null) => void;
}

export const createSelectionSlice: StateCreator<Store, [], [], SelectionSlice> = (set) => ({
  selectedGroupId: null,
  filters: typeof window === "undefined" ? NO_FILTERS : filtersFromUrl(),
  setFilters: (filters) => {
    writeFiltersToUrl(filters);
    set({ filters });
  },
  selectGroup: (id) => {
    writeGroupToUrl(id);
    set({ selectedGroupId: id });
  },
});
