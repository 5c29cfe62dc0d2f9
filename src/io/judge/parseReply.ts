/**
 * Kept for existing importers: the reply reading is pure and now lives in core
 * (`src/core/judge/reply.ts`), where the graders' strict parsers use it.
 */
export { parseReplyJson, stripThink, unwrapFence, type ReplyJson } from "../../core/judge/reply.ts";
