/**
 * The tool-error rule is total and consistent: it never throws on any content, an `error` field
 * that says something always makes an error whatever else the object holds, and the same object
 * is classified the same whatever its key order or whitespace.
 */
import { fc, test } from "@fast-check/vitest";
import { describe, expect } from "vitest";
import type { ChatMessage } from "../types.ts";
import { toolResultError } from "./toolErrors.ts";

const tool = (content: string, error?: boolean): ChatMessage => ({
  role: "tool",
  content,
  toolCalls: [],
  toolCallId: null,
  name: null,
  ...(error === undefined ? {} : { error }),
});

const scalar = fc.oneof(
  fc.string({ maxLength: 6 }),
  fc.integer({ min: -2, max: 700 }),
  fc.boolean(),
  fc.constant(null),
);
const key = fc.constantFrom("status", "status_code", "exit_code", "ok", "success", "data", "msg");
const record = fc.dictionary(key, scalar, { maxKeys: 5 });

describe("toolResultError", () => {
  test.prop([fc.string(), fc.option(fc.boolean(), { nil: undefined })])(
    "never throws, and a result marked by the source is always an error",
    (content, error) => {
      const found = toolResultError(tool(content, error));
      if (error === true) expect(found).not.toBeNull();
      if (found !== null) expect(typeof found.message).toBe("string");
    },
  );

  test.prop([record, fc.string({ minLength: 1, maxLength: 20 })])(
    "a non-empty error message makes an error, whatever the rest says",
    (rest, message) => {
      expect(toolResultError(tool(JSON.stringify({ ...rest, error: message })))).toEqual({
        kind: "error-key",
        message,
      });
    },
  );

  test.prop([record, fc.integer({ min: 0, max: 4 })])(
    "key order and surrounding whitespace change nothing",
    (value, pad) => {
      const reversed = Object.fromEntries(Object.entries(value).reverse());
      const spaces = " ".repeat(pad);
      expect(toolResultError(tool(`${spaces}${JSON.stringify(reversed, null, pad)}\n`))).toEqual(
        toolResultError(tool(JSON.stringify(value))),
      );
    },
  );
});
