/**
 * Launches the system Chromium through playwright-core. Playwright's own browser download is never
 * used: CI installs Debian's chromium package, and CHROMIUM_PATH points elsewhere when needed.
 */
import { chromium, type Browser } from "playwright-core";

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    // CI runs as root in a container, where Chromium's sandbox cannot start.
    chromiumSandbox: false,
    args: [
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
}
