import { describe, expect, it } from "vitest";
import type { LoadState } from "../../../store/slices/datasetSlice.ts";
import { mappingDialogFile } from "./useMappingDialog.ts";

type Failed = Extract<LoadState, { status: "error" }>;

const failed = (unknownFormat: boolean, name = "x.csv"): Failed => ({
  status: "error",
  file: new File(["x"], name),
  message: "no",
  candidates: [],
  unknownFormat,
});

describe("mappingDialogFile", () => {
  it("is closed while nothing failed", () => {
    expect(mappingDialogFile(null, { requested: null, dismissed: null })).toBeNull();
  });

  it("opens by itself when no format matched, until dismissed for that load", () => {
    const load = failed(true);
    expect(mappingDialogFile(load, { requested: null, dismissed: null })).toBe(load.file);
    expect(mappingDialogFile(load, { requested: null, dismissed: load })).toBeNull();
    const next = failed(true, "y.csv");
    expect(mappingDialogFile(next, { requested: null, dismissed: load })).toBe(next.file);
  });

  it("opens on request for any failed load, only that one", () => {
    const load = failed(false);
    expect(mappingDialogFile(load, { requested: null, dismissed: null })).toBeNull();
    expect(mappingDialogFile(load, { requested: load, dismissed: null })).toBe(load.file);
    expect(mappingDialogFile(failed(false), { requested: load, dismissed: null })).toBeNull();
  });
});
