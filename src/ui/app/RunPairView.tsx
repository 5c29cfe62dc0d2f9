/**
 * The pair a Run vs run row opened (issue 19): the prompt's group in run A (the dataset on
 * screen) and in run B, side by side in the main area in place of the group workspace, with the
 * column view of the rollouts feature. Composed here: the panel that opens it and the columns are
 * two features.
 */
import { useStore } from "../../store/index.ts";
import type { LoadState } from "../../store/slices/datasetSlice.ts";
import { GroupPair } from "../features/rollouts/GroupPair.tsx";

/** "Run A · step 20 · name": which run, and the group's step when it has one. */
function sideLabel(run: "A" | "B", load: LoadState, groupId: string): string {
  if (load.status !== "ready") return `Run ${run}`;
  const step = load.dataset.summaries.find((s) => s.id === groupId)?.step ?? null;
  return `Run ${run}${step === null ? "" : ` · step ${step}`} · ${load.file.name}`;
}

export default function RunPairView() {
  const pair = useStore((s) => s.comparePair);
  const load = useStore((s) => s.load);
  const run = useStore((s) => s.compareRun);
  const openComparePair = useStore((s) => s.openComparePair);
  if (pair === null) return null;
  return (
    <section className="workspace workspace--fill" aria-label="Run A and run B side by side">
      <GroupPair
        left={{ run: "a", groupId: pair.a, label: sideLabel("A", load, pair.a) }}
        right={{ run: "b", groupId: pair.b, label: sideLabel("B", run, pair.b) }}
        title={`Prompt ${pair.prompt} in run A and in run B`}
        closeLabel="← Back to the group"
        onClose={() => openComparePair(null)}
      />
    </section>
  );
}
