/**
 * When the field-mapping dialog is open, and for which file: it opens by itself when a load fails
 * because no format matched, and on request ("Map fields…" in the load error). Closing it dismisses
 * it for that failed load only; any new load (a mapped one included) closes it. The answer is
 * derived from the store's load state on every render, never mirrored into state by an effect.
 */
import { useState } from "react";
import { useStore } from "../../../store/index.ts";
import type { LoadState } from "../../../store/slices/datasetSlice.ts";

type FailedLoad = Extract<LoadState, { status: "error" }>;

export interface MappingDialogMarks {
  /** The failed load the user asked to map ("Map fields…"). */
  readonly requested: FailedLoad | null;
  /** The failed load whose dialog the user closed. */
  readonly dismissed: FailedLoad | null;
}

/** The file the dialog is open for, or null when it is closed. */
export function mappingDialogFile(
  failed: FailedLoad | null,
  marks: MappingDialogMarks,
): File | null {
  if (failed === null) return null;
  if (marks.requested === failed) return failed.file;
  return failed.unknownFormat && marks.dismissed !== failed ? failed.file : null;
}

export interface MappingDialogControl {
  readonly file: File | null;
  readonly open: () => void;
  readonly close: () => void;
}

export function useMappingDialog(): MappingDialogControl {
  const failed = useStore((s) => (s.load.status === "error" ? s.load : null));
  const [marks, setMarks] = useState<MappingDialogMarks>({ requested: null, dismissed: null });
  return {
    file: mappingDialogFile(failed, marks),
    open: () => setMarks({ requested: failed, dismissed: null }),
    close: () => setMarks({ requested: null, dismissed: failed }),
  };
}
