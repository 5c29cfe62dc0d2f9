/**
 * The open group: its heading, the reviewed mark, and tabs over the feature views (rollouts side
 * by side with the annotation controls, the metrics panel, the divergence view, blind pairwise
 * comparison, and in a dataset of several steps the prompt's lineage). Heavy views load on demand.
 */
import { lazy, Suspense, useCallback, useMemo, useRef, useState, type Ref } from "react";
import { useStore } from "../../store/index.ts";
import { datasetSteps } from "../../store/datasetInfo.ts";
import { useDataset, type GroupView } from "../../store/hooks.ts";
import { useDatasetRewardsShown, useRewardsShown } from "../../store/team/teamHooks.ts";
import AnnotateKeys from "../features/annotate/AnnotateKeys.tsx";
import ColumnTools from "../features/annotate/ColumnTools.tsx";
import { GroupDetail } from "../features/rollouts/RolloutColumns.tsx";
import { GroupPair } from "../features/rollouts/GroupPair.tsx";
import type { RenderLineagePair } from "../features/lineage/LineageView.tsx";
import { focusAdjacentColumn } from "../features/rollouts/columnFocus.ts";
import { TeamGroupBar } from "../features/team/TeamGroupBar.tsx";
import { useDocumentShortcuts } from "../components/keyboard.ts";
import { WORKSPACE_TABS, workspaceCommand, type WorkspaceTab } from "./workspaceShortcuts.ts";

const MetricsPanel = lazy(() => import("../features/metrics/MetricsPanel.tsx"));
const DivergenceView = lazy(() => import("../features/rollouts/DivergenceView.tsx"));
const PairwiseView = lazy(() => import("../features/pairwise/PairwiseView.tsx"));
const RubricTab = lazy(() => import("../features/rubrics/RubricTab.tsx"));
const LineageView = lazy(() => import("../features/lineage/LineageView.tsx"));
// The ranking panel, notes and taxonomy load beside the columns, never in front of them.
const AnnotatePanel = lazy(() => import("../features/annotate/AnnotatePanel.tsx"));

type Tab = WorkspaceTab;

/** Two steps of the prompt side by side: the column view's pair, both of the dataset on screen. */
const renderLineagePair: RenderLineagePair = (left, right, onClose, prompt) => (
  <GroupPair
    left={{ run: "a", ...left }}
    right={{ run: "a", ...right }}
    title={`Prompt ${prompt}: ${left.label.toLowerCase()} and ${right.label.toLowerCase()}`}
    closeLabel="← Back to the lineage"
    onClose={onClose}
  />
);

const RANKING_ITEM = '[data-testid="ranking.item"]';

/** Focuses the ranking's first pass once it is rendered (the panel loads lazily). */
function focusRanking(root: HTMLElement, tries = 30): void {
  const item = root.querySelector<HTMLElement>(RANKING_ITEM);
  if (item !== null) {
    item.focus({ preventScroll: true });
    item.scrollIntoView({ block: "nearest", inline: "nearest" });
  } else if (tries > 0) requestAnimationFrame(() => focusRanking(root, tries - 1));
}

