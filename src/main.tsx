import { StrictMode } from "react";
import { createRoot } from "react-dom/client";

import { verifiersBoot } from "./store/verifiers/verifierBoot.ts";
import { prewarmLoadWorkerWhenIdle } from "./workers/loadClient.ts";
import App from "./ui/app/App.tsx";
import { prefetchDatasetScreenWhenIdle } from "./ui/app/loadDatasetScreen.ts";
import ErrorBoundary from "./ui/app/ErrorBoundary.tsx";

const rootElement = document.getElementById("root");
if (rootElement === null) {
  throw new Error('index.html has no element with id "root" to mount the studio into.');
}

// A reward spec saved in this browser scores the data from the start (the verifiers load lazily).
verifiersBoot();

// A file chosen later starts on a worker that is already running, and finds the dataset screen's
// code (loaded lazily, so that the first page is only the drop zone) already fetched.
prewarmLoadWorkerWhenIdle();
prefetchDatasetScreenWhenIdle();

createRoot(rootElement).render(
  <StrictMode>
    <ErrorBoundary>
      <App />
    </ErrorBoundary>
  </StrictMode>,
);
