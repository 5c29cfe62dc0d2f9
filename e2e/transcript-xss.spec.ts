/**
 * Covers: transcripts are untrusted model output. Payloads in completions, tool arguments, tool
 * results, prompts and group ids are shown as text: no script runs (a page-side flag and a dialog
 * listener stay silent), no page error occurs, and the text stays readable.
 */
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
              function: { name: "lookup", arguments: JSON.stringify({ q: p }) },
            },
          ],
        },
        { role: "tool", tool_call_id: `c${i}`, content: p },
        { role: "assistant", content: p },
      ],
      reward: 1,
    },
    { group_id: i === 0 ? p : `g${i}`, completion: `plain ${p}`, reward: 0 },
  ])
    .map((r) => JSON.stringify(r))
    .join("\n");
}

describe("hostile transcripts", () => {
  test("payloads render as text and nothing executes", async ({
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
      await page.getByTestId("group.detail").waitFor();
    }
    expect(
      await page.evaluate(() => (window as unknown as { __xss?: number }).__xss),
    ).toBeUndefined();
    expect(dialogs).toEqual([]);
    expect(await page.locator("img[src=x], svg[onload], iframe, script:not([src])").count()).toBe(
      0,
    );
    // The last group's completion text is shown literally.
    expect(await page.getByTestId("group.detail").innerText()).toContain("zero\u200Bwidth");
    expect(pageErrors.list).toEqual([]);
  });
});
