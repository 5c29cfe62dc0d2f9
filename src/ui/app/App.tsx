import { lazy, Suspense, useEffect, useId, useRef, useState } from "react";

import DropZone from "../components/DropZone.tsx";
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
import type { ShortcutGroup } from "../components/keyboard.ts";
import GroupWorkspace from "./GroupWorkspace.tsx";
import { DATASET_PANELS } from "./datasetPanels.ts";
import { useWindowFileDrop } from "./useWindowFileDrop.ts";

import { useMappingDialog } from "../features/mapping/useMappingDialog.ts";
import { useStore } from "../../store/index.ts";

import "./App.css";

// The mapping dialog reads file samples with the loaders' container code: load it when needed.
const MappingDialog = lazy(() => import("../features/mapping/MappingDialog.tsx"));

/**
 * `?index-threshold=BYTES` lowers the size from which JSONL files are indexed and parsed a group at a
 * time (default 32 MB): the e2e specs use it to test that path on small files.
 */
function indexThresholdFromUrl(): { indexThreshold?: number } {
  const raw = new URLSearchParams(window.location.search).get("index-threshold");
  const value = raw === null ? NaN : Number(raw);
  return Number.isFinite(value) && value >= 0 ? { indexThreshold: value } : {};
}

/** Every feature's shortcuts, for the `?` cheat sheet (features never import each other). */
const SHORTCUTS: readonly ShortcutGroup[] = [
  REVIEW_SHORTCUTS,
  GROUP_BROWSER_SHORTCUTS,
  ANNOTATE_SHORTCUTS,
  PAIRWISE_SHORTCUTS,
];

/** `npm start` builds with VITE_OPEN_DEMO=1; `?demo` opens the demo in any build. */
const OPEN_DEMO_ON_START =
  import.meta.env.VITE_OPEN_DEMO === "1" || new URLSearchParams(window.location.search).has("demo");

/** The shell: the header with "Open file", then the drop zone, the load feedback, or the dataset. */
export default function App() {
  const status = useStore((s) => s.load.status);
  const preview = useStore((s) => (s.load.status === "loading" ? s.load.preview : null));
  const loadFile = useStore((s) => s.loadFile);
  const loadDemo = useStore((s) => s.loadDemo);
  // Fetching the demo is a request to the server: an external system, once on start.
  useEffect(() => {
    if (OPEN_DEMO_ON_START) loadDemo();
  }, [loadDemo]);
  const [issuesOpen, setIssuesOpen] = useState(false);
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
  const openId = useId();
  const open = (files: readonly File[]): void => {
    const file = files[0];
    if (file === undefined) return;
    setIssuesOpen(false);
    loadFile(file, indexThresholdFromUrl());
  };
  useWindowFileDrop(status !== "idle", open);

  return (
    <div className="app">
      <header className="app__header" data-testid="app.header">
        <img className="app__logo" src="/favicon.svg" alt="" width="24" height="24" />
        <h1 className="app__title">Rollout Studio</h1>
        {status !== "idle" ? (
          <>
            <input
              id={openId}
              className="app__open-input"
              type="file"
              data-testid="file-input"
              onChange={(e) => {
                open(Array.from(e.currentTarget.files ?? []));
                e.currentTarget.value = "";
              }}
            />
            <label
              className="app__open"
              htmlFor={openId}
              title="Or drop a file anywhere on the page"
            >
              Open file
            </label>
          </>
        ) : null}
      </header>
      {status === "idle" ? (
        <main className="app__main">
          <DropZone onFiles={open}>
            <button
              type="button"
              className="app__demo"
              onClick={loadDemo}
              data-testid="drop-zone.demo"
            >
              Or open the demo dataset
            </button>
          </DropZone>
        </main>
      ) : (
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
          <DatasetBar
            issuesOpen={issuesOpen}
            onToggleIssues={() => setIssuesOpen((o) => !o)}
            onRegroup={setRegroup}
          />
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
      )}
    </div>
  );
}
