/**
 * JSON-schema validation of a completion (the library's `schema_reward`), with
 * @cfworker/json-schema: it interprets schemas instead of compiling them to code, so it runs where
 * a Content-Security-Policy forbids `eval` and `new Function` (the studio's does), in the worker
 * and in Node alike.
 */
import { Validator } from "@cfworker/json-schema";
import type { JsonSchemaDraft } from "./spec.ts";

/** A schema ready to validate instances, or why the value is not a usable schema. */
export type CompiledSchema =
  | { readonly ok: true; readonly validate: (instance: unknown) => SchemaVerdict }
  | { readonly ok: false; readonly problem: string };

export interface SchemaVerdict {
  readonly valid: boolean;
  /** The first error ("/age: ..."), "" when valid. */
  readonly note: string;
}

/**
 * Prepare a schema: an object or a boolean as it is, or JSON text of one (a per-row schema field
 * may hold either). Anything else is not a schema.
 */
export function jsonSchemaCompile(schema: unknown, draft: JsonSchemaDraft): CompiledSchema {
  let value = schema;
  if (typeof value === "string") {
    try {
      value = JSON.parse(value) as unknown;
    } catch (e) {
      return { ok: false, problem: `the schema text is not JSON (${errorText(e)})` };
    }
  }
  if (
    typeof value !== "boolean" &&
    (typeof value !== "object" || value === null || Array.isArray(value))
  )
    return { ok: false, problem: `a schema must be an object or a boolean, not ${kindOf(value)}` };
  let validator: Validator;
  try {
    validator = new Validator(value, draft, true);
  } catch (e) {
    return { ok: false, problem: `the schema is invalid (${errorText(e)})` };
  }
  return {
    ok: true,
    validate: (instance) => {
      const result = validator.validate(instance);
      if (result.valid) return { valid: true, note: "" };
      // The deepest error says the most; the validator lists the outer keyword first.
      const error = result.errors[result.errors.length - 1];
      const where = error?.instanceLocation.replace(/^#/, "") || "/";
      return { valid: false, note: `${where}: ${error?.error ?? "does not validate"}` };
    },
  };
}

/**
 * Whether a completion parses as JSON and validates. Not JSON, or invalid, is 0 with a note.
 * A validator that throws on an instance (an unresolvable `$ref`) counts as invalid, with its message.
 */
export function jsonSchemaCheck(
  text: string,
  validate: (instance: unknown) => SchemaVerdict,
): SchemaVerdict {
  let instance: unknown;
  try {
    instance = JSON.parse(text) as unknown;
  } catch (e) {
    return { valid: false, note: `not JSON: ${errorText(e)}` };
  }
  try {
    return validate(instance);
  } catch (e) {
    return { valid: false, note: `the schema could not be applied: ${errorText(e)}` };
  }
}

function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

function kindOf(x: unknown): string {
  if (x === null) return "null";
  if (x === undefined) return "missing";
  return Array.isArray(x) ? "an array" : `a ${typeof x}`;
}
