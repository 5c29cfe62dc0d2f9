/**
 * axe-core in the page (issue 8 part 6). The engine's own bundle (axe-core/axe.min.js) is
 * evaluated through the DevTools protocol, which the studio's Content-Security-Policy does not
 * govern (an injected <script> tag would be refused, and rightly), then `axe.run` checks the
 * document against WCAG 2.1 A and AA and axe's best practices. Used by e2e/accessibility.spec.ts.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Page } from "playwright-core";

const AXE_SOURCE = readFileSync(
  createRequire(import.meta.url).resolve("axe-core/axe.min.js"),
  "utf8",
);

export interface AxeViolation {
  readonly id: string;
  readonly impact: string | null;
  readonly help: string;
  /** Each offending element: its selector and what to fix. */
  readonly nodes: readonly string[];
}

const TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"];

/** The violations of the given impacts (default: serious and critical) on the page as it is. */
export async function axeViolations(
  page: Page,
  impacts: readonly string[] = ["serious", "critical"],
): Promise<AxeViolation[]> {
  const loaded = await page.evaluate(() => "axe" in window);
  if (!loaded) await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async (tags) => {
    const axe = (
      window as unknown as {
        axe: {
          run: (
            context: Document,
            options: object,
          ) => Promise<{
            violations: {
              id: string;
              impact: string | null;
              help: string;
              nodes: { target: unknown[]; failureSummary?: string }[];
            }[];
          }>;
        };
      }
    ).axe;
    const result = await axe.run(document, {
      runOnly: { type: "tag", values: tags },
      resultTypes: ["violations"],
    });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map(
        (n) =>
          `${n.target.map(String).join(" ")}: ${(n.failureSummary ?? "").replace(/\s+/g, " ")}`,
      ),
    }));
  }, TAGS);
  return violations.filter((v) => v.impact !== null && impacts.includes(v.impact));
}