export default function GroupWorkspace({
  groupId,
  ref,
}: {
  groupId: string;
  /** Focused when a group is opened from the keyboard. */
  ref?: Ref<HTMLElement>;
}) {
  const [tab, setTab] = useState<Tab>("rollouts");
  // The Lineage tab follows a prompt across steps: only a dataset of two steps or more has one.
  const summaries = useDataset()?.summaries;
  const hasSteps = useMemo(
    () => summaries !== undefined && datasetSteps(summaries) >= 2,
    [summaries],
  );
  const tabs = hasSteps ? WORKSPACE_TABS : WORKSPACE_TABS.filter((t) => t.id !== "lineage");
  const shown: Tab = !hasSteps && tab === "lineage" ? "rollouts" : tab;
  const selectGroup = useStore((s) => s.selectGroup);
  const openFromLineage = useCallback(
    (id: string) => {
      selectGroup(id);
      setTab("rollouts");
    },
    [selectGroup],
  );
  const own = useRef<HTMLElement | null>(null);
  const setRef = useCallback(
    (el: HTMLElement | null) => {
      own.current = el;
      if (typeof ref === "function") ref(el);
      else if (ref) ref.current = el;
    },
    [ref],
  );
  // The keys of the group view (workspaceShortcuts.ts), from anywhere but a field or a dialog:
  // the column keys only with the focus in this workspace (or nowhere), outside the ranking.
  useDocumentShortcuts(
    (e) => {
      const target = e.target instanceof Element ? e.target : null;
      const root = own.current;
      if (root === null) return null;
      const command = workspaceCommand(e, target?.closest('[data-testid="ranking.panel"]') != null);
      if (command?.kind !== "column") return command;
      const here = target === null || target === document.body || root.contains(target);
      return here && shown === "rollouts" ? command : null;
    },
    (command) => {
      const root = own.current;
      if (root === null) return;
      if (command.kind === "tab") {
        if (command.tab !== "lineage" || hasSteps) setTab(command.tab);
      } else if (command.kind === "ranking") {
        setTab("rollouts");
        requestAnimationFrame(() => focusRanking(root));
      } else focusAdjacentColumn(root, document.activeElement, command.step);
    },
  );
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
  // Blind mode (team mode, issue 18): every view but the columns shows the group's rewards or
  // what follows from them (metrics, divergence, the comparison's pass column, the rubric's
  // scores), so only the columns (which hide them) show until it is submitted. The lineage shows
  // the prompt's groups of other steps too: it follows the dataset-wide rule.
  const groupRewardsShown = useRewardsShown(groupId);
  const datasetRewardsShown = useDatasetRewardsShown();
  const rewardsShown = shown === "lineage" ? datasetRewardsShown : groupRewardsShown;
  const renderColumnTools = useCallback(
    (rolloutId: string) => <ColumnTools groupId={groupId} rolloutId={rolloutId} />,
    [groupId],
  );
  return (
    <section
      ref={setRef}
      tabIndex={-1}
      className={
        shown === "rollouts" || shown === "lineage" ? "workspace workspace--fill" : "workspace"
      }
      aria-label={`Group ${groupId}`}
      data-testid="group.workspace"
    >
      <TeamGroupBar groupId={groupId} onOpen={selectGroup} />
      <div className="workspace__bar">
        <div role="tablist" aria-label="Group views" className="workspace__tabs">
          {tabs.map((t) => (
            <button
              key={t.id}
              type="button"
              role="tab"
              aria-selected={shown === t.id}
              className="workspace__tab"
              data-testid={`workspace.tab.${t.id}`}
              aria-keyshortcuts={String(WORKSPACE_TABS.indexOf(t) + 1)}
              title={`${t.label} (key ${WORKSPACE_TABS.indexOf(t) + 1})`}
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
          {shown === "rollouts" ? (
            <AnnotateKeys groupId={groupId}>
              <GroupDetail
                groupId={groupId}
                renderColumnTools={renderColumnTools}
                renderAboveColumns={renderAnnotatePanel}
              />
            </AnnotateKeys>
          ) : !rewardsShown ? (
            <p className="workspace__loading" data-testid="team.tab-hidden">
              {shown === "lineage"
                ? "Blind mode: the lineage shows the rewards of this prompt's groups at every step. It shows once you have submitted every blind group."
                : "Blind mode: this view shows the group's rewards or what follows from them. It shows once you submit the group."}
            </p>
          ) : shown === "metrics" ? (
            <MetricsPanel groupId={groupId} />
          ) : shown === "compare" ? (
            <PairwiseView groupId={groupId} />
          ) : shown === "rubric" ? (
            <RubricTab groupId={groupId} />
          ) : shown === "lineage" ? (
            <LineageView
              groupId={groupId}
              onOpenGroup={openFromLineage}
              renderPair={renderLineagePair}
            />
          ) : (
            <DivergenceView groupId={groupId} />
          )}
        </Suspense>
      </div>
    </section>
  );
}
