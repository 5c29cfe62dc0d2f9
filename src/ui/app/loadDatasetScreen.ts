/**
 * The dataset screen's chunk, imported once: `React.lazy` in the shell and the idle prefetch in
 * main.tsx share this promise, so a file opened right after start waits for one fetch, not two.
 */
import type * as DatasetScreenModule from "./DatasetScreen.tsx";

let screen: Promise<typeof DatasetScreenModule> | null = null;

export function loadDatasetScreen(): Promise<typeof DatasetScreenModule> {
  screen ??= import("./DatasetScreen.tsx");
  return screen;
}

/** Start fetching the dataset screen once the page is idle (at the latest after 250 ms: a file may be dropped at once). */
export function prefetchDatasetScreenWhenIdle(): void {
  const start = (): void => {
    // A failed prefetch is retried by the shell when it renders the screen, and reported there.
    loadDatasetScreen().catch(() => {
      screen = null;
    });
  };
  if (typeof requestIdleCallback === "function") requestIdleCallback(start, { timeout: 250 });
  else setTimeout(start, 0);
}
