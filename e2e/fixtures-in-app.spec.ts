/**
 * Covers: every format's fixture dropped into the built app shows the groups, format and issue
 * count that the loader's golden files pin (src/io/__fixtures__/<format>/<case>.expected.json), plus
 * the real Inspect .eval. Cases that need a field mapping are covered by mapping.spec.ts.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, test } from "./harness/test.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const FIXTURES = `${ROOT}src/io/__fixtures__`;

interface Expected {
  format: string;
  groups: { id: string }[];
  issues: unknown[];
}

const cases = readdirSync(FIXTURES, { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .flatMap((d) =>
    readdirSync(`${FIXTURES}/${d.name}`)
      .filter(
        (f) =>
          /\.(jsonl|json|csv|parquet|traj)$/.test(f) &&
          !f.endsWith(".expected.json") &&
          !f.endsWith(".options.json"),
      )
      .filter((f) => !existsSync(`${FIXTURES}/${d.name}/${f.replace(/\.[^.]+$/, "")}.options.json`))
      .map((f) => ({
        format: d.name,
        file: f,
        path: `${FIXTURES}/${d.name}/${f}`,
        expected: `${FIXTURES}/${d.name}/${f.replace(/\.[^.]+$/, "")}.expected.json`,
      })),
  )
  .filter((c) => existsSync(c.expected));

describe("every format's fixture in the app", () => {
  test("the fixture list covers every auto-detected format", () => {
    expect(new Set(cases.map((c) => c.format))).toEqual(
      new Set([
        "atif",
        "atropos",
        "benchmax",
        "inspect",
        "native",
        "nemo-gym",
        "openai",
        "openhands",
        "swe-agent",
        "tau2",
        "trl",
        "verifiers",
        "verl",
        "whileai",
      ]),
    );
  });

  for (const { format, file, path, expected } of cases) {
    test(`${format}/${file}`, async ({ loaderPage, baseUrl, pageErrors }) => {
      const want = JSON.parse(readFileSync(expected, "utf8")) as Expected;
      await loaderPage.open(baseUrl);
      await loaderPage.choose(path);
      expect(await loaderPage.groupIds()).toEqual(want.groups.map((g) => g.id));
      expect(await loaderPage.readAs.inputValue()).toBe(want.format);
      const n = want.issues.length;
      expect(await loaderPage.issueCount.innerText()).toBe(
        n === 0 ? "No issues" : `${n} issue${n === 1 ? "" : "s"}`,
      );
      if (n > 0) expect(await loaderPage.issues()).toHaveLength(n);
      expect(pageErrors.list).toEqual([]);
    });
  }

  test("TRL: the trainer's logged advantage shows beside ours", async ({
    loaderPage,
    baseUrl,
    page,
    pageErrors,
  }) => {
    await loaderPage.open(baseUrl);
    await loaderPage.choose(`${FIXTURES}/trl/completions_00040.parquet`);
    await loaderPage.groupIds();
    await page.getByTitle("The advantage the trainer logged").first().waitFor();
    // textContent, not innerText: columns below the fold skip rendering (content-visibility).
    await expect
      .poll(async () => {
        const cells = await page.getByTestId("metric-trainer-advantage").allTextContents();
        return cells.length > 0 && cells.every((c) => /^-?\d+\.\d{3}$/.test(c));
      })
      .toBe(true);
    expect(pageErrors.list).toEqual([]);
  });

  test("the real Inspect .eval: two samples across two epochs", async ({
    loaderPage,
    baseUrl,
    page,
    pageErrors,
  }) => {
    await loaderPage.open(baseUrl);
    await loaderPage.choose(`${ROOT}../shared/data/inspect/log_streaming.eval`);
    expect(await loaderPage.groupIds()).toEqual(["1", "2"]);
    expect(await loaderPage.readAs.inputValue()).toBe("inspect");
    expect(await page.getByTestId("rollout-column").count()).toBe(2);
    expect(pageErrors.list).toEqual([]);
  });
});
