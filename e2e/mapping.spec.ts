/**
 * Covers: a CSV in no known format loaded through the field-mapping dialog in the built app: the
 * error, the dialog (opened by itself, closed with Escape, reopened from "Map fields…"), the fields
 * of the sample and the guessed picks, the live preview, loading as the mapped format, and presets
 * saved to localStorage, listed again after a reload, applied and deleted.
 */
import { ARTIFACTS_DIR, describe, expect, test } from "./harness/test.ts";
import { MappingDialog } from "./pages/MappingDialog.ts";

/** Columns no format knows: the group is the question, the rollout's text is the sample. */
const CSV = [
  "question,sample,answer_text,score",
  "What is 2+2?,4,4,1",
  "What is 2+2?,5,4,0",
  '"Capital of France?","Paris, of course",Paris,1',
  '"Capital of France?","<img src=x onerror=""document.title=\'pwned\'"">",Paris,0',
  "Largest planet?,Jupiter,Jupiter,1",
  "Largest planet?,Saturn,Jupiter,0",
].join("\n");

const unknownCsv = () => ({ name: "qa.csv", mimeType: "text/csv", buffer: Buffer.from(CSV) });

describe("field mapping", () => {
  test("an unknown CSV loads through the field-mapping dialog", async ({
    baseUrl,
    loaderPage,
    page,
    pageErrors,
  }) => {
    const dialog = new MappingDialog(page);
    await loaderPage.open(baseUrl);
    await loaderPage.choose(unknownCsv());
    await loaderPage.loadError.waitFor();
    expect(await loaderPage.loadError.innerText()).toContain("qa.csv: is in no known format");

    // No format matched, so the dialog opens by itself; Escape closes it and the error stays.
    await dialog.ready();
    await page.keyboard.press("Escape");
    await dialog.closed();
    expect(await loaderPage.loadError.isVisible()).toBe(true);

    // Reopened from the error, Escape gives focus back to "Map fields…".
    await dialog.open();
    await page.keyboard.press("Escape");
    await dialog.closed();
    expect(await page.evaluate(() => document.activeElement?.getAttribute("data-testid"))).toBe(
      "load.map-fields",
    );

    await dialog.open();
    expect(await dialog.fieldNames()).toEqual(["question", "sample", "answer_text", "score"]);
    expect(await dialog.group.inputValue()).toBe("question");
    expect(await dialog.text.inputValue()).toBe("answer_text");
    expect(await dialog.checkedRewards()).toEqual(["score"]);
    expect(await page.evaluate(() => document.activeElement?.getAttribute("data-testid"))).toBe(
      "mapping.group",
    );
    expect(await dialog.preview.innerText()).toBe("3 groups of 2 rollouts in the sample");

    await dialog.text.selectOption("sample");
    await page.screenshot({ path: `${ARTIFACTS_DIR}mapping-dialog.png`, fullPage: false });
    await dialog.submit.click();
    await dialog.closed();

    expect(await loaderPage.groupIds()).toEqual([
      "What is 2+2?",
      "Capital of France?",
      "Largest planet?",
    ]);
    expect(await loaderPage.readAs.inputValue()).toBe("mapped");
    expect(await loaderPage.counts.innerText()).toContain("6 rollouts in 3 groups");
    expect(await loaderPage.issueCount.innerText()).toBe("No issues");
    await page.getByTestId("groups.row.id").filter({ hasText: "Capital of France?" }).click();
    await page.getByTestId("group.detail").getByText("Group Capital of France?").waitFor();
    expect(await page.getByTestId("rollout-column").allInnerTexts()).toEqual([
      expect.stringContaining("Paris, of course") as string,
      expect.stringContaining("<img src=x") as string,
    ]);
    expect(await page.title()).toBe("Rollout Studio");
    expect(pageErrors.list).toEqual([]);
  });

  test("a saved preset is listed after a reload, applies its picks, and can be deleted", async ({
    baseUrl,
    loaderPage,
    page,
    pageErrors,
  }) => {
    const dialog = new MappingDialog(page);
    await loaderPage.open(baseUrl);
    await loaderPage.choose(unknownCsv());
    await dialog.ready();
    await dialog.text.selectOption("sample");
    await dialog.savePreset("QA sheet");
    expect(await dialog.preset("QA sheet").innerText()).toContain(
      "question → sample, reward score",
    );
    await dialog.submit.click();
    expect(await loaderPage.groupIds()).toHaveLength(3);

    await page.reload();
    await loaderPage.dropZone.waitFor();
    await loaderPage.choose(unknownCsv());
    await dialog.ready();
    expect(await dialog.presetNames()).toEqual(["QA sheet"]);
    expect(await dialog.text.inputValue()).toBe("answer_text");
    await dialog.preset("QA sheet").getByTestId("mapping.preset.apply").click();
    expect(await dialog.text.inputValue()).toBe("sample");

    await dialog.preset("QA sheet").getByTestId("mapping.preset.delete").click();
    await dialog.root.getByTestId("mapping.presets-empty").waitFor();
    const stored = await page.evaluate(() => localStorage.getItem("rollout-studio"));
    expect(
      (JSON.parse(stored ?? "null") as { state: { presets: unknown[] } }).state.presets,
    ).toEqual([]);
    await dialog.submit.click();
    expect(await loaderPage.groupIds()).toHaveLength(3);
    expect(pageErrors.list).toEqual([]);
  });
});
