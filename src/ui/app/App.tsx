import { lazy, Suspense, useEffect, useId, useState } from "react";

import DropZone from "../components/DropZone.tsx";
import { pickedFiles, type PickedFile } from "../components/droppedFiles.ts";
import { useWindowFileDrop } from "./useWindowFileDrop.ts";
import { loadDatasetScreen } from "./loadDatasetScreen.ts";

import { useStore, viewSession } from "../../store/index.ts";
import { sourceFromUrl } from "../../store/url.ts";

import "./App.css";

// The dataset screen (group browser, workspace, settings, panels) loads lazily: the first page is
// the drop zone. main.tsx prefetches it when the page is idle.
const DatasetScreen = lazy(loadDatasetScreen);

/**
 * `?index-threshold=BYTES` lowers the size from which JSONL files are indexed and parsed a group at a
 * time (default 32 MB): the e2e specs use it to test that path on small files.
 */
function indexThresholdFromUrl(): { indexThreshold?: number } {
  const raw = new URLSearchParams(window.location.search).get("index-threshold");
  const value = raw === null ? NaN : Number(raw);
  return Number.isFinite(value) && value >= 0 ? { indexThreshold: value } : {};
}

/** The data the URL names at start: `?demo`, a file opened before a reload, or none. */
const START_SOURCE = sourceFromUrl();

/**
 * `npm start` builds with VITE_OPEN_DEMO=1; `?demo` opens the demo in any build. A URL that names
 * another file never brings the demo: the page asks for that file again.
 */
const OPEN_DEMO_ON_START =
  START_SOURCE?.kind === "demo" ||
  (START_SOURCE === null && viewSession === null && import.meta.env.VITE_OPEN_DEMO === "1");

/** After a reload of a file the user opened: which one, so they can choose it again. */
function ReopenNotice({ name, fingerprint }: { name: string; fingerprint: string }) {
  return (
    <p className="app__reopen" role="status" data-testid="reopen.notice">
      This page showed <b data-testid="reopen.name">{name}</b>
      {fingerprint === "" ? null : (
        <>
          {" "}
          (fingerprint <code data-testid="reopen.fingerprint">{fingerprint}</code>)
        </>
      )}
      : a page cannot read a file again by itself, so choose it again to continue. Its annotations
      are kept in this browser and come back with it.
    </p>
  );
}

/**
 * The shell: the header and the drop zone, or, once a file is chosen, the dataset screen (whose
 * header holds the brand, what is loaded, the settings summary and "Open file").
 */
export default function App() {
  const status = useStore((s) => s.load.status);
  const loadFile = useStore((s) => s.loadFile);
  const loadFiles = useStore((s) => s.loadFiles);
  const loadDemo = useStore((s) => s.loadDemo);
  // Fetching the demo is a request to the server: an external system, once on start.
  useEffect(() => {
    if (OPEN_DEMO_ON_START) loadDemo();
  }, [loadDemo]);
  const [issuesOpen, setIssuesOpen] = useState(false);
  const openId = useId();
  // One file opens as before; several files, or a folder, open as one run (issue 14).
  const open = (files: readonly PickedFile[]): void => {
    const first = files[0];
    if (first === undefined) return;
    setIssuesOpen(false);
    if (files.length === 1) loadFile(first.file, indexThresholdFromUrl());
    else loadFiles(files, indexThresholdFromUrl());
  };
  useWindowFileDrop(status !== "idle", open);

  const brand = (
    <>
      <img className="app__logo" src="/favicon.svg" alt="" width="24" height="24" />
      <h1 className={status === "idle" ? "app__title" : "app__title app__title--quiet"}>
        Rollout Studio
      </h1>
    </>
  );
  const openFile =
    status === "idle" ? null : (
      <>
        <input
          id={openId}
          className="app__open-input"
          type="file"
          multiple
          data-testid="file-input"
          onChange={(e) => {
            open(pickedFiles(e.currentTarget.files));
            e.currentTarget.value = "";
          }}
        />
        <label className="app__open" htmlFor={openId} title="Or drop a file anywhere on the page">
          Open file
        </label>
      </>
    );

  return (
    <div className="app">
      {status === "idle" ? (
        <>
          <header className="app__header" data-testid="app.header">
            {brand}
          </header>
          <main className="app__main">
            {START_SOURCE?.kind === "file" ? (
              <ReopenNotice name={START_SOURCE.name} fingerprint={START_SOURCE.fingerprint} />
            ) : null}
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
        </>
      ) : (
        <Suspense
          fallback={
            <>
              <header className="app__header" data-testid="app.header">
                {brand}
                {openFile}
              </header>
              <p className="workspace__loading">Loading the studio…</p>
            </>
          }
        >
          {/* The dataset screen puts the brand and "Open file" in its header, beside what is loaded. */}
          <DatasetScreen
            brand={brand}
            openFile={openFile}
            issuesOpen={issuesOpen}
            onToggleIssues={() => setIssuesOpen((o) => !o)}
          />
        </Suspense>
      )}
    </div>
  );
}
