/**
 * The verifiers' own entry point. The studio's verifier modules (store/verifiers, workers/verify*,
 * ui/features/verifiers) import from here rather than the core barrel, so the bundler keeps this
 * code, and the JSON-schema validator, in the chunks that load with the Verifiers panel or a saved
 * spec, never in the first page's.
 */
export * from "./spec.ts";
export * from "./fields.ts";
export * from "./match.ts";
export * from "./length.ts";
export * from "./jsonSchema.ts";
export * from "./run.ts";
export * from "./apply.ts";
export * from "./drop.ts";
