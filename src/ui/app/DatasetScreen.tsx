/**
 * Everything below the header once a file is opened: the load feedback and preview, the dataset
 * bar, settings, dataset panels, review bar, group browser and the open group's workspace. The
 * shell (App.tsx) loads this module lazily, so the first page carries only the drop zone; main.tsx
 * starts fetching it as soon as the page is idle, before any file is chosen.
 */
import { lazy, Suspense, useMemo, useRef, useState, type ReactNode } from "react";

import DatasetBar from "../features/loader/DatasetBar.tsx";
import LiveBar from "../features/loader/LiveBar.tsx";
import IssuesPanel from "../features/loader/IssuesPanel.tsx";
import LoadPanel from "../features/loader/LoadPanel.tsx";
import { GroupPreview } from "../features/rollouts/RolloutColumns.tsx";
import GroupList from "../features/groups/GroupList.tsx";
import SettingsPanel from "../features/settings/SettingsPanel.tsx";
import SettingsButton from "../features/settings/SettingsButton.tsx";
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
import RunPairView from "./RunPairView.tsx";
import { DATASET_PANELS, type DatasetPanel } from "./datasetPanels.ts";
import { WORKSPACE_SHORTCUTS } from "./workspaceShortcuts.ts";

import { useMappingDialog } from "../features/mapping/useMappingDialog.ts";
import { useStore, viewSession } from "../../store/index.ts";
import { viewSessionIsPersonal } from "../../store/remote/viewSession.ts";
import { datasetSteps } from "../../store/datasetInfo.ts";
import { useBlindPending, useTeamMode } from "../../store/team/teamHooks.ts";
import { datasetHiddenNote } from "../../store/team/teamSelectors.ts";

// The mapping dialog reads file samples with the loaders' container code: load it when needed.
const MappingDialog = lazy(() => import("../features/mapping/MappingDialog.tsx"));

/** Every feature's shortcuts, for the `?` cheat sheet (features never import each other). */
const SHORTCUTS: readonly ShortcutGroup[] = [
  REVIEW_SHORTCUTS,
  GROUP_BROWSER_SHORTCUTS,
  WORKSPACE_SHORTCUTS,
  ANNOTATE_SHORTCUTS,
  TOOL_ERROR_SHORTCUTS,
  PAIRWISE_SHORTCUTS,
];

