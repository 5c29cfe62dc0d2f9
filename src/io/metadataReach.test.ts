/**
 * Every loader's metadata reaches the metadata views (issue 13, finding 5): the fields the formats
 * keep in `Rollout.meta` (the demo's `meta`, tau-bench's `info` with the task's expected actions,
 * an Inspect sample's `metadata` and `target`, TRL and verl extra columns) are found by core
 * `metadataFields`, and a group's task-level part is split out by `metadataSplit`.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { metadataFields, metadataRollouts, metadataSplit } from "../core/index.ts";
import { generateDemo } from "../../scripts/generate-demo.ts";
import { loadBytes, loadText } from "./index.ts";

const FIXTURES = fileURLToPath(new URL("./__fixtures__/", import.meta.url));
const TAU = fileURLToPath(
  new URL("../../../shared/data/tau-bench/gpt-4o-airline.json", import.meta.url),
);

async function load(path: string) {
  const bytes = readFileSync(path);
  return loadBytes(path, new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength));
}

const paths = (groups: Parameters<typeof metadataRollouts>[0]) =>
  metadataFields(metadataRollouts(groups)).fields.map((f) => f.path);

describe("metadata from every loader", () => {
  it("the demo's meta: per rollout the strategy, per group the scenario and order", async () => {
    const { groups } = await loadText("support-groups.jsonl", generateDemo());
    expect(paths(groups)).toEqual(expect.arrayContaining(["scenario", "strategy", "order_id"]));
    const split = metadataSplit(groups.find((g) => g.id === "refund-004")!);
    expect(Object.keys(split.shared)).toEqual(expect.arrayContaining(["scenario", "order_id"]));
    expect(split.own.every((o) => typeof o.strategy === "string")).toBe(true);
  });

  it("tau-bench's info: the task with its expected actions is the group's", async () => {
    const { groups } = await load(TAU);
    expect(paths(groups)).toEqual(
      expect.arrayContaining(["trial", "info.task.user_id", "info.source"]),
    );
    const split = metadataSplit(groups[0]!);
    const info = split.shared.info as { task: { actions: { name: string }[] } };
    expect(info.task.actions.map((a) => a.name)).toContain("book_reservation");
    expect(split.own.map((o) => o.trial)).toEqual([0, 1, 2, 3]);
  });

  it("Inspect: the sample's metadata and target", async () => {
    const { groups } = await load(`${FIXTURES}inspect/ctf-log.json`);
    expect(paths(groups)).toEqual(expect.arrayContaining(["target", "metadata.difficulty"]));
  });

  it("TRL and verl: the extra columns", async () => {
    const trl = await load(`${FIXTURES}trl/completions-jsonl.jsonl`);
    expect(paths(trl.groups)).toEqual(expect.arrayContaining(["step", "solution"]));
    const verl = await load(`${FIXTURES}verl/step12.jsonl`);
    expect(paths(verl.groups)).toEqual(expect.arrayContaining(["gts", "step", "acc", "pred"]));
  });
});
