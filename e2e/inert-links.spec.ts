/**
 * Covers: links in untrusted transcripts are inert (issue 13, finding 11). A bare URL, a www
 * address and an e-mail address a policy wrote stay text; a written markdown link and an autolink
 * show their full target and have no live href; clicking one opens no page (no new page in the
 * browser context) until the confirmation's "Open in a new tab" is chosen, and Cancel opens none.
 */
import type { Page } from "playwright-core";
import { describe, expect, test } from "./harness/test.ts";
import { GroupView } from "./pages/GroupView.ts";

function rows(target: string): string {
  const text = [
    `Your refund is done. Track it at ${target}&bare=1 or www.evil.example/track,`,
    "or write to support@evil.example.",
    "",
    `Details: [the refund page](${target}&written=1) and <${target}&auto=1>.`,
  ].join("\n");
  return [
    {
      group_id: "links",
      prompt: [{ role: "user", content: "Where is my refund?" }],
      messages: [{ role: "assistant", content: text }],
      reward: 1,
    },
    { group_id: "links", completion: "No links here.", reward: 0 },
  ]
    .map((r) => JSON.stringify(r))
    .join("\n");
}

/** How many pages the context opened since `count` was made. */
function pageCounter(page: Page): () => number {
  let opened = 0;
  page.context().on("page", () => opened++);
  return () => opened;
}

describe("inert links", () => {
  test("no link in a transcript opens a page without a confirmation", async ({
    baseUrl,
    loaderPage,
    page,
    pageErrors,
  }) => {
    const target = `${baseUrl}/?landing=1`;
    const opened = pageCounter(page);
    await loaderPage.open(baseUrl);
    await loaderPage.choose({
      name: "links.jsonl",
      mimeType: "application/jsonl",
      buffer: Buffer.from(rows(target)),
    });
    await loaderPage.groupIds();
    const view = new GroupView(page);
    await view.open("links");
    const column = view.columns.first();
    const message = column.getByTestId("transcript-message").first();
    await message.getByTestId("markdown").waitFor();

    // Nothing in the transcript is a live link; the bare addresses are text.
    expect(await column.locator("a[href]").count()).toBe(0);
    const text = await message.innerText();
    expect(text).toContain(`${target}&bare=1`);
    expect(text).toContain("www.evil.example/track");
    expect(text).toContain("support@evil.example");
    // The written links show their whole target.
    const links = message.getByTestId("transcript.link");
    expect(await links.evaluateAll((els) => els.map((e) => e.getAttribute("data-href")))).toEqual([
      `${target}&written=1`,
      `${target}&auto=1`,
    ]);
    expect(await links.first().getByTestId("transcript.link-target").innerText()).toBe(
      `⟨${target}&written=1⟩`,
    );

    // A click asks; Cancel opens nothing.
    await links.first().getByRole("button").click();
    const confirm = page.getByTestId("link-confirm");
    await confirm.waitFor();
    expect(await confirm.getByTestId("link-confirm.url").innerText()).toBe(`${target}&written=1`);
    await page.waitForTimeout(300);
    expect(opened()).toBe(0);
    await confirm.getByTestId("link-confirm.cancel").click();
    await confirm.waitFor({ state: "detached" });
    // Enter on the autolink asks too.
    await links.nth(1).getByRole("button").press("Enter");
    await confirm.waitFor();
    await page.keyboard.press("Escape");
    await confirm.waitFor({ state: "detached" });
    await page.waitForTimeout(300);
    expect(opened()).toBe(0);

    // Only the confirmation's own link opens the page, in a new tab.
    await links.first().getByRole("button").click();
    const [popup] = await Promise.all([
      page.context().waitForEvent("page"),
      confirm.getByTestId("link-confirm.open").click(),
    ]);
    await popup.waitForURL(`${target}&written=1`);
    expect(opened()).toBe(1);
    await popup.close();
    expect(pageErrors.list).toEqual([]);
  });
});
