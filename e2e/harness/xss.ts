/**
 * Checks for hostile text (issue 8 part 3), shared by the specs that inject the corpus in
 * e2e/data/xssPayloads.ts: a dialog listener, the page-side flag every payload sets if it runs,
 * the DOM scan for anything that could run script, and the transcript's invisible-character
 * markers read back as the characters they stand for.
 */
import type { Page } from "playwright-core";

/** Records every dialog (alert, confirm, prompt) the page opens, dismissing it. */
export function watchDialogs(page: Page): { readonly list: readonly string[] } {
  const list: string[] = [];
  page.on("dialog", (d) => {
    list.push(`${d.type()}: ${d.message()}`);
    d.dismiss().catch(() => undefined);
  });
  return { list };
}

/** The flag a payload sets when it runs, in the page or a frame's parent: undefined when none ran. */
export function xssFlag(page: Page): Promise<unknown> {
  return page.evaluate(() => (window as unknown as { __xss?: unknown }).__xss);
}

/** Everything in the DOM that could run script: handler attributes and script-capable URLs. */
export function dangerousAttributes(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const found: string[] = [];
    for (const el of document.querySelectorAll("*")) {
      for (const a of el.attributes) {
        const name = a.name.toLowerCase();
        if (name.startsWith("on")) found.push(`${el.tagName} ${name}`);
        if (
          ["href", "src", "action", "formaction", "xlink:href", "srcdoc", "data"].includes(name) &&
          /^\s*(javascript|vbscript|data|blob):/i.test(a.value)
        )
          found.push(`${el.tagName} ${name}=${a.value}`);
        if (name === "style" && /url\s*\(|expression\s*\(/i.test(a.value))
          found.push(`${el.tagName} style=${a.value}`);
      }
    }
    return found;
  });
}

const INJECTED = [
  "main img",
  "main svg[onload]",
  "main iframe",
  "main object",
  "main embed",
  "main style",
  "main link",
  "main input[autofocus]",
  "main video",
  "main math",
  "main marquee",
  "script:not([src])",
  "body meta",
  "body base",
].join(", ");

/** Elements no untrusted text may create inside the app's main area (or anywhere, for some). */
export function injectedElements(page: Page): Promise<string[]> {
  return page.locator(INJECTED).evaluateAll((els) => els.map((e) => e.outerHTML.slice(0, 120)));
}

/** Text as the transcript shows it, with each ⟨U+XXXX⟩ marker turned back into its character. */
export function unmarked(text: string): string {
  return text.replace(/⟨U\+([0-9A-F]{4,6})⟩/g, (_, hex: string) =>
    String.fromCodePoint(parseInt(hex, 16)),
  );
}
