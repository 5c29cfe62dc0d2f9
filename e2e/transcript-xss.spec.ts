/**
 * Covers: transcripts are untrusted model output. Payloads in completions, markdown (links and
 * images with javascript: and data: URLs, raw HTML, code fences), tool names, tool arguments, tool
 * results, prompts and group ids go through the whole group view: markdown rendered (and code
 * highlighted), prompts opened, tool results expanded, long text unfolded, and the divergence
 * view with its collapsed steps opened. No script runs (a page-side flag and a dialog listener
 * stay silent), no page error occurs, no element carries an event-handler attribute or a
 * javascript:/data: URL, and the text stays readable.
 */
import type { Page } from "playwright-core";
import { GroupView } from "./pages/GroupView.ts";
import { describe, expect, test } from "./harness/test.ts";

const PAYLOADS = [
  '<img src=x onerror="window.__xss=1;alert(1)">',
  "<script>window.__xss=1;alert(1)</script>",
  '<svg onload="window.__xss=1;alert(1)"></svg>',
  "[click me](javascript:window.__xss=1)",
  '<a href="javascript:window.__xss=1">link</a>',
  '<iframe src="data:text/html,<script>parent.__xss=1</script>"></iframe>',
  '<math><mtext><img src=x onerror="window.__xss=1"></mtext></math>',
  "\u202Egnp.exe\u202C and zero\u200Bwidth",
];

/** Markdown-specific payloads, appended to every assistant turn (and shown as **markdown**). */
const MARKDOWN = [
  "**bold** and a list:",
  "- ![pic](javascript:window.__xss=1)",
  "- [upper](  JAVASCRIPT:window.__xss=1 )",
  "- [data](data:text/html;base64,PHNjcmlwdD5wYXJlbnQuX194c3M9MTwvc2NyaXB0Pg==)",
  "- <javascript:window.__xss=1>",
  "- [ref][evil]",
  "- <details open><summary>raw</summary><img src=x onerror=window.__xss=1></details>",
  "",
  "[evil]: javascript:window.__xss=1",
  "",
  "```html",
  '<script>window.__xss=1</script><img src=x onerror="window.__xss=1">',
  "```",
].join("\n");

function rows(): string {
  return PAYLOADS.flatMap((p, i) => [
    {
      group_id: i === 0 ? p : `g${i}`,
      prompt: [{ role: "user", content: p }],
      messages: [
        {
          role: "assistant",
          content: null,
          tool_calls: [
            {
              id: `c${i}`,
              type: "function",
              function: { name: i === 0 ? p : "lookup", arguments: JSON.stringify({ q: p }) },
            },
          ],
        },
        { role: "tool", tool_call_id: `c${i}`, content: p },
        { role: "tool", tool_call_id: `c${i}`, content: JSON.stringify({ result: p, html: p }) },
        { role: "assistant", content: `${p}\n\n${MARKDOWN}` },
        // Long enough to fold: every payload, many times.
        { role: "assistant", content: Array(8).fill(PAYLOADS.join("\n\n")).join("\n\n") },
      ],
      reward: 1,
    },
    { group_id: i === 0 ? p : `g${i}`, completion: `plain ${p}`, reward: 0 },
  ])
    .map((r) => JSON.stringify(r))
    .join("\n");
}

/** Clicks every element matching `selector` inside the group view until none is left. */
async function clickAll(page: Page, selector: string): Promise<number> {
  const list = page.locator(selector);
  let clicked = 0;
  for (let n = await list.count(); n > 0 && clicked < 100; n = await list.count()) {
    await list.first().click();
    clicked++;
  }
  return clicked;
}

/** Everything in the DOM that could run script: handler attributes and script-capable URLs. */
function dangerousAttributes(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const found: string[] = [];
    for (const el of document.querySelectorAll("*")) {
      for (const a of el.attributes) {
        const name = a.name.toLowerCase();
        if (name.startsWith("on")) found.push(`${el.tagName} ${name}`);
        if (
          ["href", "src", "action", "formaction", "xlink:href", "srcdoc"].includes(name) &&
          /^\s*(javascript|vbscript|data):/i.test(a.value)
        ) {
          found.push(`${el.tagName} ${name}=${a.value}`);
        }
      }
    }
    return found;
  });
}

describe("hostile transcripts", () => {
  test("payloads render as text through the whole group view, and nothing executes", async ({
    baseUrl,
    loaderPage,
    page,
    pageErrors,
  }) => {
    const dialogs: string[] = [];
    page.on("dialog", (d) => {
      dialogs.push(d.message());
      d.dismiss().catch(() => undefined);
    });
    const view = new GroupView(page);
    await loaderPage.open(baseUrl);
    await loaderPage.choose({
      name: "xss.jsonl",
      mimeType: "application/jsonl",
      buffer: Buffer.from(rows()),
    });
    const ids = await loaderPage.groupIds();
    expect(ids[0]).toBe(PAYLOADS[0]);
    for (let k = 0; k < ids.length; k++) {
      await page.getByTestId("groups.row.id").nth(k).click();
      await view.rolloutsTab.click();
      await view.detail.waitFor();
      // The markdown renderer has loaded and rendered the list; the code fence is highlighted.
      await view.detail.locator("[data-testid=markdown] li").first().waitFor();
      await view.detail.locator("[data-testid=markdown] code.hljs").first().waitFor();
      expect(await view.detail.locator("[data-testid=markdown] strong").count()).toBeGreaterThan(0);
      // The rollouts' prompts differ (the second has none), so the first column shows its own.
      expect(await clickAll(page, '[data-testid="transcript.prompt"]:not([open]) > summary')).toBe(
        1,
      );
      expect(
        await clickAll(page, '[data-testid="tool-result-toggle"][aria-expanded="false"]'),
      ).toBe(2);
      expect(
        await clickAll(page, '[data-testid="fold-toggle"][aria-expanded="false"]'),
      ).toBeGreaterThanOrEqual(1);
      expect(await dangerousAttributes(page)).toEqual([]);

      await view.openDivergence();
      await clickAll(page, '[data-testid="divergence.view"] details:not([open]) > summary');
      expect(await view.divergence.getByTestId("divergence.branch").count()).toBe(2);
      expect(await dangerousAttributes(page)).toEqual([]);
    }
    await view.rolloutsTab.click();
    await view.detail.waitFor();

    expect(
      await page.evaluate(() => (window as unknown as { __xss?: number }).__xss),
    ).toBeUndefined();
    expect(dialogs).toEqual([]);
    expect(await page.locator("main img, svg[onload], iframe, script:not([src])").count()).toBe(0);
    expect(await page.locator("summary", { hasText: /^raw$/ }).count()).toBe(0);
    expect(await page.locator("[data-testid=markdown] a").count()).toBe(0);
    // The last group's texts are shown literally, raw HTML included.
    const text = await view.detail.innerText();
    // Invisible characters are shown as named markers (see the transcript's VisibleText).
    expect(text).toContain("zero⟨U+200B⟩width");
    expect(text).toContain("⟨U+202E⟩gnp.exe⟨U+202C⟩");
    expect(/[\u202E\u200B]/u.test(text)).toBe(false);
    expect(text).toContain("<details open><summary>raw</summary>");
    expect(text).toContain("<script>window.__xss=1</script>");
    expect(pageErrors.list).toEqual([]);
  });
});
