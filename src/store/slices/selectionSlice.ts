/** Which group is open. */
import type { StateCreator } from "zustand";
import type { Store } from "../index.ts";
import { writeGroupToUrl } from "../url.ts";

export interface SelectionSlice {
  readonly selectedGroupId: string | null;
  readonly selectGroup: (id: string | null) => void;
}

export const createSelectionSlice: StateCreator<Store, [], [], SelectionSlice> = (set) => ({
  selectedGroupId: null,
  selectGroup: (id) => {
    writeGroupToUrl(id);
    set({ selectedGroupId: id });
  },
});
