import { describe, expect, it } from "vitest";
import { isTypingTarget } from "./keyboard.ts";

describe("isTypingTarget", () => {
  it("is true for text fields and contenteditable, false elsewhere", () => {
    const input = document.createElement("input");
    const area = document.createElement("textarea");
    const select = document.createElement("select");
    const editable = document.createElement("div");
    editable.setAttribute("contenteditable", "true");
    const inner = document.createElement("span");
    editable.append(inner);
    document.body.append(editable);
    expect([input, area, select, editable, inner].map(isTypingTarget)).toEqual([
      true,
      true,
      true,
      true,
      true,
    ]);
    expect(isTypingTarget(document.createElement("button"))).toBe(false);
    expect(isTypingTarget(null)).toBe(false);
    editable.remove();
  });
});
