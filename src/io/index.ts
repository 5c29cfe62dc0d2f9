/** The public surface of src/io: boundaries from unknown input to core's typed shapes. */
export * from "./issues.ts";
export * from "./jsonl/lines.ts";
export * from "./containers/bytes.ts";
export * from "./formats/spec.ts";
export * from "./formats/registry.ts";
export * from "./formats/load.ts";
export * from "./formats/messages.ts";
export * from "./annotations/annotationsFile.ts";
export * from "./judge/parseReply.ts";
export * from "./index/jsonlIndexer.ts";
export * from "./index/formatIndex.ts";
export * from "./dataset.ts";
export * from "./formats/records.ts";
export * from "./stream/readBlob.ts";
export * from "./stream/indexedFile.ts";
export { csvSample } from "./containers/csv.ts";
export { fieldAt } from "./formats/fields.ts";
export * from "./judge/judgeClient.ts";
