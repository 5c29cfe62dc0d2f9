/**
 * `analyze --verifiers` says who passes differently once the spec is applied (issue 13, finding
 * 1): the rule applied and the flips on stderr, and in `--json` under `verifiers.flips`; the
 * default rule on a 0/1 reward multiplies, so an exact match turns no fail into a pass.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { main } from "./main.ts";

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "rollout-studio-flips-test-"));
  const rows = [
    { group_id: "g", completion: "Refunded #W1000001.", reward: 1, meta: { order_id: "W1000001" } },
    { group_id: "g", completion: "Refunded #W9999999.", reward: 1, meta: { order_id: "W1000001" } },
    {
      group_id: "g",
      completion: "Could not refund #W1000001.",
      reward: 0,
      meta: { order_id: "W1000001" },
    },
    { group_id: "g", completion: "Sorry.", reward: 0, meta: { order_id: "W1000001" } },
  ];
  writeFileSync(join(dir, "d.jsonl"), rows.map((r) => `${JSON.stringify(r)}\n`).join(""));
  for (const rule of ["auto", "keep"])
    writeFileSync(
      join(dir, `${rule}.json`),
      JSON.stringify({
        version: 1,
        loggedReward: rule,
        verifiers: [{ kind: "exact-match", name: "em", field: "order_id", pattern: "#(W\\d{7})" }],
      }),
    );
  writeFileSync(
    join(dir, "default.json"),
    JSON.stringify({
      version: 1,
      verifiers: [{ kind: "exact-match", name: "em", field: "order_id", pattern: "#(W\\d{7})" }],
    }),
  );
});

async function run(args: string[]) {
  let stdout = "";
  let stderr = "";
  const code = await main(args, {
    stdout: (t) => (stdout += t),
    stderr: (t) => (stderr += t),
    cwd: dir,
  });
  return { code, stdout, stderr };
}

describe("analyze --verifiers: flips", () => {
  it("keep: the fail that cites the right order passes, on stderr and in the JSON", async () => {
    const r = await run(["analyze", "d.jsonl", "--verifiers", "keep.json", "--json"]);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe(
      [
        "keep.json: the total is the logged reward plus the verifiers' components.",
        "keep.json: 1 rollout change pass/fail (1 fail -> pass, 0 pass -> fail): passes 2 -> 3 of 4",
        "keep.json:   g: passes 2 -> 3 of 4",
        "keep.json:   g/2: fail -> pass: the total goes from 0 to 1 (em 1 added) and the pass threshold is 0.5",
        "",
      ].join("\n"),
    );
    const doc = JSON.parse(r.stdout) as { verifiers: Record<string, unknown> };
    expect(doc.verifiers).toMatchObject({
      loggedReward: "keep",
      loggedRewardRule: "keep",
      flips: {
        passesBefore: 2,
        passesAfter: 3,
        groups: [{ groupId: "g", n: 4, passesBefore: 2, passesAfter: 3, toPass: 1, toFail: 0 }],
        rollouts: [{ id: "g/2", groupId: "g", before: 0, after: 1, toPass: true }],
      },
    });
  });

  it("the default (auto) multiplies the 0/1 reward: the decoy's pass fails, no fail passes", async () => {
    for (const spec of ["auto.json", "default.json"]) {
      const r = await run(["analyze", "d.jsonl", "--verifiers", spec, "--json"]);
      expect(r.code).toBe(0);
      expect(r.stderr).toContain(`${spec}: auto: every logged reward is 0 or 1`);
      expect(r.stderr).toContain(
        `${spec}:   g/1: pass -> fail: the total goes from 1 to 0 (em 0 multiplied in) and the pass threshold is 0.5`,
      );
      const doc = JSON.parse(r.stdout) as {
        verifiers: {
          loggedReward: string;
          loggedRewardRule: string;
          flips: { rollouts: { toPass: boolean }[] };
        };
        groups: { rollouts: { reward: number }[] }[];
      };
      expect(doc.verifiers.loggedReward).toBe("multiply");
      expect(doc.verifiers.loggedRewardRule).toBe("auto");
      expect(doc.verifiers.flips.rollouts.map((f) => f.toPass)).toEqual([false]);
      expect(doc.groups[0]!.rollouts.map((x) => x.reward)).toEqual([1, 0, 0, 0]);
    }
  });

  it("the plain summary lists the flips under the verifiers", async () => {
    const r = await run(["analyze", "d.jsonl", "--verifiers", "keep.json"]);
    expect(r.stdout).toContain("verifiers (added to the logged reward):");
    expect(r.stdout).toContain("  1 rollout change pass/fail (1 fail -> pass, 0 pass -> fail)");
  });
});
