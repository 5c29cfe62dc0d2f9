/**
 * Covers issue 13, finding 2: DPO pairs of agent transcripts keep the trajectory. On the demo's
 * refund-004, a hack that calls refund_order twice (refund-004/4) is rejected against an honest
 * pass (refund-004/2): the Exports panel's DPO download carries both conversations as message
 * lists in TRL's conversational form, tool calls and tool results included, so the pair differs by
 * a whole refund call and not only by the final words. The panel's "text" option gives the old
 * final-message form, with `--text` in the command it shows; each download equals
 * `rollout-studio export` with the same options, byte for byte. Stable test ids only.
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { generateDemo } from "../scripts/generate-demo.ts";
import { main } from "../src/cli/main.ts";
import { describe, expect, test } from "./harness/test.ts";
import { Exports } from "./pages/Exports.ts";

const dir = mkdtempSync(join(tmpdir(), "exports-trajectory-"));
const demoPath = join(dir, "support-groups.jsonl");
writeFileSync(demoPath, generateDemo());

interface Message {
  role: string;
  content: string;
  tool_calls?: { id?: string; type: string; function: { name: string; arguments: string } }[];
  tool_call_id?: string;
  name?: string;
}
interface Pair {
  prompt: unknown;
  chosen: unknown;
  rejected: unknown;
  chosen_id: string;
  rejected_id: string;
  rule: string;
}

const pairs = (text: string): Pair[] =>
  text
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => JSON.parse(l) as Pair);

const refundCalls = (messages: Message[]) =>
  messages.flatMap((m) => (m.tool_calls ?? []).filter((c) => c.function.name === "refund_order"));

/** `rollout-studio export --kind dpo` in-process, to stdout. */
async function cliDpo(annotations: string, ...flags: string[]): Promise<string> {
  let out = "";
  let err = "";
  const code = await main(
    ["export", demoPath, "--annotations", annotations, "--kind", "dpo", "--out", "-", ...flags],
    { stdout: (t) => (out += t), stderr: (t) => (err += t), cwd: dir },
  );
  expect(code, err).toBe(0);
  return out;
}

describe("exports keep the trajectory", () => {
  test("a DPO pair of a double refund carries both conversations with their tool calls; the text option gives the final messages", async ({
    baseUrl,
    page,
    pageErrors,
  }) => {
    const annotationsPath = join(dir, "double-refund.json");
    writeFileSync(
      annotationsPath,
      JSON.stringify({
        version: 1,
        groups: {
          "refund-004": {
            ranking: [["refund-004/1"], ["refund-004/2"]],
            hacks: ["refund-004/4"],
            labels: {},
            notes: "",
          },
        },
      }),
    );
    await page.goto(`${baseUrl}/?demo&group=refund-004`);
    await page.locator('[data-testid="group.detail"][data-clusters="ready"]').waitFor();
    await page.getByTestId("annotations-import").setInputFiles(annotationsPath);
    await page.getByTestId("annotations.message").getByText("Imported annotations").waitFor();

    const exportsPanel = new Exports(page);
    await exportsPanel.open();
    // Tiers 1 > 2, and the hack against each of the group's other passes (1, 2, 5).
    expect(await exportsPanel.rows("dpo")).toBe(4);
    expect(await exportsPanel.command("dpo")).not.toContain("--text");

    const { path } = await exportsPanel.download("dpo", dir, "dpo-messages.jsonl");
    const messagesText = readFileSync(path, "utf8");
    const pair = pairs(messagesText).find(
      (p) => p.chosen_id === "refund-004/2" && p.rejected_id === "refund-004/4",
    )!;
    expect(pair.rule).toBe("hack");
    const prompt = pair.prompt as Message[];
    expect(prompt.map((m) => m.role)).toEqual(["system", "user"]);
    const chosen = pair.chosen as Message[];
    const rejected = pair.rejected as Message[];
    expect(chosen[0]!.role).toBe("assistant");
    expect(refundCalls(chosen)).toHaveLength(1);
    expect(refundCalls(rejected)).toHaveLength(2);
    for (const call of refundCalls(rejected)) {
      expect(call).toMatchObject({ type: "function", function: { name: "refund_order" } });
      expect(JSON.parse(call.function.arguments)).toMatchObject({ order_id: "W1843778" });
      expect(rejected.find((m) => m.role === "tool" && m.tool_call_id === call.id)).toMatchObject({
        name: "refund_order",
      });
    }
    // The CLI writes the same bytes.
    const importedPath = join(dir, "imported.json");
    writeFileSync(importedPath, readFileSync(annotationsPath, "utf8"));
    expect(await cliDpo(importedPath)).toBe(messagesText);

    // The text option: the final assistant messages, as before, and `--text` in the command.
    await exportsPanel.chooseTranscripts("text");
    expect(await exportsPanel.command("dpo")).toContain("--text final-assistant");
    const text = readFileSync(
      (await exportsPanel.download("dpo", dir, "dpo-text.jsonl")).path,
      "utf8",
    );
    const textPair = pairs(text).find(
      (p) => p.chosen_id === "refund-004/2" && p.rejected_id === "refund-004/4",
    )!;
    expect(typeof textPair.prompt).toBe("string");
    expect(typeof textPair.chosen).toBe("string");
    expect(typeof textPair.rejected).toBe("string");
    expect(await cliDpo(importedPath, "--text", "final-assistant")).toBe(text);
    expect(pageErrors.list).toEqual([]);
  });
});