export default function DatasetScreen({
  brand,
  openFile,
  issuesOpen,
  onToggleIssues,
}: {
  /** The shell's logo and title, and its "Open file" control, for this screen's header. */
  brand: ReactNode;
  openFile: ReactNode;
  /** Kept by the shell, which closes the issue list when another file is opened. */
  issuesOpen: boolean;
  onToggleIssues: () => void;
}) {
  const status = useStore((s) => s.load.status);
  // The first group while a file is indexed, with its rewards: not on a team-mode page (a
  // personal token), where blind mode may hide them and who the page is is not known yet.
  const preview = useStore((s) =>
    s.load.status === "loading" && !TEAM_PAGE ? s.load.preview : null,
  );
  // The open panels, the newest first: the side sheet shows it on top. A page that opens with a
  // run to compare (`view RUN_A RUN_B --compare`) opens with the Run vs run panel.
  const [openPanels, setOpenPanels] = useState<readonly string[]>(() =>
    useStore.getState().compareRun.status === "idle" ? [] : ["run-compare"],
  );
  const togglePanel = (id: string): void =>
    setOpenPanels((open) => (open.includes(id) ? open.filter((p) => p !== id) : [id, ...open]));
  const [settingsOpen, setSettingsOpen] = useState(false);
  const [helpOpen, setHelpOpen] = useState(false);
  const selected = useStore((s) => s.selectedGroupId);
  const selectGroup = useStore((s) => s.selectGroup);
  // A Run vs run row's two groups, side by side in place of the open group until another group
  // is opened (issue 19).
  const runPair = useStore((s) => s.comparePair !== null && s.comparePair.over === selected);
  const workspace = useRef<HTMLElement>(null);
  // Enter on a group row opens it: select it, then move the focus to its workspace (without
  // scrolling: the workspace is laid out to show its transcripts where it is).
  const openGroup = (groupId: string): void => {
    selectGroup(groupId);
    requestAnimationFrame(() => workspace.current?.focus({ preventScroll: true }));
  };
  const mapping = useMappingDialog();
  const [regroup, setRegroup] = useState<File | null>(null);
  const ready = status === "ready";
  // A run's panels (stepsOnly) are offered when the groups have steps.
  const summaries = useStore((s) => (s.load.status === "ready" ? s.load.dataset.summaries : null));
  const hasSteps = useMemo(() => summaries !== null && datasetSteps(summaries) > 0, [summaries]);
  // The team panel (teamOnly) is offered in team mode (`view --db`, issue 18). Blind mode
  // replaces the panels over the whole dataset's rewards with a note while the annotator has a
  // blind group not submitted (store/team/teamSelectors.ts, `selectBlindPending`).
  const teamMode = useTeamMode() !== null;
  const panels = DATASET_PANELS.filter(
    (panel) => (hasSteps || panel.stepsOnly !== true) && (teamMode || panel.teamOnly !== true),
  );
  const sheetPanels = panels
    .filter((panel) => openPanels.includes(panel.id))
    .sort((a, b) => openPanels.indexOf(a.id) - openPanels.indexOf(b.id));

  return (
    <>
      <Suspense fallback={null}>
        {mapping.file !== null ? (
          <MappingDialog file={mapping.file} onClose={mapping.close} />
        ) : regroup !== null ? (
          <MappingDialog file={regroup} onClose={() => setRegroup(null)} />
        ) : null}
      </Suspense>
      {/* The bars: what is loaded and the settings in force, the panels, the review queue. */}
      <div className="app__bars">
        <header className="app__header app__header--dataset" data-testid="app.header">
          {brand}
          <DatasetBar
            issuesOpen={issuesOpen}
            onToggleIssues={onToggleIssues}
            onRegroup={setRegroup}
          />
          {ready ? (
            <SettingsButton
              open={settingsOpen}
              controls={SETTINGS_SHEET_ID}
              onToggle={() => setSettingsOpen((o) => !o)}
            />
          ) : null}
          {openFile}
        </header>
        {ready ? (
          <div className="app__toolbar">
            {panels.map((panel) => (
              <button
                key={panel.id}
                type="button"
                className="workspace__tab"
                aria-pressed={openPanels.includes(panel.id)}
                data-testid={`panel.toggle.${panel.id}`}
                onClick={() => togglePanel(panel.id)}
              >
                {panel.label}
              </button>
            ))}
            <span className="app__toolbar-gap" />
            <AnnotationsFile />
          </div>
        ) : null}
        {ready ? <ReviewBar onOpen={openGroup} onHelp={() => setHelpOpen(true)} /> : null}
        {ready ? <LiveBar /> : null}
      </div>
      {/* Settings (start) and panels (end) are side sheets beside the content: they narrow it and
          never push the transcripts down nor lie over them. */}
      <main className="app__body">
        {ready && settingsOpen ? (
          <aside
            id={SETTINGS_SHEET_ID}
            className="app__sheet app__sheet--start"
            aria-label="Settings"
            data-testid="settings.sheet"
          >
            <SheetHead title="Settings" onClose={() => setSettingsOpen(false)} />
            <SettingsPanel />
          </aside>
        ) : null}
        <div className="app__content" data-testid="app.content">
          <LoadPanel onMapFields={mapping.open} />
          {preview !== null ? (
            <div className="app__preview">
              <p className="app__preview-note" data-testid="preview.note">
                The first group, as read so far: the file is still being indexed. Rows of this group
                further down the file join it when indexing ends, and its numbers may change.
              </p>
              <GroupPreview group={preview} />
            </div>
          ) : null}
          {issuesOpen ? <IssuesPanel /> : null}
          <GroupList onOpen={openGroup} />
          {ready && runPair ? (
            <RunPairView />
          ) : ready && selected !== null ? (
            <GroupWorkspace groupId={selected} ref={workspace} />
          ) : null}
        </div>
        {ready && sheetPanels.length > 0 ? (
          <PanelsSheet panels={sheetPanels} onClose={togglePanel} />
        ) : null}
      </main>
      {helpOpen ? <CheatSheet groups={SHORTCUTS} onClose={() => setHelpOpen(false)} /> : null}
    </>
  );
}

const SETTINGS_SHEET_ID = "settings-sheet";

/**
 * The open panels, the newest first. Blind mode (team mode, issue 18) shows a note in place of a
 * panel over the whole dataset's rewards while the annotator has a blind group not submitted.
 */
function PanelsSheet({
  panels,
  onClose,
}: {
  panels: readonly DatasetPanel[];
  onClose: (id: string) => void;
}) {
  const blindPending = useBlindPending();
  return (
    <aside className="app__sheet app__sheet--end" aria-label="Panels" data-testid="panels.sheet">
      {panels.map((panel) => (
        <section
          key={panel.id}
          className="app__sheet-panel"
          aria-label={panel.label}
          data-testid={`panel.${panel.id}`}
        >
          <SheetHead title={panel.label} onClose={() => onClose(panel.id)} />
          {panel.datasetRewards === true && blindPending !== 0 ? (
            <p className="app__sheet-note" data-testid="team.dataset-hidden">
              {datasetHiddenNote(blindPending)}
            </p>
          ) : (
            <Suspense fallback={<p className="workspace__loading">{panel.loading}</p>}>
              <panel.Component />
            </Suspense>
          )}
        </section>
      ))}
    </aside>
  );
}

/** The page was opened with a team-mode personal token (`view --db`). */
const TEAM_PAGE = viewSession !== null && viewSessionIsPersonal(viewSession);

/** A side sheet's title bar: its name and a close button. */
function SheetHead({ title, onClose }: { title: string; onClose: () => void }) {
  return (
    <div className="app__sheet-head">
      <h2 className="app__sheet-title" title={title}>
        {title}
      </h2>
      <button
        type="button"
        className="app__sheet-close"
        aria-label={`Close ${title}`}
        title={`Close ${title}`}
        onClick={onClose}
      >
        ×
      </button>
    </div>
  );
}
