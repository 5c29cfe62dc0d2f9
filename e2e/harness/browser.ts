/**
 * Launches the system Chromium through playwright-core. Playwright's own browser download is never
 * used: CI installs Debian's chromium package, and CHROMIUM_PATH points elsewhere when needed.
 */
import { chromium, type Browser, type BrowserContext } from "playwright-core";

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

const ARGS = [
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    // CI runs as root in a container, where Chromium's sandbox cannot start.
    chromiumSandbox: false,
    args: ARGS,
  });
}

/**
 * A browser on a profile directory of its own, so storage (IndexedDB) outlives the browser: the
 * durability spec kills one and reopens the profile in the next.
 */
export function launchPersistentChromium(userDataDir: string): Promise<BrowserContext> {
  return chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    chromiumSandbox: false,
    args: ARGS,
    viewport: { width: 1280, height: 800 },
  });
}
