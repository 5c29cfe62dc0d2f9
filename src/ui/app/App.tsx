import { useState } from "react";

import ChosenFileList from "../components/ChosenFileList.tsx";
import DropZone from "../components/DropZone.tsx";
import { prepareChosenFiles } from "./prepareChosenFiles.ts";

import "./App.css";

export default function App() {
  const [files, setFiles] = useState<readonly File[]>([]);
  const rows = prepareChosenFiles(files);

  return (
    <div className="app">
      <header className="app__header" data-testid="app.header">
        <img className="app__logo" src="/favicon.svg" alt="" width="24" height="24" />
        <h1 className="app__title">Rollout Studio</h1>
      </header>
      <main className="app__main">
        <DropZone onFiles={setFiles}>
          {rows.length > 0 && (
            <ChosenFileList
              rows={rows}
              note={
                <>
                  Reading rollout files in the studio is not available in this build yet; use the
                  CLI: <code>npx rollout-studio analyze FILE</code>
                </>
              }
            />
          )}
        </DropZone>
      </main>
    </div>
  );
}
