/**
 * Properties of the strict parsers: any valid tier assignment over the passes round-trips through a
 * reply; any omitted, repeated, out-of-range or failing index is an invalid_reply; the clusterer
 * accepts every permutation of a complete assignment and rejects any broken one.
 */
import { fc, test } from "@fast-check/vitest";
import { describe, expect } from "vitest";
import { parseClusterReply } from "./clusterer.ts";
import { parseGroupReply, type GroupGraderItem } from "./group.ts";
import { parsePairwiseReply } from "./pairwise.ts";
import { parseRubricReply } from "./rubric.ts";

/** A group (some passes) plus a valid verdict: the passes shuffled into tiers, some as hacks. */
const groupAndVerdict = fc
  .array(fc.boolean(), { minLength: 1, maxLength: 10 })
  .chain((passMask) => {
    const items: GroupGraderItem[] = passMask.map((p, i) => ({ text: `t${i}`, reward: p ? 1 : 0 }));
    const passes = passMask.flatMap((p, i) => (p ? [i] : []));
    return fc
      .tuple(
        fc.shuffledSubarray(passes, { minLength: passes.length, maxLength: passes.length }),
        fc.array(fc.nat(3), { minLength: passes.length, maxLength: passes.length }),
        fc.array(fc.boolean(), { minLength: passes.length, maxLength: passes.length }),
      )
      .map(([order, cuts, hackMask]) => {
        const hacks = order.filter((_, k) => hackMask[k]);
        const ranked = order.filter((_, k) => !hackMask[k]);
        const tiers: number[][] = [];
        ranked.forEach((i, k) => {
          if (tiers.length === 0 || cuts[k] === 0) tiers.push([i]);
          else tiers[tiers.length - 1]!.push(i);
        });
        return { items, passes, tiers, hacks };
      });
  });

describe("group grader parser", () => {
  test.prop([groupAndVerdict, fc.constantFrom("plain", "fenced", "think")])(
    "any valid tier assignment round-trips",
    ({ items, tiers, hacks }, wrap) => {
      const json = JSON.stringify({ tiers, hacks });
      const text =
        wrap === "plain"
          ? json
          : wrap === "fenced"
            ? `Sure:\n\`\`\`json\n${json}\n\`\`\``
            : `<think>{"tiers": []}</think>${json}`;
      expect(parseGroupReply(text, items)).toEqual({
        ok: true,
        value: { tiers, hacks, reason: null },
      });
    },
  );

  test.prop([
    groupAndVerdict.filter((g) => g.passes.length > 0),
    fc.constantFrom("omit", "repeat", "out-of-range", "failing"),
    fc.nat(),
  ])(
    "any omitted, repeated, out-of-range or failing index is an invalid_reply",
    ({ items, tiers, hacks }, fault, pick) => {
      const all = [...tiers.flat(), ...hacks];
      const victim = all[pick % all.length]!;
      const n = items.length;
      const failing = items.findIndex((it) => it.reward === 0);
      let broken: number[][] = tiers.map((t) => [...t]);
      let brokenHacks = [...hacks];
      if (fault === "omit") {
        broken = broken.map((t) => t.filter((i) => i !== victim)).filter((t) => t.length > 0);
        brokenHacks = brokenHacks.filter((i) => i !== victim);
      } else if (fault === "repeat") broken.push([victim]);
      else if (fault === "out-of-range")
        broken.push([pick % 2 === 0 ? n + (pick % 5) : -1 - (pick % 5)]);
      else if (failing >= 0) broken.push([failing]);
      else broken.push([n]);
      const r = parseGroupReply(JSON.stringify({ tiers: broken, hacks: brokenHacks }), items);
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.error.kind).toBe("invalid_reply");
    },
  );
});

describe("clusterer parser", () => {
  const assignment = fc.integer({ min: 1, max: 8 }).chain((n) =>
    fc.tuple(
      fc.constant(n),
      fc.array(fc.constantFrom("a", "b", "c"), { minLength: n, maxLength: n }),
      fc.shuffledSubarray(
        Array.from({ length: n }, (_, i) => i),
        { minLength: n, maxLength: n },
      ),
    ),
  );

  test.prop([assignment])("a complete assignment in any order is accepted", ([n, ids, order]) => {
    const reply = { assignments: order.map((index) => ({ index, cluster_id: ids[index] })) };
    const r = parseClusterReply(JSON.stringify(reply), n);
    expect(r.ok && r.value.clusterIds).toEqual(ids);
  });

  test.prop([assignment, fc.constantFrom("omit", "repeat", "out-of-range"), fc.nat()])(
    "an omitted, repeated or out-of-range index is an invalid_reply",
    ([n, ids, order], fault, pick) => {
      const entries = order.map((index) => ({ index, cluster_id: ids[index]! }));
      const k = pick % n;
      if (fault === "omit") entries.splice(k, 1);
      else if (fault === "repeat") entries.push({ ...entries[k]! });
      else entries[k] = { index: pick % 2 === 0 ? n + (pick % 3) : -1, cluster_id: "a" };
      const r = parseClusterReply(JSON.stringify({ assignments: entries }), n);
      expect(r.ok === false && r.error.kind).toBe("invalid_reply");
    },
  );
});

describe("any text", () => {
  test.prop([fc.string({ maxLength: 200 })])(
    "never throws: every parser returns a typed result or a typed error",
    (text) => {
      for (const r of [
        parseGroupReply(text, [{ text: "", reward: 1 }]),
        parsePairwiseReply(text),
        parseRubricReply(text),
        parseClusterReply(text, 2),
      ]) {
        if (!r.ok) expect(["malformed_reply", "invalid_reply"]).toContain(r.error.kind);
      }
    },
  );

  test.prop([fc.double(), fc.double()])(
    "rubric scores are accepted exactly when both are in [0, 1]",
    (s, b) => {
      const r = parseRubricReply(JSON.stringify({ solution: s, behavior: b }));
      // JSON turns NaN and infinities into null, which is rejected too.
      expect(r.ok).toBe(s >= 0 && s <= 1 && b >= 0 && b <= 1);
    },
  );
});
