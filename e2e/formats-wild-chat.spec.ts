/**
 * Covers issue 15's chat formats in the built app: the real verifiers `vf-eval` results (wordle
 * chosen with its metadata.json as a run, whose header the bar shows; wiki-search alone, with tool
 * calls), the real NeMo Gym rollouts (blackjack, workplace assistant with tool calls) and the Atropos
 * fixture open with the groups and rollouts their files hold (counted here from the raw JSON), a
 * tool call is rendered in a rollout column, and no page error is raised. Screenshots of a
 * verifiers group at 1440x900 and 1280x720.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { Page } from "playwright-core";
import { jsonlRows, type JsonRow } from "../src/test/jsonlRows.ts";
import { ARTIFACTS_DIR, describe, expect, test } from "./harness/test.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const DATA = `${ROOT}../shared/data`;
const VERIFIERS = `${DATA}/verifiers`;
const NEMO = `${DATA}/nemo-gym`;
const ATROPOS = `${ROOT}src/io/__fixtures__/atropos/groups.jsonl`;

type Row = JsonRow;
const rows = jsonlRows;

/** Groups and rollouts a file holds, by a group key read from each raw row. */
function counts(path: string, key: (row: Row) => string): { groups: number; rollouts: number } {
  const all = rows(path);
  return { groups: new Set(all.map(key)).size, rollouts: all.length };
}

async function expectSummary(page: Page, expected: { groups: number; rollouts: number }) {
  const summary = page.getByTestId("dataset-summary");
  await summary.waitFor();
  expect(await summary.getAttribute("data-groups")).toBe(String(expected.groups));
  expect(await summary.getAttribute("data-rollouts")).toBe(String(expected.rollouts));
}

/** Opens the group of this id and waits for its columns. */
async function openGroup(page: Page, id: string): Promise<void> {
  await page
    .getByTestId("groups.row.id")
    .filter({ hasText: new RegExp(`^${id}$`) })
    .click();
  await page.getByTestId("group.detail").getByText(`Group ${id}`).waitFor();
}

const nemoKey = (row: Row): string =>
  row._ng_task_index !== undefined
    ? JSON.stringify(row._ng_task_index)
    : JSON.stringify((row.responses_create_params as Row).input);

describe("formats in the wild: chat formats", () => {
  test("verifiers wordle with its metadata.json: a run whose header names env, model and size", async ({
    baseUrl,
    loaderPage,
    page,
    pageErrors,
  }) => {
    const results = `${VERIFIERS}/wordle-gpt-5-mini.results.jsonl`;
    const meta = JSON.parse(
      readFileSync(`${VERIFIERS}/wordle-gpt-5-mini.metadata.json`, "utf8"),
    ) as Row;
    await loaderPage.open(baseUrl);
    await loaderPage.fileInput.setInputFiles([
      results,
      `${VERIFIERS}/wordle-gpt-5-mini.metadata.json`,
    ]);
    await expectSummary(
      page,
      counts(results, (r) => JSON.stringify(r.example_id)),
    );
    expect(await loaderPage.readAs.inputValue()).toBe("verifiers");
    const header = page.getByTestId("dataset.run-header");
    expect(await header.innerText()).toBe(
      `${String(meta.env_id)} · ${String(meta.model)} · ${String(meta.num_examples)} examples x ${String(meta.rollouts_per_example)}`,
    );
    expect(await header.getAttribute("title")).toContain(
      `sampling_args: ${JSON.stringify(meta.sampling_args)}`,
    );
    expect(await loaderPage.issueCount.innerText()).toBe("No issues");
    await openGroup(page, "1");
    expect(await page.getByTestId("rollout-column").count()).toBe(3);
    for (const [width, height] of [
      [1440, 900],
      [1280, 720],
    ] as const) {
      await page.setViewportSize({ width, height });
      await page.screenshot({ path: `${ARTIFACTS_DIR}verifiers-wordle-${width}x${height}.png` });
    }
    expect(pageErrors.list).toEqual([]);
  });

  test("verifiers wiki-search alone: 50 examples, tool calls rendered in the column", async ({
    baseUrl,
    loaderPage,
    page,
    pageErrors,
  }) => {
    const results = `${VERIFIERS}/wiki-search-gpt-4.1-mini.results.jsonl`;
    await loaderPage.open(baseUrl);
    await loaderPage.choose(results);
    await expectSummary(
      page,
      counts(results, (r) => JSON.stringify(r.example_id)),
    );
    // One file cannot see its neighbour: no header.
    expect(await page.getByTestId("dataset.run-header").count()).toBe(0);
    const first = rows(results)[0]!;
    const name = (
      JSON.parse((first.completion as { tool_calls?: string[] }[])[0]!.tool_calls![0]!) as {
        function: { name: string };
      }
    ).function.name;
    await openGroup(page, String(first.example_id));
    const call = page.getByTestId("rollout-column").first().getByTestId("transcript.tool-call");
    await call.first().waitFor();
    expect(await call.first().innerText()).toContain(name);
    expect(pageErrors.list).toEqual([]);
  });

  test("NeMo Gym blackjack and workplace assistant: groups, rollouts and a function call", async ({
    baseUrl,
    loaderPage,
    page,
    pageErrors,
  }) => {
    const blackjack = `${NEMO}/resources_servers_blackjack.example_rollouts.jsonl`;
    await loaderPage.open(baseUrl);
    await loaderPage.choose(blackjack);
    await expectSummary(page, counts(blackjack, nemoKey));
    expect(await loaderPage.readAs.inputValue()).toBe("nemo-gym");

    const workplace = `${NEMO}/resources_servers_workplace_assistant.example_rollouts.jsonl`;
    await loaderPage.open(baseUrl);
    await loaderPage.choose(workplace);
    await expectSummary(page, counts(workplace, nemoKey));
    const output = (rows(workplace)[0]!.response as { output: Row[] }).output;
    const call = output.find((o) => o.type === "function_call")!;
    const column = page.getByTestId("rollout-column").first();
    await column.getByTestId("transcript.tool-call").first().waitFor();
    expect(await column.getByTestId("transcript.tool-call").first().innerText()).toContain(
      String(call.name),
    );
    expect(pageErrors.list).toEqual([]);
  });

  test("Atropos: one group per line, one rollout per score, tool calls rendered", async ({
    baseUrl,
    loaderPage,
    page,
    pageErrors,
  }) => {
    const lines = rows(ATROPOS);
    await loaderPage.open(baseUrl);
    await loaderPage.choose(ATROPOS);
    await expectSummary(page, {
      groups: lines.length,
      rollouts: lines.reduce((n, g) => n + (g.scores as unknown[]).length, 0),
    });
    expect(await loaderPage.readAs.inputValue()).toBe("atropos");
    await openGroup(page, "line-2");
    const call = page.getByTestId("rollout-column").first().getByTestId("transcript.tool-call");
    await call.first().waitFor();
    expect(await call.first().innerText()).toContain("get_stock");
    expect(pageErrors.list).toEqual([]);
  });
});
