import { describe, expect, it } from "vitest";
import { HACK_REASONS_DEFAULT } from "../../../core/index.ts";
import { reasonsAdd, reasonsRemove, reasonsRename } from "./prepareReasons.ts";

describe("hack taxonomy edits", () => {
  it("adds a trimmed reason, never a blank or repeated one", () => {
    expect(reasonsAdd(["a"], "  b ")).toEqual({ reasons: ["a", "b"], error: "" });
    expect(reasonsAdd(["a"], "  ").error).toBe("A reason cannot be blank.");
    expect(reasonsAdd(["a"], "a ").error).toBe('"a" is already in the list.');
  });

  it("renames in place, refusing blanks and names taken by another reason", () => {
    expect(reasonsRename(["a", "b"], 1, "c")).toEqual({ reasons: ["a", "c"], error: "" });
    expect(reasonsRename(["a", "b"], 1, "b").error).toBe("");
    expect(reasonsRename(["a", "b"], 1, "a").reasons).toEqual(["a", "b"]);
    expect(reasonsRename(["a", "b"], 5, "x").error).toBe("No such reason.");
  });

  it("removes a reason but keeps at least one", () => {
    expect(reasonsRemove(HACK_REASONS_DEFAULT, 6).reasons).toEqual(
      HACK_REASONS_DEFAULT.slice(0, 6),
    );
    expect(reasonsRemove(["only"], 0)).toEqual({
      reasons: ["only"],
      error: "Keep at least one reason.",
    });
  });
});
