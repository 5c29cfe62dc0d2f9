/**
 * Covers: the large-file path on small files (`?index-threshold=0` forces it): JSONL is indexed in
 * the worker, groups come together even when not contiguous, a group's rows are parsed when it is
 * opened, and problems found only by the full parser join the issue list then.
 */
import { fileURLToPath } from "node:url";
import { describe, expect, test } from "./harness/test.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const FIXTURES = `${ROOT}src/io/__fixtures__`;

const jsonl = (name: string, lines: readonly object[]) => ({
  name,
  mimeType: "application/jsonl",
  buffer: Buffer.from(lines.map((l) => JSON.stringify(l)).join("\n")),
});

describe("indexed loading", () => {
  test("non-contiguous groups come together; a group is parsed when opened", async ({
    baseUrl,
    loaderPage,
    page,
    pageErrors,
  }) => {
    await page.goto(`${baseUrl}/?index-threshold=0`);
    await loaderPage.choose(
      jsonl("interleaved.jsonl", [
        { group_id: "a", completion: "alpha one", reward: 1 },
        { group_id: "b", completion: "beta one", reward: 0 },
        { group_id: "a", completion: "alpha two", reward: 0 },
        { group_id: "b", completion: "beta two", reward: 1 },
        { group_id: "a", completion: "alpha three", reward: 1 },
        { group_id: "c", completion: "gamma", reward: 1 },
        { group_id: "b", completion: "beta three", reward: 0 },
      ]),
    );
    expect(await loaderPage.groupIds()).toEqual(["a", "b", "c"]);
    expect(await loaderPage.counts.innerText()).toContain("7 rollouts in 3 groups");
    const rows = page.getByTestId("group-row");
    expect(await rows.nth(0).innerText()).toMatch(/a\s+3\s+2\s+0\.667/);
    expect(await rows.nth(2).innerText()).toContain("partial");
    await page.getByTestId("groups.row.id").filter({ hasText: "b" }).click();
    await page.getByTestId("group.detail").getByText("Group b").waitFor();
    expect(await page.getByTestId("rollout-column").allInnerTexts()).toEqual([
      expect.stringContaining("beta one") as string,
      expect.stringContaining("beta two") as string,
      expect.stringContaining("beta three") as string,
    ]);
    expect(pageErrors.list).toEqual([]);
  });

  test("issues: found by the index at once, by the full parser when the group opens", async ({
    baseUrl,
    loaderPage,
    page,
    pageErrors,
  }) => {
    await page.goto(`${baseUrl}/?index-threshold=0`);
    await loaderPage.choose(`${FIXTURES}/native/malformed.jsonl`);
    expect(await loaderPage.groupIds()).toEqual(["g"]);
    // Line 9 (completion and messages together) is valid for the index; the full parser rejects it
    // once group g is parsed, which happens as soon as it is shown.
    await page.getByTestId("group.detail").waitFor();
    await page.getByText("7 issues").waitFor();
    const issues = await loaderPage.issues();
    expect(
      issues.some((i) => i.startsWith("malformed.jsonl:3 reward: expected a finite number")),
    ).toBe(true);
    expect(
      issues.some((i) =>
        i.startsWith("malformed.jsonl:9 completion: give either completion or messages"),
      ),
    ).toBe(true);
    expect(await page.getByTestId("rollout-column").count()).toBe(2);
    expect(pageErrors.list).toEqual([]);
  });
});
