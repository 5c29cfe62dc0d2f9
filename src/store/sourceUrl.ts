/**
 * The URL follows the data (issue 13, finding 10): when a dataset is ready, `?demo` for the bundled
 * demo, else `?file=<name>&fp=<fingerprint prefix>` (the fingerprint its annotations are kept
 * under, written once computed). The page cannot read a file back after a reload, so the shell
 * reads these to ask for the same file again instead of showing the demo (App.tsx).
 */
import type { StoreApi } from "zustand";
import { viewRunName } from "../io/view/viewNames.ts";
import { isDemoFile } from "./demo.ts";
import { fingerprintOf } from "./persistence/annotationsSync.ts";
import type { LoadState } from "./slices/datasetSlice.ts";
import { writeSourceToUrl } from "./url.ts";

export function startSourceUrlSync(store: StoreApi<{ readonly load: LoadState }>): () => void {
  return store.subscribe((state, previous) => {
    const load = state.load;
    if (load === previous.load || load.status !== "ready") return;
    if (previous.load.status === "ready" && previous.load.dataset === load.dataset) return;
    if (load.remote !== undefined) {
      const run = load.remote.listing.runs[load.remote.run];
      if (run !== undefined)
        writeSourceToUrl({ kind: "run", path: viewRunName(load.remote.listing, run) });
      return;
    }
    if (isDemoFile(load.file)) {
      writeSourceToUrl({ kind: "demo" });
      return;
    }
    const name = load.file.name;
    writeSourceToUrl({ kind: "file", name, fingerprint: "" });
    fingerprintOf(load.runFiles ?? load.file, load.dataset).then(
      (fingerprint) => {
        // Still the same data: another file may have been opened meanwhile.
        if (store.getState().load === load) writeSourceToUrl({ kind: "file", name, fingerprint });
      },
      // The URL keeps the name alone; the annotations' own fingerprinting reports its failures.
      () => undefined,
    );
  });
}
