/**
 * Covers: with a dataset open (the drop zone is gone), a file dropped anywhere on the page replaces
 * it, and the page does not navigate away.
 */
import { describe, expect, test } from "./harness/test.ts";

const ROWS = [
  { group_id: "dropped-1", id: "d/0", completion: "a", reward: 1 },
  { group_id: "dropped-1", id: "d/1", completion: "b", reward: 0 },
  { group_id: "dropped-2", id: "d/2", completion: "c", reward: 1 },
]
  .map((r) => JSON.stringify(r))
  .join("\n");

describe("drop a file at any time", () => {
  test("a file dropped on the open studio replaces the dataset", async ({
    baseUrl,
    loaderPage,
    page,
    pageErrors,
  }) => {
    await page.goto(`${baseUrl}/?demo`);
    await loaderPage.counts.getByText("226 rollouts").waitFor();
    const before = page.url();
    const transfer = await page.evaluateHandle((text) => {
      const dt = new DataTransfer();
      dt.items.add(new File([text], "dropped.jsonl", { type: "application/jsonl" }));
      return dt;
    }, ROWS);
    await page.dispatchEvent("main", "dragover", { dataTransfer: transfer });
    await page.dispatchEvent("main", "drop", { dataTransfer: transfer });
    await loaderPage.counts.getByText("3 rollouts in 2 groups").waitFor();
    expect(new URL(page.url()).origin).toBe(new URL(before).origin);
    expect(pageErrors.list).toEqual([]);
  });
});
