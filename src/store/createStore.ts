/**
 * The store's state and actions, from its typed slices (zustand slices pattern), and a factory for
 * a store of them with no persistence and no syncing: index.ts wraps the same slices in `persist`
 * for the page; slice tests build a fresh store each (`createPlainStore`), so no test reads or
 * writes localStorage, IndexedDB or the URL, or sees another test's state.
 */
import { create, type StateCreator, type StoreApi, type UseBoundStore } from "zustand";
import { createAnnotationSlice, type AnnotationSlice } from "./slices/annotationSlice.ts";
import { createClusterSlice, type ClusterSlice } from "./slices/clusterSlice.ts";
import { createCompareSlice, type CompareSlice } from "./slices/compareSlice.ts";
import { createDatasetSlice, type DatasetSlice } from "./slices/datasetSlice.ts";
import {
  createHealthSettingsSlice,
  type HealthSettingsSlice,
} from "./slices/healthSettingsSlice.ts";
import { createJudgeSlice, type JudgeSlice } from "./slices/judgeSlice.ts";
import { createMetadataViewSlice, type MetadataViewSlice } from "./slices/metadataViewSlice.ts";
import { createPresetsSlice, type PresetsSlice } from "./slices/presetsSlice.ts";
import { createReviewSlice, type ReviewSlice } from "./slices/reviewSlice.ts";
import { createSelectionSlice, type SelectionSlice } from "./slices/selectionSlice.ts";
import { createSettingsSlice, type SettingsSlice } from "./slices/settingsSlice.ts";
import { createTeamLeadSlice, type TeamLeadSlice } from "./slices/teamLeadSlice.ts";
import { createTeamSlice, type TeamSlice } from "./slices/teamSlice.ts";
import { createVerifierSlice, type VerifierSlice } from "./slices/verifierSlice.ts";

export type Store = DatasetSlice &
  SelectionSlice &
  PresetsSlice &
  SettingsSlice &
  AnnotationSlice &
  ClusterSlice &
  ReviewSlice &
  JudgeSlice &
  MetadataViewSlice &
  VerifierSlice &
  HealthSettingsSlice &
  CompareSlice &
  TeamSlice &
  TeamLeadSlice;

/** Every slice's state and actions: the store's one initializer. */
export const createStoreSlices: StateCreator<Store, [], [], Store> = (...a) => ({
  ...createDatasetSlice(...a),
  ...createSelectionSlice(...a),
  ...createPresetsSlice(...a),
  ...createSettingsSlice(...a),
  ...createAnnotationSlice(...a),
  ...createClusterSlice(...a),
  ...createReviewSlice(...a),
  ...createJudgeSlice(...a),
  ...createMetadataViewSlice(...a),
  ...createVerifierSlice(...a),
  ...createHealthSettingsSlice(...a),
  ...createCompareSlice(...a),
  ...createTeamSlice(...a),
  ...createTeamLeadSlice(...a),
});

/** A new store of the slices alone: nothing persisted, restored or synced. */
export function createPlainStore(): UseBoundStore<StoreApi<Store>> {
  return create<Store>()(createStoreSlices);
}
