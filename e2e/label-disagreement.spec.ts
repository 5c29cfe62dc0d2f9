/**
 * Covers issue 13, finding 1 (last part): a human label beside the reward's pass or fail is one
 * chip, not two ("fail fail"): "fail · human agrees" when they agree, and a warning chip
 * "reward: pass · human: fail" when they disagree; a defer is said beside the verdict. Stable ids:
 * `rollout-column`, `annotate.label.*`, and the chip's `column.pass` (data-agreement).
 */
import { describe, expect, test } from "./harness/test.ts";
import { Annotate } from "./pages/Annotate.ts";

describe("human label against the pass rule", () => {
  test("agreeing labels are one chip; a disagreeing one is a warning, never two chips", async ({
    baseUrl,
    page,
    pageErrors,
  }) => {
    // refund-004: rewards 0 1 1 0 1 1 (fail, pass, pass, fail, pass, pass).
    await page.goto(`${baseUrl}/?demo&group=refund-004`);
    await page.locator('[data-testid="group.detail"][data-clusters="ready"]').waitFor();
    const annotate = new Annotate(page);
    // The header's title row: the rollout id, its verdict and flags (the label buttons are below).
    const header = (id: string) => annotate.column(id).locator("h3").first().locator("..");
    const chip = (id: string) => annotate.column(id).getByTestId("column.pass");

    await annotate.label("refund-004/0", "fail").click();
    await annotate.label("refund-004/1", "fail").click();
    await annotate.label("refund-004/2", "defer").click();
    await annotate.label("refund-004/4", "pass").click();
    await chip("refund-004/1").and(page.locator('[data-agreement="disagrees"]')).waitFor();

    // Agrees: one chip that says so, and no repeated verdict.
    expect(await chip("refund-004/0").innerText()).toBe("fail · human agrees");
    expect(await chip("refund-004/0").getAttribute("data-agreement")).toBe("agrees");
    expect(await header("refund-004/0").innerText()).not.toMatch(/fail\s+fail/);
    expect(await chip("refund-004/4").innerText()).toBe("pass · human agrees");
    expect(await header("refund-004/4").innerText()).not.toMatch(/pass\s+pass/);

    // Disagrees: the reward passes it, the human fails it: a warning, not "pass" beside "fail".
    expect(await chip("refund-004/1").innerText()).toBe("reward: pass · human: fail");
    expect(await chip("refund-004/1").getAttribute("title")).toMatch(
      /^The reward says pass; your label says fail\./,
    );
    expect(await header("refund-004/1").innerText()).not.toMatch(/pass\s+fail/);

    // Deferred, and no label.
    expect(await chip("refund-004/2").innerText()).toBe("pass · human deferred");
    expect(await chip("refund-004/3").innerText()).toBe("fail");
    expect(await chip("refund-004/3").getAttribute("data-agreement")).toBe("none");

    // One verdict chip per column.
    const counts = await page
      .getByTestId("rollout-column")
      .evaluateAll((cols) =>
        cols.map((c) => c.querySelectorAll('[data-testid="column.pass"]').length),
      );
    expect(counts).toEqual([1, 1, 1, 1, 1, 1]);
    expect(pageErrors.list).toEqual([]);
  });
});
