/**
 * Covers: loading files in the built app through the worker: the detected format and group key,
 * the groups, a group's rollouts, a malformed file's issues with line numbers (good rows still
 * loaded), a file in no known format, and reading a file again as another format.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { ARTIFACTS_DIR, describe, expect, test } from "./harness/test.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const FIXTURES = `${ROOT}src/io/__fixtures__`;
const TAU = `${ROOT}../shared/data/tau-bench/gpt-4o-airline.json`;

const jsonl = (name: string, text: string) => ({
  name,
  mimeType: "application/jsonl",
  buffer: Buffer.from(text),
});

describe("loading files", () => {
  test("native JSONL: groups, format and group key", async ({
    baseUrl,
    loaderPage,
    page,
    pageErrors,
  }) => {
    await loaderPage.open(baseUrl);
    await loaderPage.choose(`${FIXTURES}/native/basic.jsonl`);
    expect(await loaderPage.groupIds()).toEqual(["g1", "2"]);
    expect(await loaderPage.readAs.inputValue()).toBe("native");
    expect(await loaderPage.groupKey.innerText()).toContain("group_id");
    expect(await loaderPage.counts.innerText()).toContain("5 rollouts in 2 groups");
    expect(await loaderPage.issueCount.innerText()).toBe("No issues");
    expect(await page.getByTestId("rollout-column").count()).toBe(3);
    await page.getByTestId("groups.row.id").filter({ hasText: "2" }).click();
    await page.getByTestId("group.detail").getByText("Group 2").waitFor();
    expect(await page.getByTestId("rollout-column").allInnerTexts()).toEqual([
      expect.stringContaining("Refunded.") as string,
      expect.stringContaining("No.") as string,
    ]);
    expect(pageErrors.list).toEqual([]);
  });

  test("tau-bench: 50 groups of 4 from the real file", async ({
    baseUrl,
    loaderPage,
    page,
    pageErrors,
  }) => {
    await loaderPage.open(baseUrl);
    await loaderPage.choose(TAU);
    const ids = await loaderPage.groupIds();
    expect(ids).toHaveLength(50);
    expect(ids.slice(0, 3)).toEqual(["0", "1", "2"]);
    expect(await loaderPage.counts.innerText()).toContain("200 rollouts in 50 groups");
    expect(await loaderPage.readAs.inputValue()).toBe("tau-bench");
    await page.screenshot({ path: `${ARTIFACTS_DIR}tau-bench.png`, fullPage: false });
    expect(pageErrors.list).toEqual([]);
  });

  test("a malformed file shows its issues with line numbers and keeps the good rows", async ({
    baseUrl,
    loaderPage,
    pageErrors,
  }) => {
    await loaderPage.open(baseUrl);
    await loaderPage.choose({
      name: "malformed.jsonl",
      mimeType: "application/jsonl",
      buffer: readFileSync(`${FIXTURES}/native/malformed.jsonl`),
    });
    expect(await loaderPage.groupIds()).toEqual(["g"]);
    expect(await loaderPage.counts.innerText()).toContain(
      "2 rollouts in 1 groups, 7 of 9 records rejected",
    );
    expect(await loaderPage.issueCount.innerText()).toBe("7 issues");
    const issues = await loaderPage.issues();
    expect(issues).toHaveLength(7);
    expect(issues[0]).toBe('malformed.jsonl:3 reward: expected a finite number, got "high"');
    expect(issues[1]).toMatch(/^malformed\.jsonl:4 not valid JSON/);
    expect(pageErrors.list).toEqual([]);
  });

  test("a file in no known format says what was expected and offers formats", async ({
    baseUrl,
    loaderPage,
    pageErrors,
  }) => {
    await loaderPage.open(baseUrl);
    await loaderPage.choose(jsonl("mystery.jsonl", '{"foo": 1}\n{"bar": 2}\n'));
    await loaderPage.loadError.waitFor();
    expect(await loaderPage.loadError.innerText()).toContain(
      "mystery.jsonl: is in no known format",
    );
    expect(await loaderPage.loadError.getByTestId("load.read-as").count()).toBeGreaterThan(0);
    expect(pageErrors.list).toEqual([]);
  });

  test("opening another file replaces the dataset", async ({ baseUrl, loaderPage, pageErrors }) => {
    await loaderPage.open(baseUrl);
    await loaderPage.choose(jsonl("a.jsonl", '{"group_id":"x","completion":"a","reward":1}\n'));
    expect(await loaderPage.groupIds()).toEqual(["x"]);
    await loaderPage.choose(jsonl("b.jsonl", '{"group_id":"y","completion":"b","reward":0}\n'));
    await loaderPage.page.getByTestId("groups.row.id").filter({ hasText: "y" }).waitFor();
    expect(await loaderPage.groupIds()).toEqual(["y"]);
    expect(pageErrors.list).toEqual([]);
  });
});
