/**
 * The one bound store, built from typed slices (zustand slices pattern). Components select atomic
 * values or use useShallow; derived numbers come from hooks over src/core, never stored.
 */
import { create } from "zustand";
import { createDatasetSlice, type DatasetSlice } from "./slices/datasetSlice.ts";
import { createSelectionSlice, type SelectionSlice } from "./slices/selectionSlice.ts";

export type Store = DatasetSlice & SelectionSlice;

export const useStore = create<Store>()((...a) => ({
  ...createDatasetSlice(...a),
  ...createSelectionSlice(...a),
}));
