import { describe, expect, it } from "vitest";
import {
  METADATA_KEYS_CAP,
  metadataLeafCount,
  metadataNodes,
  metadataSummary,
} from "./prepareMetadataTree.ts";

describe("metadataNodes", () => {
  it("makes objects folding nodes, scalars text, short arrays inline and long ones pretty JSON", () => {
    const long = Array.from({ length: 20 }, (_, i) => ({ name: `call_${i}` }));
    const { nodes, more } = metadataNodes(
      { s: "a\nb", n: 1, b: false, z: null, o: { x: 1 }, a: [1, 2], l: long },
      "p",
    );
    expect(more).toBe(0);
    expect(nodes.map((n) => [n.key, n.path, n.kind])).toEqual([
      ["s", "p.s", "value"],
      ["n", "p.n", "value"],
      ["b", "p.b", "value"],
      ["z", "p.z", "value"],
      ["o", "p.o", "object"],
      ["a", "p.a", "value"],
      ["l", "p.l", "value"],
    ]);
    const text = (i: number) => {
      const n = nodes[i]!;
      return n.kind === "value" ? [n.text, n.type, n.block] : null;
    };
    expect(text(0)).toEqual(["a\nb", "string", true]);
    expect(text(1)).toEqual(["1", "number", false]);
    expect(text(3)).toEqual(["null", "null", false]);
    expect(text(5)).toEqual(["[1,2]", "json", false]);
    expect(text(6)).toEqual([JSON.stringify(long, null, 2), "json", true]);
  });

  it("keeps markup as text", () => {
    const [node] = metadataNodes({ html: "<img src=x onerror=alert(1)>" }).nodes;
    expect(node).toMatchObject({ kind: "value", text: "<img src=x onerror=alert(1)>" });
  });

  it("lists at most METADATA_KEYS_CAP keys and counts the rest", () => {
    const obj = Object.fromEntries(
      Array.from({ length: METADATA_KEYS_CAP + 5 }, (_, i) => [`k${i}`, i]),
    );
    const { nodes, more } = metadataNodes(obj);
    expect(nodes).toHaveLength(METADATA_KEYS_CAP);
    expect(more).toBe(5);
  });
});

describe("metadataSummary and metadataLeafCount", () => {
  const meta = { strategy: "verify", info: { task: { id: 3 }, actions: [1, 2] }, note: "a  \n b" };
  it("names the first fields depth first, on one line", () => {
    expect(metadataSummary(meta)).toBe(
      "strategy verify · info.task.id 3 · info.actions [2] · note a b",
    );
    expect(metadataSummary(meta, 1)).toBe("strategy verify");
    expect(metadataSummary({})).toBe("");
  });
  it("counts the leaves through nested objects", () => {
    expect(metadataLeafCount(meta)).toBe(4);
  });
});
