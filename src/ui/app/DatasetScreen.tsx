/**
 * Everything below the header once a file is opened: the load feedback and preview, the dataset
 * bar, settings, dataset panels, review bar, group browser and the open group's workspace. The
 * shell (App.tsx) loads this module lazily, so the first page carries only the drop zone; main.tsx
 * starts fetching it as soon as the page is idle, before any file is chosen.
 */
import { lazy, Suspense, useRef, useState } from "react";

import DatasetBar from "../features/loader/DatasetBar.tsx";
import IssuesPanel from "../features/loader/IssuesPanel.tsx";
import LoadPanel from "../features/loader/LoadPanel.tsx";
import { GroupPreview } from "../features/rollouts/RolloutColumns.tsx";
import GroupList from "../features/groups/GroupList.tsx";
import SettingsPanel from "../features/settings/SettingsPanel.tsx";
import AnnotationsFile from "../features/annotations/AnnotationsFile.tsx";
import CheatSheet from "../features/review/CheatSheet.tsx";
import ReviewBar from "../features/review/ReviewBar.tsx";
import { REVIEW_SHORTCUTS } from "../features/review/shortcuts.ts";
import { PAIRWISE_SHORTCUTS } from "../features/pairwise/shortcuts.ts";
import { GROUP_BROWSER_SHORTCUTS } from "../features/groups/shortcuts.ts";
import { ANNOTATE_SHORTCUTS } from "../features/annotate/shortcuts.ts";
import { TOOL_ERROR_SHORTCUTS } from "../features/rollouts/toolErrorKeys.ts";
import type { ShortcutGroup } from "../components/keyboard.ts";
import GroupWorkspace from "./GroupWorkspace.tsx";
import { DATASET_PANELS } from "./datasetPanels.ts";

import { useMappingDialog } from "../features/mapping/useMappingDialog.ts";
import { useStore } from "../../store/index.ts";

// The mapping dialog reads file samples with the loaders' container code: load it when needed.
const MappingDialog = lazy(() => import("../features/mapping/MappingDialog.tsx"));

/** Every feature's shortcuts, for the `?` cheat sheet (features never import each other). */
const SHORTCUTS: readonly ShortcutGroup[] = [
  REVIEW_SHORTCUTS,
  GROUP_BROWSER_SHORTCUTS,
  ANNOTATE_SHORTCUTS,
  TOOL_ERROR_SHORTCUTS,
  PAIRWISE_SHORTCUTS,
];

export default function DatasetScreen({
  issuesOpen,
  onToggleIssues,
}: {
  /** Kept by the shell, which closes the issue list when another file is opened. */
  issuesOpen: boolean;
  onToggleIssues: () => void;
}) {
  const status = useStore((s) => s.load.status);
  const preview = useStore((s) => (s.load.status === "loading" ? s.load.preview : null));
  const [openPanels, setOpenPanels] = useState<ReadonlySet<string>>(() => new Set());
  const togglePanel = (id: string): void =>
    setOpenPanels((open) => {
      const next = new Set(open);
      if (!next.delete(id)) next.add(id);
      return next;
    });
  const [helpOpen, setHelpOpen] = useState(false);
  const selected = useStore((s) => s.selectedGroupId);
  const selectGroup = useStore((s) => s.selectGroup);
  const workspace = useRef<HTMLElement>(null);
  // Enter on a group row opens it: select it, then move the focus to its workspace.
  const openGroup = (groupId: string): void => {
    selectGroup(groupId);
    requestAnimationFrame(() => workspace.current?.focus());
  };
  const mapping = useMappingDialog();
  const [regroup, setRegroup] = useState<File | null>(null);

  return (
    <main className="app__dataset">
      <LoadPanel onMapFields={mapping.open} />
      <Suspense fallback={null}>
        {mapping.file !== null ? (
          <MappingDialog file={mapping.file} onClose={mapping.close} />
        ) : regroup !== null ? (
          <MappingDialog file={regroup} onClose={() => setRegroup(null)} />
        ) : null}
      </Suspense>
      {preview !== null ? (
        <div className="app__preview">
          <GroupPreview group={preview} />
        </div>
      ) : null}
      <DatasetBar issuesOpen={issuesOpen} onToggleIssues={onToggleIssues} onRegroup={setRegroup} />
      {status === "ready" ? <SettingsPanel /> : null}
      {issuesOpen ? <IssuesPanel /> : null}
      {status === "ready" ? (
        <div className="app__toolbar">
          {DATASET_PANELS.map((panel) => (
            <button
              key={panel.id}
              type="button"
              className="workspace__tab"
              aria-pressed={openPanels.has(panel.id)}
              data-testid={`panel.toggle.${panel.id}`}
              onClick={() => togglePanel(panel.id)}
            >
              {panel.label}
            </button>
          ))}
          <AnnotationsFile />
        </div>
      ) : null}
      {status === "ready"
        ? DATASET_PANELS.filter((panel) => openPanels.has(panel.id)).map((panel) => (
            <div key={panel.id} data-testid={`panel.${panel.id}`}>
              <Suspense fallback={<p className="workspace__loading">{panel.loading}</p>}>
                <panel.Component />
              </Suspense>
            </div>
          ))
        : null}
      {status === "ready" ? (
        <ReviewBar onOpen={openGroup} onHelp={() => setHelpOpen(true)} />
      ) : null}
      {helpOpen ? <CheatSheet groups={SHORTCUTS} onClose={() => setHelpOpen(false)} /> : null}
      <GroupList onOpen={openGroup} />
      {status === "ready" && selected !== null ? (
        <GroupWorkspace groupId={selected} ref={workspace} />
      ) : null}
    </main>
  );
}
