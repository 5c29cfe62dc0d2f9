/**
 * Covers: the hostile-text corpus (e2e/data/xss-payloads.json, 50+ payloads in eleven categories)
 * through the studio (issue 8 part 3). One group per category, whose id is one of its payloads;
 * every payload of the category is in the group's prompt (system and user), in an assistant turn
 * read as markdown, in a tool call's arguments (and the first call's name), in a tool result, and
 * in the other rollout's completion; then the group notes and a rollout note are typed in the UI.
 * With every prompt, fold and tool result opened: no script runs (the page-side flag every payload
 * sets stays unset, no dialog opens), no page error, nothing in the DOM can run script, and the
 * text stays readable: each payload reads back exactly, as text, from the tool results and the
 * arguments (invisible characters as ⟨U+XXXX⟩ markers), the notes and the group list.
 * (transcript-xss.spec.ts covers the divergence view and markdown specifics.)
 */
import type { Page } from "playwright-core";
import { XSS_CATEGORIES, XSS_PAYLOADS, type XssPayload } from "./data/xssPayloads.ts";
import {
  dangerousAttributes,
  injectedElements,
  unmarked,
  watchDialogs,
  xssFlag,
} from "./harness/xss.ts";
import { describe, expect, test } from "./harness/test.ts";
import { Annotate } from "./pages/Annotate.ts";

interface Case {
  readonly groupId: string;
  readonly category: string;
  readonly payloads: readonly XssPayload[];
  /** The rollout with the transcript, and the one with a plain completion. */
  readonly rich: string;
  readonly plain: string;
}

const CASES: readonly Case[] = XSS_CATEGORIES.map((category, i) => {
  const payloads = XSS_PAYLOADS.filter((p) => p.category === category);
  return { groupId: payloads[0]!.payload, category, payloads, rich: `r${i}a`, plain: `r${i}b` };
});

const joined = (c: Case): string => c.payloads.map((p) => p.payload).join("\n\n");

function rows(): string {
  return CASES.flatMap((c) => {
    const all = joined(c);
    return [
      {
        group_id: c.groupId,
        id: c.rich,
        prompt: [
          { role: "system", content: all },
          { role: "user", content: all },
        ],
        messages: [
          {
            role: "assistant",
            content: all,
            tool_calls: c.payloads.map((p, k) => ({
              id: `c${k}`,
              type: "function",
              function: {
                name: k === 0 ? p.payload : "lookup",
                arguments: JSON.stringify({ q: p.payload }),
              },
            })),
          },
          ...c.payloads.map((p, k) => ({
            role: "tool",
            tool_call_id: `c${k}`,
            content: `result ${k}: ${p.payload}`,
          })),
          { role: "assistant", content: `Done.\n\n${all}` },
        ],
        reward: 1,
      },
      { group_id: c.groupId, id: c.plain, completion: `plain ${all}`, reward: 0 },
    ];
  })
    .map((r) => JSON.stringify(r))
    .join("\n");
}

/** Clicks every element matching `selector` until none is left. */
async function clickAll(page: Page, selector: string): Promise<number> {
  const list = page.locator(selector);
  let clicked = 0;
  for (let n = await list.count(); n > 0 && clicked < 200; n = await list.count()) {
    await list.first().click();
    clicked++;
  }
  return clicked;
}

describe("the hostile-text corpus", () => {
  test("50+ payloads in transcripts, tool calls, results, group ids, prompts and notes: shown as text, never run", async ({
    baseUrl,
    loaderPage,
    page,
    pageErrors,
  }) => {
    expect(XSS_PAYLOADS.length).toBeGreaterThanOrEqual(50);
    expect(XSS_CATEGORIES.length).toBeGreaterThanOrEqual(9);
    const dialogs = watchDialogs(page);
    const annotate = new Annotate(page);
    await loaderPage.open(baseUrl);
    await loaderPage.choose({
      name: "hostile.jsonl",
      mimeType: "application/jsonl",
      buffer: Buffer.from(rows()),
    });
    // Group ids read back exactly as given (the list keeps them as text).
    expect([...(await loaderPage.groupIds())].sort()).toEqual(CASES.map((c) => c.groupId).sort());

    for (const c of CASES) {
      await loaderPage.groups.open(c.groupId);
      await page.getByTestId("workspace.tab.rollouts").click();
      const detail = page.getByTestId("group.detail");
      await detail.waitFor();
      const column = page.locator(`[data-testid="rollout-column"][data-rollout-id="${c.rich}"]`);
      await column.waitFor();
      await clickAll(page, '[data-testid="transcript.prompt"]:not([open]) > summary');
      expect(
        await clickAll(page, '[data-testid="tool-result-toggle"][aria-expanded="false"]'),
        c.category,
      ).toBe(c.payloads.length);
      await clickAll(page, '[data-testid="fold-toggle"][aria-expanded="false"]');
      await clickAll(page, '[data-testid="transcript.more"]');
      await detail.locator("[data-testid=markdown]").first().waitFor();

      expect(await dangerousAttributes(page), c.category).toEqual([]);
      expect(await injectedElements(page), c.category).toEqual([]);

      // Readable: every payload exactly, from the tool results and the arguments.
      const results = (
        await column
          .getByTestId("transcript.tool-result")
          .evaluateAll((els) => els.map((e) => (e as HTMLElement).innerText))
      ).map(unmarked);
      const calls = unmarked(
        (
          await column
            .getByTestId("transcript.tool-call")
            .evaluateAll((els) => els.map((e) => (e as HTMLElement).innerText))
        ).join("\n"),
      );
      c.payloads.forEach((p, k) => {
        expect(results[k], p.id).toContain(`result ${k}: ${p.payload}`);
        expect(calls, p.id).toContain(JSON.stringify(p.payload));
      });
      expect(calls).toContain(c.payloads[0]!.payload);
      // Invisible characters are shown, named, not left to act.
      if (c.category === "bidi" || c.category === "zero-width") {
        const markers = column.getByTestId("transcript.invisible");
        expect(await markers.count(), c.category).toBeGreaterThan(0);
        expect(await markers.first().getAttribute("title")).toMatch(/^U\+[0-9A-F]{4,6} /);
        const shown = await column.evaluate((e) => (e as HTMLElement).innerText);
        expect(/[\u202A-\u202E\u2066-\u2069\u200B\uFEFF]/u.test(shown)).toBe(false);
      }

      // Notes typed in the UI are stored and shown as the text typed.
      const all = joined(c);
      await annotate.groupNotes.fill(all);
      await annotate.groupNotes.blur();
      expect(await annotate.groupNotes.inputValue()).toBe(all);
      await column.getByTestId("annotate.rollout-note-edit").click();
      await annotate.rolloutNote(c.rich).fill(all);
      await annotate.rolloutNote(c.rich).blur();
      expect(await column.getByTestId("annotate.rollout-note-text").textContent()).toBe(all);
      expect(await dangerousAttributes(page), c.category).toEqual([]);
      expect(await injectedElements(page), c.category).toEqual([]);
    }

    // Back to the list and through it once more: nothing ran on the way.
    await page.locator('[data-testid="annotations.saved"][data-pending="0"]').waitFor();
    expect(await xssFlag(page)).toBeUndefined();
    expect(dialogs.list).toEqual([]);
    expect(pageErrors.list).toEqual([]);
  });
});
