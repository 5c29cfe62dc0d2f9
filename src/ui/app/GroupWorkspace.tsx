/**
 * The open group: its heading, the reviewed mark, and tabs over the feature views (rollouts side
 * by side with the annotation controls, the metrics panel, the divergence view, blind pairwise
 * comparison). Heavy views load on demand.
 */
import { lazy, Suspense, useCallback, useState, type Ref } from "react";
import { useStore } from "../../store/index.ts";
import type { GroupView } from "../../store/hooks.ts";
import AnnotateKeys from "../features/annotate/AnnotateKeys.tsx";
import ColumnTools from "../features/annotate/ColumnTools.tsx";
import { GroupDetail } from "../features/rollouts/RolloutColumns.tsx";

const MetricsPanel = lazy(() => import("../features/metrics/MetricsPanel.tsx"));
const DivergenceView = lazy(() => import("../features/rollouts/DivergenceView.tsx"));
const PairwiseView = lazy(() => import("../features/pairwise/PairwiseView.tsx"));
const RubricTab = lazy(() => import("../features/rubrics/RubricTab.tsx"));
// The ranking panel, notes and taxonomy load beside the columns, never in front of them.
const AnnotatePanel = lazy(() => import("../features/annotate/AnnotatePanel.tsx"));

const TABS = [
  { id: "rollouts", label: "Rollouts" },
  { id: "metrics", label: "Metrics" },
  { id: "divergence", label: "Divergence" },
  { id: "compare", label: "Compare" },
  { id: "rubric", label: "Rubric" },
] as const;

type Tab = (typeof TABS)[number]["id"];

export default function GroupWorkspace({
  groupId,
  ref,
}: {
  groupId: string;
  /** Focused when a group is opened from the keyboard. */
  ref?: Ref<HTMLElement>;
}) {
  const [tab, setTab] = useState<Tab>("rollouts");
  // Only the reviewed mark: a ranking or label change does not re-render the workspace.
  const reviewed = useStore((s) => s.annotations.groups[groupId]?.reviewed ?? false);
  const setReviewed = useStore((s) => s.setReviewed);
  const renderAnnotatePanel = useCallback(
    (view: GroupView) => (
      <Suspense fallback={null}>
        <AnnotatePanel parsed={view} />
      </Suspense>
    ),
    [],
  );
  const renderColumnTools = useCallback(
    (rolloutId: string) => <ColumnTools groupId={groupId} rolloutId={rolloutId} />,
    [groupId],
  );
  return (
    <section
      ref={ref}
      tabIndex={-1}
      className={tab === "rollouts" ? "workspace workspace--fill" : "workspace"}
      aria-label={`Group ${groupId}`}
      data-testid="group.workspace"
    >
      <div className="workspace__bar">
        <div role="tablist" aria-label="Group views" className="workspace__tabs">
          {TABS.map((t) => (
            <button
              key={t.id}
              type="button"
              role="tab"
              aria-selected={tab === t.id}
              className="workspace__tab"
              data-testid={`workspace.tab.${t.id}`}
              onClick={() => setTab(t.id)}
            >
              {t.label}
            </button>
          ))}
        </div>
        <label className="workspace__reviewed">
          <input
            type="checkbox"
            checked={reviewed}
            data-testid="group.reviewed"
            onChange={(e) => setReviewed(groupId, e.currentTarget.checked)}
          />{" "}
          Reviewed
        </label>
      </div>
      <div role="tabpanel" className="workspace__panel">
        <Suspense fallback={<p className="workspace__loading">Loading view…</p>}>
          {tab === "rollouts" ? (
            <AnnotateKeys groupId={groupId}>
              <GroupDetail
                groupId={groupId}
                renderColumnTools={renderColumnTools}
                renderAboveColumns={renderAnnotatePanel}
              />
            </AnnotateKeys>
          ) : tab === "metrics" ? (
            <MetricsPanel groupId={groupId} />
          ) : tab === "compare" ? (
            <PairwiseView groupId={groupId} />
          ) : tab === "rubric" ? (
            <RubricTab groupId={groupId} />
          ) : (
            <DivergenceView groupId={groupId} />
          )}
        </Suspense>
      </div>
    </section>
  );
}
