import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";

import { FirstClaims, idHash } from "./firstClaims.ts";

describe("FirstClaims", () => {
  test.prop([
    fc.array(
      fc.oneof(
        fc.string({ maxLength: 6 }),
        fc.string({ unit: "grapheme", maxLength: 4 }),
        fc.integer({ min: 0, max: 40 }).map((n) => `g${n % 7}/${n}`),
      ),
      { maxLength: 9000 },
    ),
    fc.integer({ min: 0, max: 64 }),
  ])("answers as a Map of each id's first row does, through every growth", (ids, expected) => {
    const claims = new FirstClaims(expected);
    const map = new Map<string, number>();
    ids.forEach((id, row) => {
      expect(claims.get(id)).toBe(map.get(id));
      if (!map.has(id)) map.set(id, row);
      expect(claims.claim(id, row)).toBe(map.get(id));
    });
    expect(claims.size).toBe(map.size);
    expect(new Map(claims.entries())).toEqual(map);
  });

  it("tells apart ids whose hashes collide", () => {
    // Find two short ids with one hash (a 32-bit hash collides within ~100k ids).
    const seen = new Map<number, string>();
    let pair: [string, string] | null = null;
    for (let i = 0; pair === null; i++) {
      const id = `r${i}`;
      const other = seen.get(idHash(id));
      if (other !== undefined) pair = [other, id];
      else seen.set(idHash(id), id);
    }
    const claims = new FirstClaims();
    expect(claims.claim(pair[0], 1)).toBe(1);
    expect(claims.get(pair[1])).toBeUndefined();
    expect(claims.claim(pair[1], 2)).toBe(2);
    expect(claims.claim(pair[1], 3)).toBe(2);
    expect(claims.get(pair[0])).toBe(1);
    expect(claims.get(pair[1])).toBe(2);
  });
});
