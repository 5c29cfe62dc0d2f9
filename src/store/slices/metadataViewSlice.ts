/**
 * The group browser's metadata columns and metadata filter (issue 13, finding 5), mirrored in the
 * URL by the action itself, as the other filters are (selectionSlice); read from the URL once, when
 * the store is created.
 */
import type { StateCreator } from "zustand";
import type { Store } from "../index.ts";
import {
  MAX_METADATA_COLUMNS,
  metadataViewFromUrl,
  NO_METADATA_VIEW,
  writeMetadataViewToUrl,
  type MetadataView,
} from "../url.ts";

export interface MetadataViewSlice {
  readonly metadataView: MetadataView;
  readonly setMetadataView: (view: MetadataView) => void;
}

const hasWindow = typeof window !== "undefined";

export const createMetadataViewSlice: StateCreator<Store, [], [], MetadataViewSlice> = (set) => ({
  metadataView: hasWindow ? metadataViewFromUrl() : NO_METADATA_VIEW,
  setMetadataView: (view) => {
    const next: MetadataView = {
      columns: [...new Set(view.columns)].slice(0, MAX_METADATA_COLUMNS),
      filter: view.filter,
    };
    writeMetadataViewToUrl(next);
    set({ metadataView: next });
  },
});
