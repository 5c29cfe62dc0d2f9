import type { ConsoleMessage, Page } from "playwright-core";

export interface PageErrors {
  /** Uncaught exceptions and console errors seen so far, oldest first, as readable lines. */
  readonly list: readonly string[];
}

function describeConsoleError(message: ConsoleMessage): string {
  const { url, lineNumber } = message.location();
  const where = url === "" ? "" : ` (${url}:${lineNumber})`;
  return `console.error: ${message.text()}${where}`;
}

/**
 * Starts recording a page's uncaught exceptions (`pageerror`) and console messages of type "error".
 * Chromium reports CSP violations and failed resource loads (a 404 favicon, say) as console errors,
 * so they land here too. Attach before the first navigation; every spec ends with
 * `expect(pageErrors.list).toEqual([])`.
 */
export function collectPageErrors(page: Page): PageErrors {
  const list: string[] = [];
  page.on("pageerror", (error) => {
    list.push(`pageerror: ${error.message}`);
  });
  page.on("console", (message) => {
    if (message.type() === "error") {
      list.push(describeConsoleError(message));
    }
  });
  return { list };
}
