/**
 * The loaded dataset and the state of loading it. The dataset itself is never persisted (style.md
 * anti-pattern 3): it is re-read from the file.
 */
import type { StateCreator } from "zustand";
import type { FormatCandidate, FormatOptions, LoadResult } from "../../io/index.ts";
import { startLoad, type LoadEvent, type LoadHandle } from "../../workers/loadClient.ts";
import type { Store } from "../index.ts";

export type LoadState =
  | { readonly status: "idle" }
  | {
      readonly status: "loading";
      readonly file: File;
      readonly phase: "reading" | "parsing";
      readonly bytes: number;
      readonly totalBytes: number;
    }
  | { readonly status: "ready"; readonly file: File; readonly result: LoadResult }
  | {
      readonly status: "error";
      readonly file: File;
      readonly message: string;
      /** Several formats matched equally: the user picks one. */
      readonly candidates: readonly FormatCandidate[];
      /** No format matched: the field mapping can read it. */
      readonly unknownFormat: boolean;
    };

export interface DatasetSlice {
  readonly load: LoadState;
  /** Load a file, detecting its format unless one is given. Cancels any load in progress. */
  readonly loadFile: (file: File, choice?: { format?: string; options?: FormatOptions }) => void;
  readonly cancelLoad: () => void;
  readonly closeDataset: () => void;
}

let current: LoadHandle | null = null;

export const createDatasetSlice: StateCreator<Store, [], [], DatasetSlice> = (set) => ({
  load: { status: "idle" },
  loadFile: (file, choice = {}) => {
    current?.cancel();
    const onEvent = (event: LoadEvent): void => {
      if (current?.requestId !== event.requestId) return;
      switch (event.kind) {
        case "progress":
          set({
            load: {
              status: "loading",
              file,
              phase: event.phase,
              bytes: event.bytes,
              totalBytes: event.totalBytes,
            },
          });
          break;
        case "done":
          current = null;
          set({
            load: { status: "ready", file, result: event.result },
            selectedGroupId: event.result.groups[0]?.id ?? null,
          });
          break;
        case "error":
          current = null;
          set({
            load: {
              status: "error",
              file,
              message: event.message,
              candidates: event.candidates ?? [],
              unknownFormat: event.unknownFormat ?? false,
            },
          });
          break;
        case "cancelled":
          current = null;
          set({ load: { status: "idle" } });
          break;
      }
    };
    set({ load: { status: "loading", file, phase: "reading", bytes: 0, totalBytes: file.size } });
    current = startLoad(file, onEvent, choice);
  },
  cancelLoad: () => {
    current?.cancel();
  },
  closeDataset: () => {
    current?.cancel();
    current = null;
    set({ load: { status: "idle" }, selectedGroupId: null });
  },
});
